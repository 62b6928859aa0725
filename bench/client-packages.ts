/**
 * `npm run bench:client:packages [route]` (default /phonenumber): what one route's JavaScript is made of,
 * in gzip bytes per package, and the floor its vendor code sets. `-- --floor` measures, the same way,
 * bench/client-floor: the smallest list screen the required stack allows (Refine's useTable with antd's
 * Table, antd Layout and Menu, react-router, i18next), with none of our code.
 *
 * Method: a production Vite build into a temporary folder, with a plugin that keeps, per output chunk,
 * each module's rendered code (after tree-shaking, before minification: `chunk.modules[id].code` in
 * generateBundle). The route's chunks are those `bench/client.ts` counts (the entry's and the route's
 * static imports, from the manifest). Each package's modules are joined, minified with esbuild the way
 * the build minifies, and gzipped on their own; our own code (client/src, common, locales) is grouped
 * apart (`--modules 'ours: common'` lists one group's modules). Per-group gzip loses the redundancy shared across groups, so the groups add up to a little more
 * than the route's real files; the real total is printed beside them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { build, type Plugin } from 'vite';
import { closure, readManifest, routeModules } from '../client/build/routeChunks';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const floor = process.argv.includes('--floor');
const route = floor ? 'bench/client-floor' : (process.argv.slice(2).find((a) => a.startsWith('/')) ?? '/phonenumber');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-packages-'));

/** Rendered code of every module, per output file. */
const modulesByFile = new Map<string, Map<string, string>>();
const collect: Plugin = {
  name: 'collect-module-code',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const mods = new Map<string, string>();
      for (const [id, m] of Object.entries(chunk.modules)) if (m.code) mods.set(id, m.code);
      modulesByFile.set(chunk.fileName, mods);
    }
  },
};

await build({
  root: floor ? path.join(root, 'bench/client-floor') : path.join(root, 'client'),
  configFile: path.join(root, 'vite.config.ts'),
  logLevel: 'error',
  build: { outDir, emptyOutDir: true },
  plugins: [collect],
});

const manifest = readManifest(outDir);
const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const target = floor ? { route, modules: [] } : routeModules(root, manifest).find((r) => r.route === route);
if (!target) {
  console.error(`unknown route ${route}`);
  process.exit(1);
}
const files = [...closure(manifest, [entryKey, ...target.modules])].map((k) => manifest[k]!.file);

/** The package a module belongs to, or our own code's area. */
function groupOf(id: string): string {
  const nm = id.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = id.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (id.includes('/bench/client-floor/')) return 'ours: floor screen';
  if (id.includes('/client/src/locales/')) return 'ours: locales';
  if (id.includes('/client/src/')) return 'ours: client/src';
  if (id.includes('/common/')) return 'ours: common';
  return 'bundler runtime';
}

/** The stack issue 13 requires for a list screen, by family; anything else is listed as other vendor code. */
function familyOf(group: string): string {
  if (group.startsWith('ours:')) return 'ours';
  if (/^(react|react-dom|scheduler)$/.test(group)) return 'React';
  if (/^(antd|@ant-design\/|@rc-component\/|rc-|@ctrl\/|@emotion\/|stylis|classnames|throttle-debounce|scroll-into-view-if-needed|compute-scroll-into-view|copy-to-clipboard|toggle-selection|resize-observer-polyfill|json2mq|string-convert|dayjs)/.test(group)) return 'antd';
  if (/^(@refinedev\/|@tanstack\/|qs|qs-esm|lodash|lodash-es|pluralize|papaparse|error-stack-parser|stackframe|warn-once|side-channel|object-inspect|get-intrinsic|call-bind|es-|function-bind|has-|hasown|gopd|dunder-proto|math-intrinsics|get-proto|call-bound)/.test(group)) return 'Refine';
  if (/^(react-router|cookie|set-cookie-parser)$/.test(group)) return 'router';
  if (/^(i18next|react-i18next|html-parse-stringify|void-elements|use-sync-external-store)$/.test(group)) return 'i18n';
  return 'other vendor';
}

/** `--modules <group>`: list that group's modules (raw rendered bytes) instead of the package table. */
const listGroup = process.argv.includes('--modules') ? process.argv[process.argv.indexOf('--modules') + 1] : undefined;
const code = new Map<string, string[]>();
for (const file of files) {
  for (const [id, text] of modulesByFile.get(file) ?? []) {
    const g = groupOf(id);
    if (g === listGroup) console.log(`${String(text.length).padStart(8)}  ${id.slice(id.indexOf(root) === 0 ? root.length + 1 : 0)}`);
    let list = code.get(g);
    if (!list) code.set(g, (list = []));
    list.push(text);
  }
}

const rows: Array<{ group: string; family: string; gzip: number }> = [];
for (const [group, parts] of code) {
  const joined = parts.join('\n');
  let min = joined;
  try {
    // Wrapped in a function so local names are shortened as in the real output.
    min = (await transform(`(function(){${joined}\n})();`, { minify: true, treeShaking: false, ignoreAnnotations: true, loader: 'js' })).code;
  } catch {
    // Not valid on its own (should not happen): counted unminified.
  }
  rows.push({ group, family: familyOf(group), gzip: gzipSync(min, { level: 9 }).length });
}
rows.sort((a, b) => b.gzip - a.gzip);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const real = files.reduce((n, f) => n + gzipSync(fs.readFileSync(path.join(outDir, f)), { level: 9 }).length, 0);
const total = rows.reduce((n, r) => n + r.gzip, 0);
console.log(`${route}: ${files.length} chunks, ${kb(real)} gzip as shipped; per-package groups add up to ${kb(total)}`);
console.log(`${'package'.padEnd(34)} ${'family'.padEnd(13)} ${'gzip'.padStart(9)}`);
for (const r of rows) if (r.gzip >= 512) console.log(`${r.group.padEnd(34)} ${r.family.padEnd(13)} ${kb(r.gzip).padStart(9)}`);
const small = rows.filter((r) => r.gzip < 512);
console.log(`${`(${small.length} packages under 0.5 KB)`.padEnd(48)} ${kb(small.reduce((n, r) => n + r.gzip, 0)).padStart(9)}`);

const families = new Map<string, number>();
for (const r of rows) families.set(r.family, (families.get(r.family) ?? 0) + r.gzip);
console.log('\nby family (scaled to the shipped total):');
const scale = real / total;
for (const [family, n] of [...families].sort((a, b) => b[1] - a[1])) console.log(`${family.padEnd(14)} ${kb(n * scale).padStart(9)}`);
const required = ['React', 'antd', 'Refine', 'router', 'i18n'].reduce((n, f) => n + (families.get(f) ?? 0), 0);
console.log(`vendor floor (React, antd, Refine, router, i18n): ${kb(required * scale)}; all vendor code: ${kb((total - (families.get('ours') ?? 0)) * scale)}`);
fs.rmSync(outDir, { recursive: true, force: true });

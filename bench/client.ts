/**
 * `npm run bench:client [--no-build] [--lighthouse]`: the JavaScript each console route downloads on a cold
 * load, in gzip bytes and in files, against budgets relative to the stack's floor (issue 30).
 * Read from Vite's manifest (dist/client/.vite/manifest.json): the entry's static imports plus, for a
 * route, its page module's (and for protected routes the console's and the layout's) static imports, each
 * chunk counted once, plus the code a screen loads by itself as soon as it renders (the dashboards'
 * chart, `RENDER_TIME_LAZY` in client/build/routeChunks.ts). Code loaded on a user's action (an export, the error
 * texts) is listed apart as "later".
 * The floor is measured in the same run (`bench:client:packages -- --floor`, bench/client-floor).
 * Budgets: every console route at most floor + 60 KB; /signin at most 150 KB; the chart at most 40 KB;
 * a list screen at most 25 JS files. Exits 1 above any of them.
 * `--lighthouse` then runs Lighthouse mobile on /signin, the member dashboard and /member (bench/client-lighthouse.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { closure, readManifest, renderTimeLazy, routeModules } from '../client/build/routeChunks';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist/client');
const manifestPath = path.join(dist, '.vite/manifest.json');

if (!process.argv.includes('--no-build') || !fs.existsSync(manifestPath)) {
  const res = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

/** The floor, from bench/client-packages.ts --floor's first line ('… 353.9 KB gzip as shipped'). */
function measureFloor(): number {
  const res = spawnSync('npx', ['tsx', 'bench/client-packages.ts', '--floor'], { cwd: root, encoding: 'utf8' });
  const m = /([\d.]+) KB gzip as shipped/.exec(res.stdout ?? '');
  if (!m) {
    console.error(`the floor could not be measured:\n${res.stdout}\n${res.stderr}`);
    process.exit(1);
  }
  return Number(m[1]) * 1024;
}

const manifest = readManifest(dist);
const gz = new Map<string, number>();
const gzipBytes = (file: string): number => {
  let n = gz.get(file);
  if (n === undefined) {
    n = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
    gz.set(file, n);
  }
  return n;
};

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
/** The chunks that hold the route tables: their dynamic imports are the other screens, not this one's later code. */
const routeTables = new Set([entryKey, 'src/App.tsx']);
const entry = closure(manifest, [entryKey]);
const sum = (keys: Iterable<string>) => [...keys].reduce((n, k) => n + gzipBytes(manifest[k]!.file), 0);
const jsFiles = (keys: Iterable<string>) => [...keys].filter((k) => manifest[k]!.file.endsWith('.js')).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const floor = measureFloor();
const consoleBudget = floor + 60 * 1024;
const signinBudget = 150 * 1024;
const chartBudget = 40 * 1024;
const listFiles = 25;
console.log(`floor (bench/client-floor): ${kb(floor)}; console budget floor + 60 KB = ${kb(consoleBudget)}; /signin ${kb(signinBudget)}`);
console.log(`entry (every route): ${kb(sum(entry))} gzip in ${jsFiles(entry)} JS files`);
console.log(`${'route'.padEnd(22)} ${'gzip JS'.padStart(10)} ${'vs floor'.padStart(9)} ${'files'.padStart(6)} ${'later'.padStart(10)}`);
let over = 0;
const lazyOnRender = renderTimeLazy(manifest);
const chartCost = new Map<string, number>();
for (const { route, modules, list } of routeModules(root, manifest)) {
  const keys = closure(manifest, modules, new Set(entry));
  const withoutLazy = sum(keys);
  // What the screen imports as it renders (the chart) belongs to its cold load.
  for (const k of [...keys]) for (const d of manifest[k]!.dynamicImports ?? []) if (lazyOnRender.has(d) && !routeTables.has(k)) closure(manifest, [d], keys);
  if (sum(keys) > withoutLazy && route !== '/') chartCost.set(route, sum(keys) - withoutLazy);
  const later = new Set<string>();
  for (const k of keys) for (const d of manifest[k]!.dynamicImports ?? []) if (!keys.has(d) && !routeTables.has(k)) closure(manifest, [d], later);
  for (const k of keys) later.delete(k);
  const total = sum(keys);
  const files = jsFiles(keys);
  const isPublic = modules.length === 1;
  const marks: string[] = [];
  if (route === '/signin' && total > signinBudget) marks.push(`over ${kb(signinBudget)}`);
  if (!isPublic && total > consoleBudget) marks.push(`over floor + 60 KB`);
  if (list && files > listFiles) marks.push(`over ${listFiles} files`);
  over += marks.length;
  const vsFloor = isPublic ? '' : `${total >= floor ? '+' : ''}${((total - floor) / 1024).toFixed(1)}`;
  console.log(`${route.padEnd(22)} ${kb(total).padStart(10)} ${vsFloor.padStart(9)} ${String(files).padStart(6)} ${(later.size ? kb(sum(later)) : '-').padStart(10)}${marks.length ? `  ${marks.join(', ')}` : ''}`);
}
for (const [route, cost] of chartCost) {
  const mark = cost > chartBudget ? `  over ${kb(chartBudget)}` : '';
  if (mark) over += 1;
  console.log(`${route}: the chart adds ${kb(cost)} gzip${mark}`);
}
const all = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
console.log(`all JS: ${kb(all.reduce((n, c) => n + gzipBytes(c.file), 0))} gzip in ${all.length} files`);

if (process.argv.includes('--lighthouse')) {
  const res = spawnSync('npx', ['tsx', 'bench/client-lighthouse.ts'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
process.exit(over ? 1 : 0);

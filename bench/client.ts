/**
 * `npm run bench:client [--no-build]`: the JavaScript each console route downloads, in gzip bytes.
 * Read from Vite's manifest (dist/client/.vite/manifest.json): the entry's static imports plus, for a
 * route, its page module's (and for protected routes the layout's) static imports, each chunk counted
 * once. Code a page loads later by itself (a chart, the editor) is listed apart as "later".
 * Budgets (issue 13): /signin at most 200 KB, a list screen at most 350 KB; exits 1 above them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist/client');
const manifestPath = path.join(dist, '.vite/manifest.json');

if (!process.argv.includes('--no-build') || !fs.existsSync(manifestPath)) {
  const res = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
const gz = new Map<string, number>();
const gzipBytes = (file: string): number => {
  let n = gz.get(file);
  if (n === undefined) {
    n = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
    gz.set(file, n);
  }
  return n;
};

/** The chunk keys a module needs before it runs: itself and its static imports, transitively. */
function closure(keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (into.has(key) || !manifest[key]) continue;
    into.add(key);
    closure(manifest[key]!.imports ?? [], into);
  }
  return into;
}

/**
 * Routes and their page modules, read from client/src/routes.tsx (public) and consoleRoutes.tsx
 * (protected) so the list cannot drift: public routes load their page; protected ones also the
 * console (App.tsx: Refine) and its layout.
 */
function routeModules(): Array<{ route: string; modules: string[] }> {
  const src = ['routes.tsx', 'consoleRoutes.tsx'].map((f) => fs.readFileSync(path.join(root, 'client/src', f), 'utf8')).join('\n');
  const key = (rel: string) => [`src/${rel}.tsx`, `src/${rel}.ts`, `src/${rel}/index.tsx`].find((k) => manifest[k]);
  const modules = new Map<string, string>();
  for (const m of src.matchAll(/const (\w+) = page(?:<[^>]*>)?\(\(\) => import\('\.\/([^']+)'\), '\w+'\)/g)) {
    const k = key(m[2]!);
    if (k) modules.set(m[1]!, k);
  }
  const consoleKeys = [key('App'), modules.get('Protected')].filter((k): k is string => Boolean(k));
  const out: Array<{ route: string; modules: string[] }> = [];
  const section = (name: string) => src.slice(src.indexOf(`export const ${name}`)).split('];')[0]!;
  for (const m of section('publicRoutes').matchAll(/path: '([^']+)',\s*element: \(?\s*(?:<PublicOnly>\s*)?<(\w+)/g)) {
    const page = modules.get(m[2]!);
    if (page) out.push({ route: m[1]!, modules: [page] });
  }
  for (const m of section('protectedRoutes').matchAll(/\{ path: '([^']+)', element: <(\w+)/g)) {
    const page = modules.get(m[2]!);
    if (page) out.push({ route: m[1]!, modules: [...consoleKeys, page] });
  }
  // Console screens outside the protected layout (the simulated phone): Refine without the layout.
  for (const m of section('openConsoleRoutes').matchAll(/\{ path: '([^']+)', element: <(\w+)/g)) {
    const page = modules.get(m[2]!);
    if (page) out.push({ route: m[1]!, modules: [consoleKeys[0]!, page] });
  }
  return out;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
/** The chunks that hold the route tables: their dynamic imports are the other screens, not this one's later code. */
const routeTables = new Set([entryKey, 'src/App.tsx']);
const entry = closure([entryKey]);
const sum = (keys: Iterable<string>) => [...keys].reduce((n, k) => n + gzipBytes(manifest[k]!.file), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

console.log(`entry (every route): ${kb(sum(entry))} gzip in ${entry.size} chunks`);
console.log(`${'route'.padEnd(22)} ${'gzip JS'.padStart(10)} ${'later'.padStart(10)}`);
let over = 0;
for (const { route, modules } of routeModules()) {
  const keys = closure(modules, new Set(entry));
  const later = new Set<string>();
  for (const k of keys) for (const d of manifest[k]!.dynamicImports ?? []) if (!keys.has(d) && !routeTables.has(k)) closure([d], later);
  for (const k of keys) later.delete(k);
  const total = sum(keys);
  const budget = route === '/signin' ? 200 * 1024 : 350 * 1024;
  const mark = total > budget ? `  over the ${kb(budget)} budget` : '';
  if (mark) over += 1;
  console.log(`${route.padEnd(22)} ${kb(total).padStart(10)} ${(later.size ? kb(sum(later)) : '-').padStart(10)}${mark}`);
}
const all = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
console.log(`all JS: ${kb(all.reduce((n, c) => n + gzipBytes(c.file), 0))} gzip in ${all.length} chunks`);
process.exit(over ? 1 : 0);

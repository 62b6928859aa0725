/**
 * What each console route downloads, read from Vite's manifest: shared by `bench/client.ts` (gzip per
 * route), `bench/client-packages.ts` (gzip per package of one route) and the build's route preloads
 * (`routePreloads`, written by ./routePreloads.ts for the server's Link headers).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, Chunk>;

export function readManifest(dist: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The chunk keys a module needs before it runs: itself and its static imports, transitively. */
export function closure(manifest: Manifest, keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (into.has(key) || !manifest[key]) continue;
    into.add(key);
    closure(manifest, manifest[key]!.imports ?? [], into);
  }
  return into;
}

/**
 * Modules a screen imports lazily as soon as it renders (not on a user's action): they belong to that
 * screen's cold load. The dashboards' chart.
 */
export const RENDER_TIME_LAZY = ['src/pages/dashboard/DailyChart.tsx'];
export function renderTimeLazy(manifest: Manifest): Set<string> {
  return new Set(RENDER_TIME_LAZY.filter((k) => manifest[k]));
}

/** List screens, by their page module: the 'cold list screen' budgets are about these. */
const LIST_PAGE = /\/(list\.tsx|optout\.tsx|withdraw\/(member|requested)\.tsx)$/;

/**
 * Routes and their page modules, read from client/src/routes.tsx (public) and consoleRoutes.tsx
 * (protected) so the list cannot drift: public routes load their page; protected ones also the
 * console (App.tsx: Refine) and its layout.
 */
export function routeModules(root: string, manifest: Manifest): Array<{ route: string; modules: string[]; list?: boolean }> {
  const src = ['routes.tsx', 'consoleRoutes.tsx'].map((f) => fs.readFileSync(path.join(root, 'client/src', f), 'utf8')).join('\n');
  const key = (rel: string) => [`src/${rel}.tsx`, `src/${rel}.ts`, `src/${rel}/index.tsx`].find((k) => manifest[k]);
  const modules = new Map<string, string>();
  for (const m of src.matchAll(/const (\w+) = page(?:<[^>]*>)?\(\(\) => import\('\.\/([^']+)'\), '\w+'\)/g)) {
    const k = key(m[2]!);
    if (k) modules.set(m[1]!, k);
  }
  const consoleKeys = [key('App'), modules.get('Protected')].filter((k): k is string => Boolean(k));
  const out: Array<{ route: string; modules: string[]; list?: boolean }> = [];
  const section = (name: string) => src.slice(src.indexOf(`export const ${name}`)).split('];')[0]!;
  for (const m of section('publicRoutes').matchAll(/path: '([^']+)',\s*element: \(?\s*(?:<PublicOnly>\s*)?<(\w+)/g)) {
    const page = modules.get(m[2]!);
    if (page) out.push({ route: m[1]!, modules: [page] });
  }
  for (const m of section('protectedRoutes').matchAll(/\{ path: '([^']+)', element: <(\w+)/g)) {
    const page = modules.get(m[2]!);
    if (page) out.push({ route: m[1]!, modules: [...consoleKeys, page], list: LIST_PAGE.test(page) });
  }
  // Console screens outside the protected layout (the simulated phone): Refine without the layout.
  for (const m of section('openConsoleRoutes').matchAll(/\{ path: '([^']+)', element: <(\w+)/g)) {
    const page = modules.get(m[2]!);
    if (page) out.push({ route: m[1]!, modules: [consoleKeys[0]!, page] });
  }
  return out;
}


/** What the console (App.tsx) imports lazily as soon as any of its screens renders: the socket.io client. */
const CONSOLE_RENDER_LAZY = ['../node_modules/socket.io-client/build/esm/index.js'];

/**
 * For each route, the JavaScript files its cold load needs: the entry's own first (index.html names them too),
 * then the console, its layout and the route's page with their static imports, and what the screen imports
 * as it renders (the dashboards' chart, the console's live connection). As URL paths ('/assets/…'), in a stable order.
 */
export function routePreloads(root: string, manifest: Manifest): Record<string, string[]> {
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey) return {};
  const entry = closure(manifest, [entryKey]);
  // The entry's own files lead, in the order the page needs them: a header's preloads start before the page's
  // tags are read, and would otherwise take the bandwidth the first paint waits for.
  const first = [...entry].map((k) => `/${manifest[k]!.file}`).filter((f) => f.endsWith('.js'));
  const lazyOnRender = renderTimeLazy(manifest);
  const out: Record<string, string[]> = {};
  for (const { route, modules } of routeModules(root, manifest)) {
    const keys = closure(manifest, modules, new Set(entry));
    for (const k of [...keys]) for (const d of manifest[k]!.dynamicImports ?? []) if (lazyOnRender.has(d) && k !== entryKey && k !== 'src/App.tsx') closure(manifest, [d], keys);
    // Every console screen opens its live connection as it renders (App's live provider).
    if (modules.includes('src/App.tsx')) closure(manifest, CONSOLE_RENDER_LAZY.filter((k) => manifest[k]), keys);
    for (const k of entry) keys.delete(k);
    out[route] = [...first, ...[...keys].map((k) => `/${manifest[k]!.file}`).filter((f) => f.endsWith('.js')).sort()];
  }
  return out;
}

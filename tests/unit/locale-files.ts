/** Reading the console's locale files (client/src/locales/{lang}/{area}.json) in tests. */
import fs from 'node:fs';
import path from 'node:path';

export const CLIENT_ROOT = path.resolve(__dirname, '../../client/src');

export type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

export function load(lang: string, area: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(CLIENT_ROOT, 'locales', lang, `${area}.json`), 'utf8')) as Tree;
}

/** Keys as the screens name them: English plural forms (`x_one`, `x_other`) count as the one key `x`. */
export function leaves(tree: Tree, prefix = ''): string[] {
  const keys = Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k.replace(PLURAL, '')}`] : leaves(v, `${prefix}${k}.`)));
  return [...new Set(keys)];
}

export function lookup(key: string, lang: string): string | undefined {
  const [area, ...rest] = key.split('.');
  let node: string | Tree | undefined = load(lang, area!);
  for (const part of rest) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node === 'string') return node;
  // A plural key: its `_other` form (Indonesian has none, English has `_one` and `_other`).
  const last = rest.at(-1);
  let parent: string | Tree | undefined = load(lang, area!);
  for (const part of rest.slice(0, -1)) parent = typeof parent === 'object' ? parent[part] : undefined;
  const other = typeof parent === 'object' && last ? parent[`${last}_other`] : undefined;
  return typeof other === 'string' ? other : undefined;
}

export function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name) ? [p] : [];
  });
}

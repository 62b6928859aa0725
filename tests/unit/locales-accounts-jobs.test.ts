import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../client/src');
const AREAS = ['whatsapp', 'generator', 'validator', 'jobs'] as const;
const PAGES = ['pages/whatsapp', 'pages/generator', 'pages/validator'];

type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function load(lang: string, area: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'locales', lang, `${area}.json`), 'utf8')) as Tree;
}

/** Keys as the screens name them: English plural forms (`x_one`, `x_other`) count as the one key `x`. */
function leaves(tree: Tree, prefix = ''): string[] {
  const keys = Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k.replace(PLURAL, '')}`] : leaves(v, `${prefix}${k}.`)));
  return [...new Set(keys)];
}

function lookup(key: string, lang: string): string | undefined {
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

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name) ? [p] : [];
  });
}

describe('locale files of the WhatsApp, generator and validator screens', () => {
  it('English has exactly the keys Indonesian has, each with text', () => {
    for (const area of AREAS) {
      const id = leaves(load('id', area)).sort();
      const en = leaves(load('en', area)).sort();
      expect(en, area).toEqual(id);
      for (const key of en) expect(lookup(`${area}.${key}`, 'en'), key).not.toBe('');
    }
  });

  it('every key the screens name exists in both languages', () => {
    const used = new Set<string>();
    for (const file of PAGES.flatMap((d) => sources(path.join(ROOT, d)))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/['`]((?:whatsapp|generator|validator|jobs)\.[a-zA-Z.]+)['`]/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(60);
    for (const key of used) {
      expect(lookup(key, 'id'), `id ${key}`).toBeTypeOf('string');
      expect(lookup(key, 'en'), `en ${key}`).toBeTypeOf('string');
    }
  });

  it('Indonesian keeps the spec labels word for word', () => {
    expect(lookup('whatsapp.title', 'id')).toBe('Daftar Whatsapp');
    expect(lookup('whatsapp.reconnect.ok', 'id')).toBe('Ya, Reonnect.');
    expect(lookup('whatsapp.blast.stopCancel', 'id')).toBe('Tunggu Aja');
    expect(lookup('generator.createTitle', 'id')).toBe('Tambah Akun Generator');
    expect(lookup('validator.title', 'id')).toBe('Daftar Validator');
    expect(lookup('jobs.form.saveToList', 'id')).toBe('Simpan ke dalam daftar');
    expect(lookup('jobs.noExport', 'id')).toBe('No phone numbers to export.');
  });
});

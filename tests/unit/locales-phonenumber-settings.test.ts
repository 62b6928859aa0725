import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../client/src');
const AREAS = ['phonenumber', 'settings'] as const;
const PAGES = ['pages/phonenumber', 'pages/settings'];

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

describe('locale files of the phone number and settings screens', () => {
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
      for (const m of text.matchAll(/['`]((?:phonenumber|settings)\.[a-zA-Z_.]+)['`]/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(40);
    for (const key of used) {
      expect(lookup(key, 'id'), `id ${key}`).toBeTypeOf('string');
      expect(lookup(key, 'en'), `en ${key}`).toBeTypeOf('string');
    }
  });

  it('Indonesian keeps the spec labels word for word', () => {
    expect(lookup('phonenumber.title', 'id')).toBe('Daftar Phone Number');
    expect(lookup('phonenumber.createTitle', 'id')).toBe('Tambah Phone Number');
    expect(lookup('phonenumber.fields.success', 'id')).toBe('Jumlah Berhasil');
    expect(lookup('phonenumber.fields.fail', 'id')).toBe('Jumlah Gagal');
    expect(lookup('phonenumber.fields.lastSent', 'id')).toBe('Terakhir Terkirim');
    expect(lookup('phonenumber.inUse', 'id')).toBe('(In Use)');
    expect(lookup('phonenumber.fields.number', 'id')).toBe('Nomor Telepon');
    expect(lookup('phonenumber.fields.nameInput', 'id')).toBe('Nama');
    expect(lookup('phonenumber.saveNumber', 'id')).toBe('Simpan Nomor');
    expect(lookup('phonenumber.uploadFile', 'id')).toBe('Upload File');
    expect(lookup('phonenumber.registered', 'id')).toBe('Total {{total}} nomor, berhasil didaftarkan.');
    expect(lookup('phonenumber.skippedTitle', 'id')).toBe('Daftar nomor yang dilewatkan');
    expect(lookup('phonenumber.more', 'id')).toBe('...total {{total}} nomor. Download file untuk selengkapnya.');
    expect(lookup('phonenumber.noExport', 'id')).toBe('No phone numbers to export.');
    expect(lookup('phonenumber.errors.list', 'id')).toBe('Error fetching Phone Number list');
    expect(lookup('settings.title', 'id')).toBe('Form Pengaturan');
    expect(lookup('settings.hints.referralPercent', 'id')).toBe('0 - 100');
  });

  it('the screens hold no Indonesian sentence of their own', () => {
    for (const file of PAGES.flatMap((d) => sources(path.join(ROOT, d)))) {
      // Comments may name the spec's labels; code may not.
      const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      expect(text, file).not.toMatch(/['"`>](?:Nomor|Nama|Simpan|Daftar|Tambah|Menyimpan|Memproses|Pengaturan)\b/);
    }
  });
});

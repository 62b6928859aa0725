import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_ROOT as ROOT, leaves, load, lookup, sources } from './locale-files';

const AREAS = ['phonenumber', 'settings'] as const;
const PAGES = ['pages/phonenumber', 'pages/settings'];

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

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_ROOT as ROOT, leaves, load, lookup, sources } from './locale-files';

const AREAS = ['whatsapp', 'generator', 'validator', 'jobs'] as const;
const PAGES = ['pages/whatsapp', 'pages/generator', 'pages/validator'];

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

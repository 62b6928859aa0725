import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_ROOT, leaves, load, lookup, sources } from './locale-files';

const areas = (lang: string) =>
  fs
    .readdirSync(path.join(CLIENT_ROOT, 'locales', lang))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();

describe('every locale area', () => {
  it('exists in both languages, English with exactly the keys Indonesian has, each with text', () => {
    expect(areas('en')).toEqual(areas('id'));
    for (const area of areas('id')) {
      const id = leaves(load('id', area)).sort();
      const en = leaves(load('en', area)).sort();
      expect(en, area).toEqual(id);
      for (const key of en) expect(lookup(`${area}.${key}`, 'en'), `${area}.${key}`).not.toBe('');
    }
  });

  it('has every key a console source names, in both languages', () => {
    const names = new RegExp(`['\`]((?:${areas('id').join('|')})\\.[a-zA-Z0-9_]+(?:\\.[a-zA-Z0-9_]+)*)['\`]`, 'g');
    const used = new Set<string>();
    const files = sources(CLIENT_ROOT).filter((f) => !f.includes(`${path.sep}locales${path.sep}`));
    for (const file of files) for (const m of fs.readFileSync(file, 'utf8').matchAll(names)) used.add(m[1]!);
    expect(used.size).toBeGreaterThan(300);
    const missing = [...used].filter((key) => lookup(key, 'id') === undefined || lookup(key, 'en') === undefined);
    expect(missing).toEqual([]);
  });

  it('leaves no Indonesian text in the console sources: it lives in the locale files', () => {
    // Words that begin an Indonesian label or sentence, right after a quote or a JSX tag.
    const indonesian =
      /['"`>]\s*(?:Nomor|Nama|Simpan|Daftar|Tambah|Menyimpan|Memproses|Pengaturan|Halo|Memuat|Gagal|Berhasil|Sisa|Belum|Hari|Sedang|Tidak|Anda|Silakan|Pilih|Hapus|Batal|Kirim|Tunggu|Sudah|Masuk|Keluar|Akun|Semua|Cari|Tanggal|Jumlah|Dibuat|Bahasa|Gelap|Terang|Buka|Tutup|Perangkat|Pesan|Balas|Kosong|Tautkan|Menampilkan|Memilih|Menunggu|Mengirim|Menghapus)\b/;
    const files = sources(CLIENT_ROOT).filter((f) => !f.includes(`${path.sep}locales${path.sep}`));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      // Comments may quote the spec's labels; code may not.
      const code = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(indonesian);
    }
  });

  it('gives the dashboards their texts in both languages', () => {
    expect(lookup('dashboard.greeting', 'id')).toBe('Halo, {{name}}!');
    expect(lookup('dashboard.greeting', 'en')).toBe('Hello, {{name}}!');
    expect(lookup('dashboard.chart.title', 'id')).toBe('Blast per Hari ({{days}} hari)');
  });
});

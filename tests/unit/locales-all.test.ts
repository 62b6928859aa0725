import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLIENT_ROOT = path.resolve(__dirname, '../../client/src');

type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function load(lang: string, area: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(CLIENT_ROOT, 'locales', lang, `${area}.json`), 'utf8')) as Tree;
}

/**
 * Keys as the screens name them: English plural forms (`x_one`, `x_other`) count as the one key `x`;
 * a key that merely ends like one (`targets_too_many`, with no `targets_too_other`) stays itself.
 */
function leaves(tree: Tree, prefix = ''): string[] {
  const name = (k: string) => (PLURAL.test(k) && `${k.replace(PLURAL, '')}_other` in tree ? k.replace(PLURAL, '') : k);
  const keys = Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${name(k)}`] : leaves(v, `${prefix}${k}.`)));
  return [...new Set(keys)];
}

/** Every text of a file with its path of keys. */
function texts(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([k, v]): Array<[string, string]> => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : texts(v, `${prefix}${k}.`)));
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
      const blank = (['id', 'en'] as const).flatMap((lang) =>
        texts(load(lang, area))
          .filter(([, text]) => !/\S/.test(text))
          .map(([key]) => `${lang} ${area}.${key}`),
      );
      expect(blank).toEqual([]);
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
    // Words that begin an Indonesian label or sentence, right after a quote or a JSX tag (a net for
    // the common ones, not a proof: the word-for-word checks below pin the texts themselves).
    const indonesian =
      /['"`>]\s*(?:Nomor|Nama|Simpan|Daftar|Tambah|Menyimpan|Memproses|Pengaturan|Halo|Memuat|Gagal|Berhasil|Sisa|Belum|Hari|Sedang|Tidak|Anda|Silakan|Pilih|Hapus|Batal|Kirim|Tunggu|Sudah|Masuk|Keluar|Akun|Semua|Cari|Tanggal|Jumlah|Dibuat|Bahasa|Gelap|Terang|Buka|Tutup|Perangkat|Pesan|Balas|Kosong|Tautkan|Menampilkan|Memilih|Menunggu|Mengirim|Menghapus|Telepon|Kode|Kotak|Grafik|Pendapatan|Whatsapp|Proxy Belum|Blast Hari|Blast Berhasil|Blast Gagal)\b/;
    const files = sources(CLIENT_ROOT).filter((f) => !f.includes(`${path.sep}locales${path.sep}`));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      // Comments may quote the spec's labels; code may not.
      const code = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(indonesian);
    }
  });

  it('keeps the spec labels and the moved screen texts word for word in Indonesian', () => {
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
    expect(lookup('whatsapp.title', 'id')).toBe('Daftar Whatsapp');
    expect(lookup('whatsapp.reconnect.ok', 'id')).toBe('Ya, Reonnect.');
    expect(lookup('whatsapp.blast.stopCancel', 'id')).toBe('Tunggu Aja');
    expect(lookup('generator.createTitle', 'id')).toBe('Tambah Akun Generator');
    expect(lookup('validator.title', 'id')).toBe('Daftar Validator');
    expect(lookup('jobs.form.saveToList', 'id')).toBe('Simpan ke dalam daftar');
    expect(lookup('jobs.noExport', 'id')).toBe('No phone numbers to export.');
    expect(lookup('dashboard.greeting', 'id')).toBe('Halo, {{name}}!');
    expect(lookup('dashboard.greeting', 'en')).toBe('Hello, {{name}}!');
    expect(lookup('dashboard.admin.unusedProxies', 'id')).toBe('Proxy Belum Digunakan');
    expect(lookup('dashboard.admin.total', 'id')).toBe('Total Blast (Berhasil / Gagal)');
    expect(lookup('dashboard.member.balance', 'id')).toBe('Sisa Saldo Akun');
    expect(lookup('dashboard.chart.title', 'id')).toBe('Blast per Hari ({{days}} hari)');
    expect(lookup('dashboard.chart.summary', 'id')).toBe('{{days}} hari terakhir: {{success}} berhasil, {{fail}} gagal.');
    expect(lookup('sim.title', 'id')).toBe('Telepon Simulasi');
    expect(lookup('sim.scan.waiting', 'id')).toBe('Perangkat menunggu');
    expect(lookup('sim.inbox.title', 'id')).toBe('Kotak masuk nomor');
    expect(lookup('shared.empty', 'id')).toBe('Kosong');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { closeDb, openDb } from '../../server/src/db/client';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const createTemplate = (button: string) =>
  t.http.post('/api/admin/message/create').set(admin.auth).field('text', '<p>Halo {name}</p>').field('status', 'active').field('button', button);

describe('bad input gets a clear answer', () => {
  it('malformed template buttons are refused, not silently dropped', async () => {
    const count = async () => (await t.http.get('/api/admin/message/list-per-page?page=1').set(admin.auth)).body.meta.total as number;
    const before = await count();
    const mixed = await createTemplate(JSON.stringify([null, 1, 'x']));
    expect(mixed.status).toBe(422);
    expect(mixed.body.msg).toBe('Button ke-1 tidak valid.');
    const objectTitle = await createTemplate(JSON.stringify([{ title: { a: 1 }, url: 'https://x.id', type: 'url_button' }]));
    expect(objectTitle.status).toBe(422);
    expect(objectTitle.body.msg).toBe('Button ke-1: title harus berupa teks.');
    const deep = await createTemplate(`${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    expect(deep.status).toBe(422);
    expect(deep.body.errors.button).toBeTruthy();
    const many = await createTemplate(JSON.stringify(Array.from({ length: 5000 }, () => ({ title: '', url: '' }))));
    expect(many.status).toBe(422);
    expect(many.body.msg).toBe('Maksimal 3 button.');
    // The spec's own alerts still come first for a title without a url.
    const noUrl = await createTemplate(JSON.stringify([{ title: 'Beli', url: '', type: 'reply_button' }]));
    expect(noUrl.body.msg).toBe('Judul button : "Beli" belum mempunyai URL.');
    expect(await count()).toBe(before);
    expect((await t.http.get('/api/config')).status).toBe(200);
  });

  it('member search matches % and _ literally', async () => {
    await t.user('member', { firstname: 'Diskon 100%', lastname: 'Persen' });
    await t.user('member', { firstname: 'Diskon 1000', lastname: 'Angka' });
    await t.user('member', { firstname: 'Garis_bawah', lastname: 'X' });
    await t.user('member', { firstname: 'Garisxbawah', lastname: 'Y' });
    const names = async (search: string) =>
      ((await t.http.get(`/api/admin/users/members-per-page?page=1&search=${encodeURIComponent(search)}`).set(admin.auth)).body.data as Array<{ firstname: string }>).map(
        (u) => u.firstname,
      );
    expect(await names('100%')).toEqual(['Diskon 100%']);
    expect(await names('s_b')).toEqual(['Garis_bawah']);
    expect(await names('%')).toEqual(['Diskon 100%']);
  });
});

describe('files on disk', () => {
  it('DATA_DIR is 0700; blast.db, its WAL and jwt-secret are 0600', async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'blast-modes-')), 'data');
    const previous = process.umask(0o022);
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const file = path.join(config.dataDir, 'blast.db');
      const db = openDb(file);
      db.$client.exec('CREATE TABLE IF NOT EXISTS probe (x); INSERT INTO probe VALUES (1);');
      const mode = (f: string) => fs.statSync(f).mode & 0o777;
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, 'jwt-secret'))).toBe(0o600);
      expect(mode(file)).toBe(0o600);
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(mode(`${file}-wal`)).toBe(0o600);
      await closeDb(db);
      // An older install's loose modes are tightened at the next start.
      fs.chmodSync(dataDir, 0o755);
      fs.chmodSync(path.join(dataDir, 'jwt-secret'), 0o644);
      fs.chmodSync(file, 0o644);
      loadConfig({ DATA_DIR: dataDir });
      await closeDb(openDb(file));
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, 'jwt-secret'))).toBe(0o600);
      expect(mode(file)).toBe(0o600);
    } finally {
      process.umask(previous);
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });

  it('SIM_TOKEN and SIM_PUBLIC are read from the environment', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-env-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).simAccess).toEqual({ token: null, public: false });
      expect(loadConfig({ DATA_DIR: dataDir, SIM_TOKEN: 'a-long-enough-sim-token', SIM_PUBLIC: 'true' }).simAccess).toEqual({
        token: 'a-long-enough-sim-token',
        public: true,
      });
      expect(() => loadConfig({ DATA_DIR: dataDir, SIM_TOKEN: 'short' })).toThrow(/SIM_TOKEN/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { earn } from './money-fixtures';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { isPostgresUrl } from '../../server/src/db/postgres';
import { one, rawGet } from '../../server/src/db/raw';
import * as schema from '../../server/src/db/schema';
import { settings } from '../../server/src/db/schema';
import { fromRoot } from '../../server/src/lib/paths';
import { DEFAULT_INFO, seedSettings } from '../../server/src/settings/service';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const good = {
  interval_min: 3,
  interval_max: 9,
  price: 45,
  bank_names: 'BCA,  BNI,MANDIRI',
  colors: '#123456,#abcdef',
  referral_percent: 12,
  info: 'Pengumuman baru',
  recipient_cooldown: 48,
};
/**
 * One store that is closed and opened again as a server restart does: the same SQLite file, or on
 * PostgreSQL the same schema (createTestDb makes a new schema on every call and closeDb drops it), opened
 * with what a start runs there: the migrations (nothing left to apply) and the settings seed.
 */
async function reopenableStore(): Promise<{ open(): Promise<Db>; close(db: Db): Promise<void>; dispose(): Promise<void> }> {
  const url = process.env.DATABASE_URL ?? '';
  if (!isPostgresUrl(url)) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-seed-'));
    return {
      open: () => createTestDb(path.join(dir, 'db.sqlite')),
      close: (db) => closeDb(db),
      dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const keeper = await createTestDb();
  const name = (await rawGet<{ name: string }>(keeper, sql`SELECT current_schema() AS name`))!.name;
  return {
    async open() {
      const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${name},public` });
      const db = drizzle(pool, { schema });
      await migrate(db, { migrationsFolder: fromRoot('drizzle', 'pg'), migrationsSchema: name });
      await seedSettings(db as unknown as Db);
      return db as unknown as Db;
    },
    close: (db) => (db as unknown as { $client: pg.Pool }).$client.end(),
    dispose: () => closeDb(keeper),
  };
}

const save = (body: Record<string, unknown>, who: TestUser = admin) => t.http.put('/api/admin/setting/update').set(who.auth).send(body);

describe('settings form', () => {
  it('starts with the spec defaults, a 24 h recipient cooldown and a default Info text', async () => {
    const res = await t.http.get('/api/admin/setting/get').set(admin.auth);
    expect(res.body.setting).toEqual({
      interval_min: 1,
      interval_max: 2,
      price: 0,
      bank_names: 'BCA, MANDIRI, BRI',
      colors: '#2C2C2C, #3E3A32',
      referral_percent: 0,
      recipient_cooldown: 24,
      info: DEFAULT_INFO,
      default_country: 'ID',
      signup_mode: 'open',
      // Test apps keep 'Jam Kirim' always open (tests/helpers.ts); a new install's 08:00–20:00 is in send-window.test.ts.
      max_attempts: 3,
      send_from: '00:00',
      send_to: '00:00',
      time_zone: 'Asia/Jakarta',
    });
    expect(DEFAULT_INFO.trim()).not.toBe('');
  });

  it('the first save of a new install, sending the settings back as read, passes', async () => {
    const fresh = await startTestApp();
    try {
      const firstAdmin = await fresh.user('admin');
      const read = await fresh.http.get('/api/admin/setting/get').set(firstAdmin.auth);
      const saved = await fresh.http.put('/api/admin/setting/update').set(firstAdmin.auth).send(read.body.setting);
      expect(saved.status).toBe(200);
      expect(saved.body.setting).toEqual(read.body.setting);
    } finally {
      await fresh.close();
    }
  });

  it('an older install with an empty Info that nobody saved gets the default at start; a saved one keeps its text', async () => {
    const store = await reopenableStore();
    try {
      const first = await store.open();
      await first.update(settings).set({ info: '' }).where(eq(settings.id, 1));
      await store.close(first);
      const reopened = await store.open();
      expect((await one(reopened.select().from(settings)))?.info).toBe(DEFAULT_INFO);
      await reopened.update(settings).set({ info: 'Teks admin', updatedAt: new Date() }).where(eq(settings.id, 1));
      await store.close(reopened);
      const again = await store.open();
      expect((await one(again.select().from(settings)))?.info).toBe('Teks admin');
      expect(await again.select().from(settings)).toHaveLength(1);
      await store.close(again);
    } finally {
      await store.dispose();
    }
  });

  it('saves every field, storing lists with comma and space', async () => {
    const res = await save(good);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBeTruthy();
    const now = await t.http.get('/api/admin/setting/get').set(admin.auth);
    expect(now.body.setting).toEqual({ ...good, bank_names: 'BCA, BNI, MANDIRI', colors: '#123456, #abcdef', default_country: 'ID', signup_mode: 'open', max_attempts: 3, send_from: '00:00', send_to: '00:00', time_zone: 'Asia/Jakarta' });
  });

  it('requires the recipient cooldown, hex colours and a bank, with field errors', async () => {
    const noCooldown: Record<string, unknown> = { ...good };
    delete noCooldown.recipient_cooldown;
    const r1 = await save(noCooldown);
    expect(r1.status).toBe(422);
    expect(r1.body.errors.recipient_cooldown).toBeTruthy();
    const r2 = await save({ ...good, colors: 'red, #12345' });
    expect(r2.status).toBe(422);
    expect(r2.body.errors.colors).toMatch(/hex/);
    const r3 = await save({ ...good, bank_names: ' , ' });
    expect(r3.body.errors.bank_names).toBeTruthy();
    const r4 = await save({ ...good, info: '   ' });
    expect(r4.body.errors.info).toBeTruthy();
    const r5 = await save({ ...good, referral_percent: -1 });
    expect(r5.body.errors.referral_percent).toBeTruthy();
    const after = await t.http.get('/api/admin/setting/get').set(admin.auth);
    expect(after.body.setting.info).toBe('Pengumuman baru');
  });

  it('the referral percent saved is the one credited', async () => {
    await save({ ...good, referral_percent: 20 }).expect(200);
    const referrer = await t.user('member');
    const referred = await t.user('member', { referredBy: referrer.id });
    await earn(t.ctx.db, referred.id, 2, 55); // 20 % of 55 = 11 each
    const res = await t.http.get('/api/admin/users/referral-per-page?page=1').set(referrer.auth);
    expect(res.body.total).toBe(22);
  });

  it('dev may save, member and staff may not; everyone reads the info', async () => {
    const dev = await t.user('dev');
    expect((await save({ ...good, info: 'Dari dev' }, dev)).status).toBe(200);
    for (const role of ['member', 'staff'] as const) {
      const u = await t.user(role);
      expect((await save(good, u)).status).toBe(403);
      expect((await t.http.get('/api/admin/setting/get').set(u.auth)).body.setting.info).toBe('Dari dev');
    }
  });
});

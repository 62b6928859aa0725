import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, eq, like } from 'drizzle-orm';
import { startTestApp, sleep, type TestApp, type TestUser } from '../helpers';
import { transaction } from '../../server/src/db/client';
import { phoneNumbers, proxies } from '../../server/src/db/schema';
import { dialectOf, one } from '../../server/src/db/raw';
import { saveProxy } from '../../server/src/proxies/service';
import { importPhoneNumbers } from '../../server/src/phonenumbers/import';
import { optOut } from '../../server/src/phonenumbers/optout';

/**
 * Requests of the contact areas now interleave on the shared connection: each one's transaction must
 * stay whole, and a rolled-back one must take nothing of another request with it.
 */
let t: TestApp;
let admin: TestUser;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contacts-concurrency-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rowsNumbered = async (prefix: string) =>
  Number((await one(t.ctx.db.select({ n: count() }).from(phoneNumbers).where(like(phoneNumbers.number, `${prefix}%`))))?.n);

describe('concurrent requests on the contact lists', () => {
  it('saves a number once when two requests send it at the same time', async () => {
    const send = () => t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081355500001', name: 'Dua Kali' });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(answers.find((r) => r.status === 409)?.body.msg).toBe('Nomor 6281355500001 sudah ada di daftar.');
    expect(await rowsNumbered('6281355500001')).toBe(1);
  });

  it('adds a proxy value once when the same file is imported twice at the same time', async () => {
    const file = path.join(dir, 'proxies.csv');
    fs.writeFileSync(file, Array.from({ length: 40 }, (_, i) => `10.9.0.${i + 1}:8080`).join('\n'));
    const send = () => t.http.post('/api/admin/proxy/import').set(admin.auth).attach('file', fs.readFileSync(file), 'proxies.csv');
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.created.length + b.body.created.length).toBe(40);
    expect(a.body.skipped.length + b.body.skipped.length).toBe(40);
    const stored = await t.ctx.db.select({ value: proxies.value }).from(proxies).where(like(proxies.value, '10.9.0.%')).orderBy(asc(proxies.id));
    expect(new Set(stored.map((r) => r.value)).size).toBe(40);
    expect(stored).toHaveLength(40);
  });

  it("keeps another request's proxy when a transaction rolls back meanwhile", async () => {
    const failing = transaction(t.ctx.db, async (tx) => {
      await tx.insert(proxies).values({ value: '10.8.0.1:3128' });
      await sleep(40);
      throw new Error('rolled back');
    });
    await sleep(5);
    const saved = saveProxy(t.ctx, { value: '10.8.0.2:3128' });
    await expect(failing).rejects.toThrow('rolled back');
    expect((await saved).proxy.value).toBe('10.8.0.2:3128');
    const values = (await t.ctx.db.select({ value: proxies.value }).from(proxies).where(like(proxies.value, '10.8.0.%'))).map((r) => r.value);
    expect(values).toEqual(['10.8.0.2:3128']);
  });

  it('lets an import on the shared connection wait for an open transaction and lose none of its rows to its rollback', async () => {
    const file = path.join(dir, 'numbers.csv');
    fs.writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `0819${String(i).padStart(8, '0')},Nama ${i}`).join('\n'));
    const order: string[] = [];
    const failing = transaction(t.ctx.db, async (tx) => {
      await tx.insert(phoneNumbers).values({ number: '6281877700001', name: 'Batal' });
      order.push('transaction wrote');
      await sleep(40);
      throw new Error('rolled back');
    });
    await sleep(5);
    const imported = importPhoneNumbers(t.ctx.db, file, 'csv', { skippedDir: path.join(dir, 'skipped'), batchSize: 500 }).then((r) => {
      order.push('import done');
      return r;
    });
    await expect(failing).rejects.toThrow('rolled back');
    const result = await imported;
    expect(order).toEqual(['transaction wrote', 'import done']);
    expect(result.createdCount).toBe(3000);
    expect(await rowsNumbered('62819')).toBe(3000);
    expect(await rowsNumbered('6281877700001')).toBe(0);
  });

  it('opts a number out once when two opt-outs of it run at the same time, keeping the first reason', async () => {
    await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081355500002', name: 'Berhenti' }).expect(201);
    const reasons = ['Balasan STOP', 'Tombol Berhenti'];
    const results = await Promise.all([optOut(t.ctx.db, '081355500002', reasons[0]!), optOut(t.ctx.db, '+62 813 5550 0002', reasons[1]!)]);
    expect(results.map((r) => r.added).sort()).toEqual([false, true]);
    // The first to commit adds it (on SQLite the first call; on PostgreSQL they run at once and either may be first).
    const first = reasons[results.findIndex((r) => r.added)];
    const row = await one(t.ctx.db.select({ status: phoneNumbers.status }).from(phoneNumbers).where(eq(phoneNumbers.number, '6281355500002')));
    expect(row?.status).toBe('nonactive');
    const page = await t.http.get('/api/admin/phonenumber/list-per-page?search=081355500002').set(admin.auth).expect(200);
    expect(page.body.data[0].opt_out_reason).toBe(first);
    if (dialectOf(t.ctx.db) === 'sqlite') expect(first).toBe('Balasan STOP');
  });
});

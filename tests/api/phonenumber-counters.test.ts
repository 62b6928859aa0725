import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { engineFor } from '../../server/src/engine/engine';
import { activeSentAfter, phoneListFigures, SLOT_MS } from '../../server/src/phonenumbers/counters';
import { optOut } from '../../server/src/phonenumbers/optout';
import { linkByQr } from './whatsapp-fixtures';
import { addTargets, addTemplate, setRules, startBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 0, failureRate: 0 } });
  admin = await t.user('admin');
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

/**
 * Every maintained figure against a recount of the table: totals, rows per id block, active rows
 * per last_sent slot. Answers the mismatches (empty when all hold); folds new rows first, as reads do.
 */
async function counterViolations(): Promise<string[]> {
  const db = t.ctx.db;
  const c: Database.Database = db.$client;
  const figures = await phoneListFigures(db);
  const truth = c
    .prepare("SELECT count(*) AS total, coalesce(sum(status = 'active'), 0) AS active, coalesce(sum(count_success > 0), 0) AS blasted FROM phone_numbers")
    .get();
  const out: string[] = [];
  if (JSON.stringify(figures) !== JSON.stringify(truth)) out.push(`figures ${JSON.stringify(figures)} vs ${JSON.stringify(truth)}`);
  const blocks = c
    .prepare(
      `SELECT b, kept, real FROM (
         SELECT block AS b, n AS kept, (SELECT count(*) FROM phone_numbers WHERE id >> 10 = block) AS real FROM phone_id_blocks
         UNION ALL SELECT id >> 10, 0, count(*) FROM phone_numbers WHERE id >> 10 NOT IN (SELECT block FROM phone_id_blocks) GROUP BY 1)
       WHERE kept <> real`,
    )
    .all();
  if (blocks.length) out.push(`blocks ${JSON.stringify(blocks)}`);
  const slots = c
    .prepare(
      `SELECT s, kept, real FROM (
         SELECT slot AS s, n AS kept, (SELECT count(*) FROM phone_numbers WHERE status = 'active' AND last_sent / ${SLOT_MS} = slot) AS real FROM phone_sent_slots
         UNION ALL SELECT last_sent / ${SLOT_MS}, 0, count(*) FROM phone_numbers
           WHERE status = 'active' AND last_sent IS NOT NULL AND last_sent / ${SLOT_MS} NOT IN (SELECT slot FROM phone_sent_slots) GROUP BY 1)
       WHERE kept <> real`,
    )
    .all();
  if (slots.length) out.push(`slots ${JSON.stringify(slots)}`);
  return out;
}

const csv = (from: number, n: number) =>
  ['number,name', ...Array.from({ length: n }, (_, i) => `0812345${String(from + i).padStart(5, '0')},Kontak ${from + i}`)].join('\n');
const importCsv = (content: string) =>
  t.http.post('/api/admin/phonenumber/import').set(admin.auth).attach('file', Buffer.from(content), 'numbers.csv');

describe('maintained phone-list counters', () => {
  it('stay equal to count(*) after imports, saves, edits, opt-outs, deletes and a blast', async () => {
    expect(await counterViolations()).toEqual([]);
    const first = await importCsv(csv(0, 1500));
    expect(first.status).toBe(200);
    expect(first.body.createdCount).toBe(1500);
    expect(await counterViolations()).toEqual([]);
    // A second import with half repeats, read through the API's figures.
    expect((await importCsv(csv(1000, 1500))).body.createdCount).toBe(1000);
    const count = await t.http.get('/api/admin/phonenumber/list-per-page?page=1').set(admin.auth);
    expect(count.body.meta.total).toBe(2500);
    expect(await counterViolations()).toEqual([]);

    const saved = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081299887766', name: 'Manual' });
    expect(saved.status).toBe(201);
    const id = saved.body.phoneNumber.id as number;
    expect(await counterViolations()).toEqual([]);
    await t.http.put(`/api/admin/phonenumber/${id}`).set(admin.auth).send({ number: '081299887766', name: 'Manual', status: 'nonactive' }).expect(200);
    expect((await phoneListFigures(t.ctx.db)).active).toBe(2500);
    await t.http.put(`/api/admin/phonenumber/${id}`).set(admin.auth).send({ number: '081299887766', name: 'Manual', status: 'active' }).expect(200);
    await optOut(t.ctx.db, '081234500007', 'Balasan STOP');
    expect(await counterViolations()).toEqual([]);
    for (const gone of [id, id - 1, 3, 1024, 1025]) await t.http.delete(`/api/admin/phonenumber/${gone}`).set(admin.auth).expect(200);
    expect(await counterViolations()).toEqual([]);

    // Sends recorded on rows (as the engine and the Blaster do), then a cooldown-crossing update.
    const c = t.ctx.db.$client;
    const now = Date.now();
    c.prepare('UPDATE phone_numbers SET count_success = 1, last_sent = ? WHERE id % 7 = 0').run(now - 3_600_000);
    c.prepare('UPDATE phone_numbers SET count_fail = 1, last_sent = ? WHERE id % 11 = 0').run(now);
    c.prepare("UPDATE phone_numbers SET status = 'nonactive' WHERE id % 13 = 0").run();
    expect(await counterViolations()).toEqual([]);
    const blast = await t.http.get('/api/admin/phonenumber/count-blast').set(admin.auth);
    const blasted = (c.prepare('SELECT count(*) AS n FROM phone_numbers WHERE count_success > 0').get() as { n: number }).n;
    expect(blast.body).toEqual({ blasted, unBlasted: 2500 - 4 - blasted });

    // A real blast through the simulator.
    const member = await t.user('member');
    const account = await linkByQr(t, member, { phonenumber: '6281299990031', pushname: 'Penghitung' });
    setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 0, recipientCooldownHours: 24 });
    addTemplate(t.ctx.db);
    c.prepare("UPDATE phone_numbers SET status = 'nonactive'").run();
    await addTargets(t, 20);
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    await untilIdle(t, member, account.id);
    const sent = (c.prepare('SELECT count(*) AS n FROM message_logs').get() as { n: number }).n;
    expect(sent).toBe(20);
    expect(await counterViolations()).toEqual([]);
    // The message-log figures read the members' running totals: equal to the log after a blast.
    const logged = c.prepare('SELECT coalesce(sum(success = 1), 0) AS success, coalesce(sum(success = 0), 0) AS fail FROM message_logs').get();
    expect((await t.http.get('/api/admin/messagelog/total-count').set(admin.auth)).body).toEqual(logged);
    const mine = await t.http.get(`/api/admin/messagelog/count/${member.id}`).set(member.auth);
    expect(mine.body).toEqual({ successCount: (logged as { success: number }).success, failCount: (logged as { fail: number }).fail });

    // Bulk deletes fire the triggers row by row.
    c.prepare('DELETE FROM phone_numbers WHERE id % 2 = 0').run();
    expect(await counterViolations()).toEqual([]);
    c.prepare('DELETE FROM phone_numbers').run();
    expect(await counterViolations()).toEqual([]);
    expect(await phoneListFigures(t.ctx.db)).toEqual({ total: 0, active: 0, blasted: 0 });
  });

  it('the engine progress reads the counters and matches a recount, the cut-off slot included', async () => {
    const c = t.ctx.db.$client;
    c.prepare('DELETE FROM phone_numbers').run();
    const base = Math.floor(Date.now() / SLOT_MS) * SLOT_MS - 50 * SLOT_MS;
    const insert = c.prepare('INSERT INTO phone_numbers (number, name, status, last_sent, in_use) VALUES (?, ?, ?, ?, ?)');
    for (let i = 0; i < 400; i++) {
      insert.run(`6281377${String(i).padStart(6, '0')}`, `P${i}`, i % 9 === 0 ? 'nonactive' : 'active', i % 5 === 0 ? null : base + i * 997, i % 4 === 0 ? 1 : 0);
    }
    // Some rows counted before, some after this update (the fold and the triggers both in play).
    expect(await counterViolations()).toEqual([]);
    c.prepare('UPDATE phone_numbers SET last_sent = last_sent + 3333 WHERE id % 3 = 0').run();
    // Rows inserted and changed before any read are folded with their current values.
    for (let i = 400; i < 500; i++) insert.run(`6281377${String(i).padStart(6, '0')}`, `P${i}`, 'active', base + i * 101, 0);
    c.prepare("UPDATE phone_numbers SET status = 'nonactive', last_sent = last_sent + 10000 WHERE id % 10 = 1").run();
    for (const cutoff of [base - 1, base + 12_345, base + 20_000, base + 199_999, base + 400 * 997]) {
      const truth = (c.prepare("SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND last_sent > ?").get(cutoff) as { n: number }).n;
      expect(await activeSentAfter(t.ctx.db, cutoff), `cutoff ${cutoff - base}`).toBe(truth);
    }
    const engine = engineFor(t.ctx);
    const hours = 24;
    setRules(t.ctx.db, { recipientCooldownHours: hours });
    const active = (c.prepare("SELECT count(*) AS n FROM phone_numbers WHERE status = 'active'").get() as { n: number }).n;
    const reached = (c.prepare("SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND last_sent > ?").get(Date.now() - hours * 3_600_000) as { n: number }).n;
    await new Promise((r) => setTimeout(r, 5100)); // the progress figure is cached 5 s
    expect(await engine.progress()).toBe(Math.round((reached / active) * 10_000) / 100);
  });

  it('a large insert is folded in bounded steps; figures and pages stay exact meanwhile', async () => {
    const c = t.ctx.db.$client;
    c.prepare('DELETE FROM phone_numbers').run();
    c.prepare(
      `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 129999)
       INSERT INTO phone_numbers (number, name, status, count_success, last_sent)
       SELECT '62814' || printf('%08d', i), 'Besar ' || i, CASE WHEN i % 4 = 0 THEN 'nonactive' ELSE 'active' END, i % 3, CASE WHEN i % 2 = 0 THEN ? - i * 10 END FROM s`,
    ).run(Date.now());
    const before = (c.prepare('SELECT counted_upto AS m FROM phone_list_state').get() as { m: number }).m;
    const figures = await phoneListFigures(t.ctx.db);
    const mark = (c.prepare('SELECT counted_upto AS m FROM phone_list_state').get() as { m: number }).m;
    expect(mark - before).toBe(50_000); // one step folded by the read, the rest left to the background
    expect(figures).toEqual(c.prepare("SELECT count(*) AS total, sum(status = 'active') AS active, sum(count_success > 0) AS blasted FROM phone_numbers").get());
    const page = await t.http.get('/api/admin/phonenumber/list-per-page?page=12000').set(admin.auth);
    expect(page.body.meta.total).toBe(130_000);
    const truth = c.prepare('SELECT id FROM phone_numbers ORDER BY id LIMIT 10 OFFSET 119990').all() as Array<{ id: number }>;
    expect(page.body.data.map((r: { id: number }) => r.id)).toEqual(truth.map((r) => r.id));
    const cutoff = Date.now() - 400_000;
    const truthSent = (c.prepare("SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND last_sent > ?").get(cutoff) as { n: number }).n;
    expect(await activeSentAfter(t.ctx.db, cutoff)).toBe(truthSent);
    await new Promise((r) => setTimeout(r, 300));
    expect((c.prepare('SELECT counted_upto AS m FROM phone_list_state').get() as { m: number }).m).toBe(
      (c.prepare('SELECT max(id) AS m FROM phone_numbers').get() as { m: number }).m,
    );
    expect(await counterViolations()).toEqual([]);
  });

  it('reads figures and progress without scanning the phone list', () => {
    const plans = (sql: string, ...args: unknown[]) =>
      (t.ctx.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    const partial = plans(
      "SELECT count(*) FROM phone_numbers INDEXED BY phone_numbers_target_idx WHERE status = 'active' AND in_use IN (0, 1) AND last_sent > ? AND last_sent < ?",
      1,
      2,
    );
    expect(partial).toMatch(/SEARCH phone_numbers USING COVERING INDEX phone_numbers_target_idx \(status=\? AND in_use=\? AND last_sent>\? AND last_sent<\?\)/);
    expect(plans('SELECT id FROM phone_numbers WHERE id >= ? ORDER BY id LIMIT 10 OFFSET 5', 1)).toMatch(/SEARCH phone_numbers USING INTEGER PRIMARY KEY \(rowid>\?\)/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { engineFor } from '../../server/src/engine/engine';
import { activeSentAfter, phoneListFigures, SLOT_MS } from '../../server/src/phonenumbers/counters';
import { optOut } from '../../server/src/phonenumbers/optout';
import { linkByQr, eventually } from './whatsapp-fixtures';
import { addTargets, addTemplate, setRules, startBlast, untilIdle } from './engine-fixtures';
import { isSqlite, padded, rows, run, scalar, series, text } from './sql-fixtures';

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
 * Both stores keep the blocks and slots in tables of the same names and columns (SQLite:
 * drizzle/0003_phone_list_counters.sql, PostgreSQL: drizzle/pg/0001_phone_list_counters.sql).
 */
async function counterViolations(): Promise<string[]> {
  const db = t.ctx.db;
  const figures = await phoneListFigures(db);
  const [truth] = await rows<Record<string, unknown>>(
    db,
    sql`SELECT count(*) AS total, count(*) FILTER (WHERE status = 'active') AS active, count(*) FILTER (WHERE count_success > 0) AS blasted FROM phone_numbers`,
  );
  const recount = { total: Number(truth!.total), active: Number(truth!.active), blasted: Number(truth!.blasted) };
  const out: string[] = [];
  if (JSON.stringify(figures) !== JSON.stringify(recount)) out.push(`figures ${JSON.stringify(figures)} vs ${JSON.stringify(recount)}`);
  // Kept and recounted figures side by side, grouped (one pass over the table, not one per block or slot).
  const blocks = await rows(
    db,
    sql`SELECT b, sum(kept) AS kept, sum(real) AS real FROM (
         SELECT block AS b, n AS kept, 0 AS real FROM phone_id_blocks
         UNION ALL SELECT id >> 10, 0, count(*) FROM phone_numbers GROUP BY 1) x
       GROUP BY b HAVING sum(kept) <> sum(real)`,
  );
  if (blocks.length) out.push(`blocks ${JSON.stringify(blocks)}`);
  // Rows per line type per block (drizzle/0008_phone_type_blocks.sql, drizzle/pg/0005_phone_type_blocks.sql).
  const typeBlocks = await rows(
    db,
    sql`SELECT t, b, sum(kept) AS kept, sum(real) AS real FROM (
         SELECT line_type AS t, block AS b, n AS kept, 0 AS real FROM phone_type_blocks
         UNION ALL SELECT coalesce(line_type, ''), id >> 10, 0, count(*) FROM phone_numbers GROUP BY 1, 2) x
       GROUP BY t, b HAVING sum(kept) <> sum(real)`,
  );
  if (typeBlocks.length) out.push(`type blocks ${JSON.stringify(typeBlocks)}`);
  const slots = await rows(
    db,
    text(`SELECT s, sum(kept) AS kept, sum(real) AS real FROM (
         SELECT slot AS s, n AS kept, 0 AS real FROM phone_sent_slots
         UNION ALL SELECT last_sent / ${SLOT_MS}, 0, count(*) FROM phone_numbers WHERE status = 'active' AND last_sent IS NOT NULL GROUP BY 1) x
       GROUP BY s HAVING sum(kept) <> sum(real)`),
  );
  if (slots.length) out.push(`slots ${JSON.stringify(slots)}`);
  return out;
}

/** Active numbers whose last attempt is after `cutoff`, counted row by row. */
const recountSentAfter = (cutoff: number) =>
  scalar(t.ctx.db, sql`SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND last_sent > ${cutoff}`);

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
    const db = t.ctx.db;
    const now = Date.now();
    await run(db, sql`UPDATE phone_numbers SET count_success = 1, last_sent = ${now - 3_600_000} WHERE id % 7 = 0`);
    await run(db, sql`UPDATE phone_numbers SET count_fail = 1, last_sent = ${now} WHERE id % 11 = 0`);
    await run(db, sql`UPDATE phone_numbers SET status = 'nonactive' WHERE id % 13 = 0`);
    expect(await counterViolations()).toEqual([]);
    const blast = await t.http.get('/api/admin/phonenumber/count-blast').set(admin.auth);
    const blasted = await scalar(db, sql`SELECT count(*) AS n FROM phone_numbers WHERE count_success > 0`);
    expect(blast.body).toEqual({ blasted, unBlasted: 2500 - 4 - blasted });

    // A real blast through the simulator.
    const member = await t.user('member');
    const account = await linkByQr(t, member, { phonenumber: '6281299990031', pushname: 'Penghitung' });
    await setRules(db, { intervalMin: 0, intervalMax: 0, price: 0, recipientCooldownHours: 24 });
    await addTemplate(db);
    await run(db, sql`UPDATE phone_numbers SET status = 'nonactive'`);
    await addTargets(t, 20);
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    await untilIdle(t, member, account.id);
    const sent = await scalar(db, sql`SELECT count(*) AS n FROM message_logs`);
    expect(sent).toBe(20);
    expect(await counterViolations()).toEqual([]);
    // The message-log figures read the members' running totals: equal to the log after a blast.
    const success = await scalar(db, sql`SELECT count(*) FROM message_logs WHERE success = 1`);
    const fail = await scalar(db, sql`SELECT count(*) FROM message_logs WHERE success = 0`);
    expect((await t.http.get('/api/admin/messagelog/total-count').set(admin.auth)).body).toEqual({ success, fail });
    const mine = await t.http.get(`/api/admin/messagelog/count/${member.id}`).set(member.auth);
    expect(mine.body).toEqual({ successCount: success, failCount: fail });

    // Bulk deletes: SQLite's triggers fire row by row, PostgreSQL's once per statement.
    await run(db, sql`DELETE FROM phone_numbers WHERE id % 2 = 0`);
    expect(await counterViolations()).toEqual([]);
    await run(db, sql`DELETE FROM phone_numbers`);
    expect(await counterViolations()).toEqual([]);
    expect(await phoneListFigures(db)).toEqual({ total: 0, active: 0, blasted: 0 });
  });

  it('the engine progress reads the counters and matches a recount, the cut-off slot included', async () => {
    const db = t.ctx.db;
    await run(db, sql`DELETE FROM phone_numbers`);
    const base = Math.floor(Date.now() / SLOT_MS) * SLOT_MS - 50 * SLOT_MS;
    const insert = (i: number, status: string, lastSent: number | null, inUse: number) =>
      run(
        db,
        sql`INSERT INTO phone_numbers (number, name, status, last_sent, in_use) VALUES (${`6281377${String(i).padStart(6, '0')}`}, ${`P${i}`}, ${status}, ${lastSent}, ${inUse})`,
      );
    for (let i = 0; i < 400; i++) await insert(i, i % 9 === 0 ? 'nonactive' : 'active', i % 5 === 0 ? null : base + i * 997, i % 4 === 0 ? 1 : 0);
    // Some rows counted before, some after this update (the fold and the triggers both in play).
    expect(await counterViolations()).toEqual([]);
    await run(db, sql`UPDATE phone_numbers SET last_sent = last_sent + 3333 WHERE id % 3 = 0`);
    // Rows inserted and changed before any read are folded with their current values.
    for (let i = 400; i < 500; i++) await insert(i, 'active', base + i * 101, 0);
    await run(db, sql`UPDATE phone_numbers SET status = 'nonactive', last_sent = last_sent + 10000 WHERE id % 10 = 1`);
    for (const cutoff of [base - 1, base + 12_345, base + 20_000, base + 199_999, base + 400 * 997]) {
      expect(await activeSentAfter(db, cutoff), `cutoff ${cutoff - base}`).toBe(await recountSentAfter(cutoff));
    }
    const engine = engineFor(t.ctx);
    const hours = 24;
    await setRules(db, { recipientCooldownHours: hours });
    const active = await scalar(db, sql`SELECT count(*) AS n FROM phone_numbers WHERE status = 'active'`);
    const reached = await recountSentAfter(Date.now() - hours * 3_600_000);
    await new Promise((r) => setTimeout(r, 5100)); // the progress figure is cached 5 s
    expect(await engine.progress()).toBe(Math.round((reached / active) * 10_000) / 100);
  });

  it('a large insert is folded in bounded steps; figures and pages stay exact meanwhile', async () => {
    const db = t.ctx.db;
    const sqlite = isSqlite(db);
    await run(db, sql`DELETE FROM phone_numbers`);
    await run(
      db,
      sql`${text(series(130_000))}
       INSERT INTO phone_numbers (number, name, status, count_success, last_sent)
       SELECT ${text(`'62814' || ${padded(db, 'i', 8)}`)}, 'Besar ' || i, CASE WHEN i % 4 = 0 THEN 'nonactive' ELSE 'active' END, i % 3,
              CASE WHEN i % 2 = 0 THEN CAST(${Date.now()} AS bigint) - i * 10 END FROM s`,
    );
    // SQLite folds new rows in 50,000-row steps; PostgreSQL's statement triggers counted the insert as it committed.
    const countedUpto = () => scalar(db, sql`SELECT counted_upto AS m FROM phone_list_state`);
    const before = sqlite ? await countedUpto() : 0;
    const figures = await phoneListFigures(db);
    if (sqlite) expect((await countedUpto()) - before).toBe(50_000); // one step folded by the read, the rest left to the background
    else expect(await counterViolations()).toEqual([]); // exact already: nothing is left to fold
    const [truth] = await rows<Record<string, unknown>>(
      db,
      sql`SELECT count(*) AS total, count(*) FILTER (WHERE status = 'active') AS active, count(*) FILTER (WHERE count_success > 0) AS blasted FROM phone_numbers`,
    );
    expect(figures).toEqual({ total: Number(truth!.total), active: Number(truth!.active), blasted: Number(truth!.blasted) });
    const page = await t.http.get('/api/admin/phonenumber/list-per-page?page=12000').set(admin.auth);
    expect(page.body.meta.total).toBe(130_000);
    const truthIds = await rows<{ id: number }>(db, sql`SELECT id FROM phone_numbers ORDER BY id LIMIT 10 OFFSET 119990`);
    expect(page.body.data.map((r: { id: number }) => r.id)).toEqual(truthIds.map((r) => r.id));
    const cutoff = Date.now() - 400_000;
    expect(await activeSentAfter(db, cutoff)).toBe(await recountSentAfter(cutoff));
    if (sqlite) {
      // The background folds the rest in steps between requests.
      const maxId = await scalar(db, sql`SELECT max(id) AS m FROM phone_numbers`);
      expect(await eventually(countedUpto, (m) => m === maxId, 5000)).toBe(maxId);
    }
    expect(await counterViolations()).toEqual([]);
  });

  it('reads figures and progress without scanning the phone list', async () => {
    const db = t.ctx.db;
    if (isSqlite(db)) {
      const plans = async (query: ReturnType<typeof sql>) =>
        (await rows<{ detail: string }>(db, sql`EXPLAIN QUERY PLAN ${query}`)).map((r) => r.detail).join(' | ');
      const partial = await plans(
        sql`SELECT count(*) FROM phone_numbers INDEXED BY phone_numbers_target_idx WHERE status = 'active' AND in_use IN (0, 1) AND last_sent > ${1} AND last_sent < ${2}`,
      );
      expect(partial).toMatch(/SEARCH phone_numbers USING COVERING INDEX phone_numbers_target_idx \(status=\? AND in_use=\? AND last_sent>\? AND last_sent<\?\)/);
      expect(await plans(sql`SELECT id FROM phone_numbers WHERE id >= ${1} ORDER BY id LIMIT 10 OFFSET 5`)).toMatch(
        /SEARCH phone_numbers USING INTEGER PRIMARY KEY \(rowid>\?\)/,
      );
      return;
    }
    // PostgreSQL: the same two reads (the partial slot of activeSentAfter, the seek of listPageIds) go through
    // an index, with the statistics of the 130,000 rows the test before left.
    await run(db, sql`ANALYZE phone_numbers`);
    const plans = async (query: ReturnType<typeof sql>) =>
      (await rows<Record<string, string>>(db, sql`EXPLAIN ${query}`)).map((r) => r['QUERY PLAN']).join(' | ');
    const now = Date.now();
    const partial = await plans(
      sql`SELECT count(*) FROM phone_numbers WHERE status = 'active' AND in_use IN (0, 1) AND last_sent > ${now - 5000} AND last_sent < ${now}`,
    );
    expect(partial).toMatch(/Index (Only )?Scan using phone_numbers_cooled_idx|Bitmap Index Scan on phone_numbers_cooled_idx/);
    expect(partial).not.toMatch(/Seq Scan/);
    const seek = await plans(sql`SELECT id FROM phone_numbers WHERE id >= ${1024} ORDER BY id LIMIT 10 OFFSET 5`);
    expect(seek).toMatch(/Index (Only )?Scan using phone_numbers_pkey/);
    expect(seek).not.toMatch(/Seq Scan|Sort/);
  });
});

import { eq } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { transaction, type Db } from '../../server/src/db/client';
import { rawAll } from '../../server/src/db/raw';
import { messageTemplates, phoneNumbers, settings } from '../../server/src/db/schema';
import { DAY_MS, DAY_OFFSET_MS } from '../../server/src/messagelog/service';
import type { TestApp, TestUser } from '../helpers';
import { SIM } from '../helpers';
import { eventually } from './whatsapp-fixtures';

/** Registered numbers of the simulated network, as blast targets (name = their push name). */
export async function addTargets(t: TestApp, n: number, offset = 0): Promise<Array<{ id: number; number: string; name: string }>> {
  const res = await t.http.get(`/api/sim/numbers?registered=true&limit=${n + offset}`).set(SIM);
  const numbers = (res.body.numbers as Array<{ number: string; name: string }>).slice(offset);
  return transaction(t.ctx.db, async (tx) => {
    const out: Array<{ id: number; number: string; name: string }> = [];
    for (const x of numbers) {
      const [row] = await tx
        .insert(phoneNumbers)
        .values({ number: x.number, name: x.name })
        .onConflictDoUpdate({ target: phoneNumbers.number, set: { name: x.name } })
        .returning({ id: phoneNumbers.id, number: phoneNumbers.number, name: phoneNumbers.name });
      out.push(row!);
    }
    return out;
  });
}

export async function addTemplate(db: Db, fields: Partial<typeof messageTemplates.$inferInsert> = {}) {
  const [row] = await db
    .insert(messageTemplates)
    .values({ text: '<p>Halo {name}</p>', textWa: 'Halo {name}, nomor {phoneNumber}', ...fields })
    .returning();
  return row!;
}

export async function setRules(db: Db, values: Partial<typeof settings.$inferInsert>): Promise<void> {
  await db.update(settings).set(values).where(eq(settings.id, 1));
}

/** Starts the account's blast through the API. */
export function startBlast(t: TestApp, user: TestUser, whatsappClientId: number | string, loop = true) {
  return t.http.post('/api/admin/whatsapp/start-blasting').set(user.auth).send({ whatsappClientId, socketClientId: 'test', loop });
}

export function stopBlast(t: TestApp, user: TestUser, whatsappClientId: number | string) {
  return t.http.post('/api/admin/whatsapp/stop-blasting').set(user.auth).send({ whatsappClientId, socketClientId: 'test' });
}

/** The account's row once its blast ended (status idle); fails, saying so, when it is still sending after `ms`. */
export async function untilIdle(t: TestApp, user: TestUser, id: number, ms = 20_000): Promise<Record<string, unknown>> {
  const res = await eventually(
    () => t.http.get(`/api/admin/whatsapp/${id}`).set(user.auth),
    (r) => r.body.whatsapp?.status === 'idle',
    ms,
    (r) => `account ${id} still ${String(r.body.whatsapp?.status)} (count_success ${String(r.body.whatsapp?.count_success)})`,
  );
  return res.body.whatsapp as Record<string, unknown>;
}

/**
 * Every "counters equal the log" invariant, as a list of mismatches (empty when all hold):
 * accounts, members, numbers and templates against message_logs, referral credits against
 * floor(income × percent / 100), and no claim left in use.
 */
export async function invariantViolations(db: Db, referralPercent: number | null = null): Promise<string[]> {
  const q = (text: string) => rawAll<Record<string, unknown>>(db, sql.raw(text));
  const out: string[] = [];
  const add = (label: string, rows: Array<Record<string, unknown>>) => {
    for (const r of rows) out.push(`${label}: ${JSON.stringify(r)}`);
  };
  add(
    'account',
    await q(`SELECT * FROM (SELECT w.id, w.count_success, w.count_fail, w.income,
        (SELECT count(*) FROM message_logs l WHERE l.whatsapp_id = w.id AND l.success = 1) AS ls,
        (SELECT count(*) FROM message_logs l WHERE l.whatsapp_id = w.id AND l.success = 0) AS lf,
        (SELECT coalesce(sum(income), 0) FROM message_logs l WHERE l.whatsapp_id = w.id) AS li
       FROM whatsapps w) x WHERE x.count_success <> x.ls OR x.count_fail <> x.lf OR x.income <> x.li`),
  );
  add(
    'member',
    await q(`SELECT * FROM (SELECT u.id, u.total_success, u.total_fail, u.income,
        (SELECT count(*) FROM message_logs l WHERE l.user_id = u.id AND l.success = 1) AS ls,
        (SELECT count(*) FROM message_logs l WHERE l.user_id = u.id AND l.success = 0) AS lf,
        (SELECT coalesce(sum(income), 0) FROM message_logs l WHERE l.user_id = u.id) AS li
       FROM users u) x WHERE x.total_success <> x.ls OR x.total_fail <> x.lf OR x.income <> x.li`),
  );
  add(
    'number',
    await q(`SELECT * FROM (SELECT p.id, p.count_success, p.count_fail,
        (SELECT count(*) FROM message_logs l WHERE l.phone_number_id = p.id AND l.success = 1) AS ls,
        (SELECT count(*) FROM message_logs l WHERE l.phone_number_id = p.id AND l.success = 0) AS lf
       FROM phone_numbers p) x WHERE x.count_success <> x.ls OR x.count_fail <> x.lf`),
  );
  add(
    'template',
    await q(`SELECT * FROM (SELECT t.id, t.count_use, (SELECT count(*) FROM message_logs l WHERE l.template_id = t.id) AS lu
       FROM message_templates t) x WHERE x.count_use <> x.lu`),
  );
  add('in use', await q('SELECT id, number FROM phone_numbers WHERE in_use = 1'));
  for (const v of await dayCounterViolations(db)) out.push(v);
  for (const v of await accountCountViolations(db)) out.push(v);
  add('income without success', await q('SELECT id FROM message_logs WHERE success = 0 AND income <> 0'));
  if (referralPercent !== null) {
    add(
      'referral',
      await q(`SELECT l.id, l.income, c.amount FROM message_logs l
          JOIN users u ON u.id = l.user_id AND u.referred_by IS NOT NULL
          LEFT JOIN referral_credits c ON c.message_log_id = l.id
         WHERE coalesce(c.amount, 0) <> (l.income * ${referralPercent}) / 100`),
    );
  }
  return out;
}

/** The WIB day of a log row, in SQL both stores read alike. */
const LOG_DAY = `CAST((created_at + ${DAY_OFFSET_MS}) / ${DAY_MS} AS INTEGER)`;

const DELIVERED = "CASE WHEN delivery_status IN ('delivered', 'read') THEN 1 ELSE 0 END";
const READ = "CASE WHEN delivery_status = 'read' THEN 1 ELSE 0 END";

/**
 * message_log_days against a recount of the log: per WIB day, for everyone (user 0) and per member,
 * successes, failures, income, delivered and read; and whatsapp_days per account and day. Mismatches in
 * either direction, as 'day …' lines (empty when equal).
 */
export async function dayCounterViolations(db: Db): Promise<string[]> {
  const sums = `CAST(sum(CASE WHEN success = 1 THEN 1 ELSE 0 END) AS BIGINT) AS s, CAST(sum(CASE WHEN success = 1 THEN 0 ELSE 1 END) AS BIGINT) AS f`;
  const outcomes = `CAST(sum(${DELIVERED}) AS BIGINT) AS d, CAST(sum(${READ}) AS BIGINT) AS r`;
  const recount = `SELECT ${LOG_DAY} AS day, 0 AS user_id, ${sums}, CAST(sum(income) AS BIGINT) AS i, ${outcomes} FROM message_logs GROUP BY 1
      UNION ALL
      SELECT ${LOG_DAY} AS day, user_id, ${sums}, CAST(sum(income) AS BIGINT), ${outcomes} FROM message_logs GROUP BY 1, 2`;
  const kept = `SELECT day, user_id, CAST(sum(success) AS BIGINT) AS s, CAST(sum(fail) AS BIGINT) AS f, CAST(sum(income) AS BIGINT) AS i,
        CAST(sum(delivered) AS BIGINT) AS d, CAST(sum(read) AS BIGINT) AS r
      FROM message_log_days GROUP BY 1, 2 HAVING sum(success) <> 0 OR sum(fail) <> 0 OR sum(income) <> 0 OR sum(delivered) <> 0 OR sum(read) <> 0`;
  const accountRecount = `SELECT whatsapp_id, ${LOG_DAY} AS day, ${sums}, ${outcomes} FROM message_logs WHERE whatsapp_id IS NOT NULL GROUP BY 1, 2`;
  const accountKept = `SELECT whatsapp_id, day, CAST(success AS BIGINT) AS s, CAST(fail AS BIGINT) AS f, CAST(delivered AS BIGINT) AS d, CAST(read AS BIGINT) AS r
      FROM whatsapp_days WHERE success <> 0 OR fail <> 0 OR delivered <> 0 OR read <> 0`;
  const rows = await rawAll<Record<string, unknown>>(
    db,
    sql.raw(`SELECT 'kept' AS side, x.* FROM (${kept} EXCEPT SELECT * FROM (${recount}) r) x
      UNION ALL SELECT 'log' AS side, y.* FROM (SELECT * FROM (${recount}) r EXCEPT ${kept}) y`),
  );
  const accounts = await rawAll<Record<string, unknown>>(
    db,
    sql.raw(`SELECT 'kept' AS side, x.* FROM (${accountKept} EXCEPT SELECT * FROM (${accountRecount}) r) x
      UNION ALL SELECT 'log' AS side, y.* FROM (SELECT * FROM (${accountRecount}) r EXCEPT ${accountKept}) y`),
  );
  return [...rows.map((r) => `day: ${JSON.stringify(r)}`), ...accounts.map((r) => `account day: ${JSON.stringify(r)}`)];
}

/** whatsapp_counts against a recount of the accounts, for everyone (user 0) and per member ('accounts …' lines). */
export async function accountCountViolations(db: Db): Promise<string[]> {
  const active = "CASE WHEN coalesce(state, '') IN ('connected', 'sending') AND suspended = 0 THEN 1 ELSE 0 END";
  const recount = `SELECT 0 AS user_id, CAST(count(*) AS BIGINT) AS t, CAST(coalesce(sum(${active}), 0) AS BIGINT) AS a FROM whatsapps
      UNION ALL SELECT user_id, CAST(count(*) AS BIGINT), CAST(sum(${active}) AS BIGINT) FROM whatsapps GROUP BY user_id`;
  const kept = `SELECT user_id, CAST(sum(total) AS BIGINT) AS t, CAST(sum(active) AS BIGINT) AS a FROM whatsapp_counts GROUP BY user_id
      HAVING sum(total) <> 0 OR sum(active) <> 0 OR user_id = 0`;
  const rows = await rawAll<Record<string, unknown>>(
    db,
    sql.raw(`SELECT 'kept' AS side, x.* FROM (${kept} EXCEPT SELECT * FROM (${recount}) r) x
      UNION ALL SELECT 'accounts' AS side, y.* FROM (SELECT * FROM (${recount}) r EXCEPT ${kept}) y`),
  );
  return rows.map((r) => `accounts: ${JSON.stringify(r)}`);
}

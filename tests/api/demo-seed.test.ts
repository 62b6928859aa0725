import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootstrapData } from '../../server/src/bootstrap';
import { loadConfig } from '../../server/src/config';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { one, rawGet } from '../../server/src/db/raw';
import * as schema from '../../server/src/db/schema';
import { verifyPassword } from '../../server/src/auth/password';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../seed/demo';

let dataDir: string;
let db: Db;
const log = () => undefined;
const demoConfig = () => loadConfig({ DATA_DIR: dataDir });

const DEMO_TABLES = {
  users: schema.users,
  levels: schema.levels,
  whatsapps: schema.whatsapps,
  messageLogs: schema.messageLogs,
  referralCredits: schema.referralCredits,
  bonuses: schema.bonuses,
  withdrawals: schema.withdrawals,
  auditLog: schema.auditLog,
  proxies: schema.proxies,
  messageTemplates: schema.messageTemplates,
  optOuts: schema.optOuts,
  phoneNumbers: schema.phoneNumbers,
};

/** Row counts of every table the demo writes, and the sums its triggers keep. */
async function contents(target: Db) {
  const rows = {} as Record<keyof typeof DEMO_TABLES, number>;
  for (const name of Object.keys(DEMO_TABLES) as Array<keyof typeof DEMO_TABLES>) {
    rows[name] = (await one(target.select({ n: count() }).from(DEMO_TABLES[name])))?.n ?? 0;
  }
  const days = await rawGet<{ n: number | string | null }>(target, sql`SELECT coalesce(sum(success + fail), 0) AS n FROM message_log_days WHERE user_id = 0`);
  const accounts = await rawGet<{ n: number | string | null }>(target, sql`SELECT coalesce(sum(total), 0) AS n FROM whatsapp_counts WHERE user_id = 0`);
  const settings = await one(target.select({ price: schema.settings.price, info: schema.settings.info }).from(schema.settings).where(eq(schema.settings.id, 1)));
  return { rows, loggedDays: Number(days?.n ?? 0), countedAccounts: Number(accounts?.n ?? 0), settings };
}

/** A receiver number the demo seeds (its contacts come last), read from a demo seeded elsewhere. */
async function aDemoReceiver(): Promise<string> {
  const scratch = await createTestDb();
  try {
    await bootstrapData(scratch, demoConfig(), log);
    const row = await one(scratch.select({ number: schema.phoneNumbers.number }).from(schema.phoneNumbers).orderBy(schema.phoneNumbers.id).limit(1));
    return row!.number;
  } finally {
    await closeDb(scratch);
  }
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-demo-'));
  db = await createTestDb();
});
afterEach(async () => {
  await closeDb(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo is seeded whole or not at all', () => {
  it('a seeding that fails at its last step leaves nothing behind, and the next start seeds the whole demo', async () => {
    const empty = await contents(db);
    // A receiver already on the list: the demo's contacts (its last step) clash with it on the unique number.
    const number = await aDemoReceiver();
    await db.insert(schema.phoneNumbers).values({ number, name: 'Sudah ada' });
    const before = await contents(db);

    await expect(bootstrapData(db, demoConfig(), log)).rejects.toThrow();
    // Users, accounts, the money history with its day figures, bonuses, withdrawals, their audit rows and
    // the settings the demo sets: all rolled back with the failed step.
    expect(await contents(db)).toEqual(before);

    await db.delete(schema.phoneNumbers).where(eq(schema.phoneNumbers.number, number));
    expect(await contents(db)).toEqual(empty);
    const again = await bootstrapData(db, demoConfig(), log);
    expect(again.demoSeeded).toBe(true);

    const seeded = await contents(db);
    for (const [name, n] of Object.entries(seeded.rows)) expect(n, name).toBeGreaterThan(0);
    expect(seeded.loggedDays).toBe(seeded.rows.messageLogs);
    expect(seeded.countedAccounts).toBe(seeded.rows.whatsapps);
    expect(seeded.settings!.price).toBe(50);
    const actions = (await db.select({ action: schema.auditLog.action }).from(schema.auditLog)).map((a) => a.action);
    expect(actions.filter((a) => a === 'bonus.create')).toHaveLength(seeded.rows.bonuses);
    expect(actions.filter((a) => a === 'withdraw.request')).toHaveLength(seeded.rows.withdrawals);

    // A start after that finds the demo and seeds nothing more.
    expect((await bootstrapData(db, demoConfig(), log)).demoSeeded).toBe(false);
    expect((await contents(db)).rows).toEqual(seeded.rows);
  });

  it('keeps the money history of a member as the engine would have recorded it', async () => {
    await bootstrapData(db, demoConfig(), log);
    const members = await db.select().from(schema.users).where(eq(schema.users.role, 'member'));
    for (const m of members) {
      const sums = await one(
        db
          .select({
            success: sql<number>`sum(case when ${schema.messageLogs.success} = 1 then 1 else 0 end)`.mapWith(Number),
            fail: sql<number>`sum(case when ${schema.messageLogs.success} = 1 then 0 else 1 end)`.mapWith(Number),
            income: sql<number>`sum(${schema.messageLogs.income})`.mapWith(Number),
          })
          .from(schema.messageLogs)
          .where(eq(schema.messageLogs.userId, m.id)),
      );
      expect([m.totalSuccess, m.totalFail, m.income], m.email).toEqual([sums!.success, sums!.fail, sums!.income]);
    }
    // Budi crosses Silver (1000 successes) part-way: 1000 sends at Bronze's 50, the last 150 at Silver's 75.
    const budi = members.find((m) => m.email === 'member@demo.test')!;
    expect(budi.income).toBe(1000 * 50 + 150 * 75);
    // His referrals' sends credit him 10 % of each fee, one credit per paid send.
    const credits = await db.select().from(schema.referralCredits).where(eq(schema.referralCredits.referrerId, budi.id));
    const referred = members.filter((m) => m.referredBy === budi.id);
    expect(credits).toHaveLength(referred.reduce((n, m) => n + m.totalSuccess, 0));
    expect(credits.every((c) => c.messageLogId !== null && c.amount === 5)).toBe(true);
    // Each credit points at a paid send of the member it names, one credit per send.
    const logs = new Map((await db.select().from(schema.messageLogs)).map((l) => [l.id, l]));
    for (const c of credits) {
      const log = logs.get(c.messageLogId!);
      expect(log, `credit ${c.id}`).toMatchObject({ success: true, userId: c.referredId });
      expect(referred.map((m) => m.id)).toContain(c.referredId);
    }
    expect(new Set(credits.map((c) => c.messageLogId)).size).toBe(credits.length);
  });

  it('signs every demo login in with the published password', async () => {
    await bootstrapData(db, demoConfig(), log);
    const users = await db.select({ email: schema.users.email, hash: schema.users.passwordHash }).from(schema.users);
    for (const l of DEMO_LOGINS) {
      const user = users.find((u) => u.email === l.email);
      expect(await verifyPassword(DEMO_PASSWORD, user!.hash), l.email).toBe(true);
    }
  });
});

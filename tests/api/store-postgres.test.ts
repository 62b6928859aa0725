import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as sqliteSchema from '../../server/src/db/schema';
import * as pgSchema from '../../server/src/db/pg/schema';
import { closeDb, createTestDb, moneyTransaction, transaction, type Db } from '../../server/src/db/client';
import { auditLog, phoneNumbers, users, whatsapps } from '../../server/src/db/schema';
import { rawAll, rawGet } from '../../server/src/db/raw';
import { createPostgresTestDb } from '../../server/src/db/postgres';

function must<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('no row');
  return row;
}

const URL = process.env.PG_TEST_URL ?? 'postgres://root@127.0.0.1:5432/test';

async function reachable(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const unreachable = await reachable(URL);
if (unreachable) console.warn(`\n!!! PostgreSQL store tests SKIPPED: ${URL} does not answer (${unreachable}) !!!\n`);

describe('the PostgreSQL mirror schema', () => {
  it('declares the same tables and columns as the SQLite schema', () => {
    const shape = (cfg: { name: string; columns: Array<{ name: string; notNull: boolean }> }) =>
      `${cfg.name}(${cfg.columns.map((c) => `${c.name}${c.notNull ? '!' : ''}`).sort().join(',')})`;
    const isTable = (v: unknown) => typeof v === 'object' && v !== null && Symbol.for('drizzle:IsDrizzleTable') in v;
    const left = Object.values(sqliteSchema).filter(isTable).map((t) => shape(sqliteConfig(t as SQLiteTable))).sort();
    const right = Object.values(pgSchema).filter(isTable).map((t) => shape(pgConfig(t as PgTable))).sort();
    expect(left.length).toBeGreaterThan(10);
    expect(right).toEqual(left);
  });
});

describe.skipIf(unreachable !== null)('the store on PostgreSQL', () => {
  let db: Db;
  beforeAll(async () => {
    db = (await createPostgresTestDb(URL)) as unknown as Db;
  });
  afterAll(async () => {
    if (db) await closeDb(db);
  });

  it('keeps the JavaScript types of the shared tables (dates, flags, JSON, ids)', async () => {
    const u = must(await db.insert(users).values({ firstname: 'Ana', email: 'ana@x.test', passwordHash: 'h', referralCode: 'ANA1' }).returning());
    expect(u.id).toBeTypeOf('number');
    expect(u.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(u.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const w = must(await db.insert(whatsapps).values({ deviceId: 'd1', clientid: 'c1', userId: u.id, suspended: true }).returning());
    expect(w.suspended).toBe(true);
    expect(w.ownInterval).toBe(false);
    await db.insert(auditLog).values({ actorId: u.id, targetUserId: u.id, action: 'x', details: { from: 1, to: 2 } });
    const a = must(await db.select().from(auditLog));
    expect(a.details).toEqual({ from: 1, to: 2 });
    const found = await db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.suspended, true));
    expect(found).toEqual([{ id: w.id }]);
  });

  it('keeps the phone list figures exact through inserts, updates and deletes', async () => {
    const now = Date.now();
    await db.insert(phoneNumbers).values(Array.from({ length: 50 }, (_, i) => ({ number: `62812000${String(i).padStart(4, '0')}` })));
    await db.update(phoneNumbers).set({ status: 'nonactive' }).where(sql`${phoneNumbers.id} % 5 = 0`);
    await db.update(phoneNumbers).set({ countSuccess: 1, lastSent: new Date(now) }).where(sql`${phoneNumbers.id} <= 10`);
    await db.delete(phoneNumbers).where(sql`${phoneNumbers.id} > 45`);
    const figures = await rawGet<{ total: string; active: string; blasted: string }>(
      db,
      sql`SELECT sum(total) AS total, sum(active) AS active, sum(blasted) AS blasted FROM phone_list_state`,
    );
    const truth = await rawGet<{ total: number; active: number; blasted: number }>(
      db,
      sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'active'))::int AS active, (count(*) FILTER (WHERE count_success > 0))::int AS blasted FROM phone_numbers`,
    );
    expect({ total: Number(figures?.total), active: Number(figures?.active), blasted: Number(figures?.blasted) }).toEqual(truth);
    const slots = await rawAll<{ n: number }>(db, sql`SELECT n FROM phone_sent_slots WHERE n <> 0`);
    const sentActive = await rawGet<{ n: number }>(db, sql`SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND last_sent IS NOT NULL`);
    expect(slots.reduce((s, r) => s + r.n, 0)).toBe(sentActive?.n);
    const blocks = await rawGet<{ n: number }>(db, sql`SELECT sum(n)::int AS n FROM phone_id_blocks`);
    expect(blocks?.n).toBe(truth?.total);
  });

  it('retries a money transaction that loses a serialization race, so both changes land', async () => {
    const u = must(await db.insert(users).values({ firstname: 'Budi', email: 'budi@x.test', passwordHash: 'h', referralCode: 'BUDI1' }).returning());
    const bump = () =>
      moneyTransaction(db, async (tx) => {
        const row = must(await tx.select({ income: users.income }).from(users).where(eq(users.id, u.id)));
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.update(users).set({ income: row.income + 100 }).where(eq(users.id, u.id));
      });
    await Promise.all([bump(), bump(), bump()]);
    const after = must(await db.select({ income: users.income }).from(users).where(eq(users.id, u.id)));
    expect(after.income).toBe(300);
  });

  it('rolls a failed transaction back', async () => {
    await expect(
      transaction(db, async (tx) => {
        await tx.insert(users).values({ firstname: 'C', email: 'c@x.test', passwordHash: 'h', referralCode: 'C1' });
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await db.select().from(users).where(eq(users.email, 'c@x.test'))).toEqual([]);
  });

  it('opens a fresh schema per test database, on DATABASE_URL when it names PostgreSQL', async () => {
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = URL;
    try {
      const other = await createTestDb();
      expect(await other.select().from(users)).toEqual([]);
      await closeDb(other);
    } finally {
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { closeDb, createTestDb, transaction, type Db } from '../../server/src/db/client';
import { users } from '../../server/src/db/schema';
import { isPostgresUrl } from '../../server/src/db/postgres';

const URL = process.env.DATABASE_URL ?? '';
const onPostgres = isPostgresUrl(URL);

/** Ends these server processes (backends) from another connection, as a PostgreSQL restart does. */
async function terminate(pids: number[]): Promise<void> {
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  } finally {
    await admin.end();
  }
}

const backendPid = async (c: { query: (q: string) => Promise<{ rows: Array<{ pid: number }> }> }) => (await c.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
const settle = () => new Promise((r) => setTimeout(r, 300));

describe.skipIf(!onPostgres)('PostgreSQL ending the connections of a running node', () => {
  let db: Db;
  // An 'error' nobody listens to ends the process; in a test run it is an uncaught exception.
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  beforeAll(async () => {
    db = await createTestDb();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    if (db) await closeDb(db);
  });

  it('keeps running when idle connections are cut, and the next query opens a new one', async () => {
    const pool = (db as unknown as { $client: pg.Pool }).$client;
    const pids = await Promise.all([1, 2, 3].map(async () => {
      const c = await pool.connect();
      try {
        return await backendPid(c);
      } finally {
        c.release();
      }
    }));
    expect(pool.idleCount).toBeGreaterThan(0);
    await terminate(pids);
    await settle();
    expect(uncaught).toEqual([]);
    await db.insert(users).values({ firstname: 'Sesudah', email: 'after-restart@x.test', passwordHash: 'h', referralCode: 'AFTER1' });
    expect(await db.select({ email: users.email }).from(users)).toContainEqual({ email: 'after-restart@x.test' });
  });

  it('fails and rolls back a transaction whose connection is cut, and keeps running', async () => {
    const cut = transaction(db, async (tx) => {
      await tx.insert(users).values({ firstname: 'Setengah', email: 'half-done@x.test', passwordHash: 'h', referralCode: 'HALF1' });
      const { rows } = await (tx as unknown as { execute: (q: string) => Promise<{ rows: Array<{ pid: number }> }> }).execute('SELECT pg_backend_pid() AS pid');
      await terminate([rows[0]!.pid]);
      await settle();
      await tx.insert(users).values({ firstname: 'Setengah', email: 'half-done-2@x.test', passwordHash: 'h', referralCode: 'HALF2' });
    });
    await expect(cut).rejects.toThrow();
    expect(uncaught).toEqual([]);
    const emails = (await db.select({ email: users.email }).from(users)).map((u) => u.email);
    expect(emails).not.toContain('half-done@x.test');
    expect(emails).toContain('after-restart@x.test');
  });
});

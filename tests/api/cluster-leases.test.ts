import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { createPostgresTestDb } from '../../server/src/db/postgres';
import { acquireLease, releaseAllLeases, releaseLease, renewLeases } from '../../server/src/cluster/leases';

const PG_URL = process.env.PG_TEST_URL ?? 'postgres://root@127.0.0.1:5432/test';
async function unreachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
const pgDown = await unreachable(PG_URL);
if (pgDown) console.warn(`\n!!! Lease tests on PostgreSQL SKIPPED: ${PG_URL} does not answer (${pgDown}) !!!\n`);

const stores: Array<[string, () => Promise<Db>, boolean]> = [
  ['SQLite', async () => createTestDb(), false],
  ['PostgreSQL', async () => (await createPostgresTestDb(PG_URL)) as unknown as Db, pgDown !== null],
];

describe.each(stores)('leases on %s', (_name, open, skip) => {
  let db: Db | null = null;
  afterEach(async () => {
    if (db) await closeDb(db);
    db = null;
  });

  it.skipIf(skip)('gives work to one node at a time until its lease expires or is released', async () => {
    db = await open();
    expect(await acquireLease(db, 'account', 7, 'A', 60_000)).toBe(true);
    expect(await acquireLease(db, 'account', 7, 'B', 60_000)).toBe(false);
    expect(await acquireLease(db, 'account', 7, 'A', 60_000)).toBe(true);
    await releaseLease(db, 'account', 7, 'A');
    expect(await acquireLease(db, 'account', 7, 'B', 60_000)).toBe(true);
  });

  it.skipIf(skip)('lets another node take over an expired lease, and its old holder sees it is gone', async () => {
    db = await open();
    expect(await acquireLease(db, 'account', 1, 'A', 1)).toBe(true);
    expect(await acquireLease(db, 'account', 2, 'A', 60_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await acquireLease(db, 'account', 1, 'B', 60_000)).toBe(true);
    expect([...(await renewLeases(db, 'A'))].sort()).toEqual(['account:2']);
    expect(await releaseAllLeases(db, 'A')).toBe(1);
    expect(await acquireLease(db, 'account', 2, 'B', 60_000)).toBe(true);
  });

  it.skipIf(skip)('never lets two nodes racing for the same work both win', async () => {
    db = await open();
    const store = db;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => acquireLease(store, 'generator', 3, `N${i}`, 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { closeDb, openDb, transaction, type Db } from '../../server/src/db/client';
import { proxies } from '../../server/src/db/schema';
import { changes, one, rawAll, rawRun } from '../../server/src/db/raw';
import { sql } from 'drizzle-orm';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('asynchronous transactions on the shared SQLite connection', () => {
  let db: Db;
  beforeEach(async () => {
    // The gate is SQLite's: this suite always runs on an in-memory SQLite database.
    db = openDb(':memory:');
  });
  afterEach(() => closeDb(db));

  it('commits what the callback wrote and rolls back everything when it throws', async () => {
    await transaction(db, async (tx) => {
      await tx.insert(proxies).values({ value: 'a:1' });
    });
    await expect(
      transaction(db, async (tx) => {
        await tx.insert(proxies).values({ value: 'b:1' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const rows = await db.select({ value: proxies.value }).from(proxies);
    expect(rows.map((r) => r.value)).toEqual(['a:1']);
  });

  it('makes another caller wait instead of joining, so a rollback never takes its write along', async () => {
    const order: string[] = [];
    const failing = transaction(db, async (tx) => {
      await tx.insert(proxies).values({ value: 'inside:1' });
      order.push('inside wrote');
      await pause(30);
      throw new Error('rolled back');
    });
    await pause(5);
    const outside = (async () => {
      await db.insert(proxies).values({ value: 'outside:1' });
      order.push('outside wrote');
    })();
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect(order).toEqual(['inside wrote', 'outside wrote']);
    const rows = await db.select({ value: proxies.value }).from(proxies);
    expect(rows.map((r) => r.value)).toEqual(['outside:1']);
  });

  it('runs one transaction at a time and lets a nested one join its parent', async () => {
    const log: string[] = [];
    const first = transaction(db, async (tx) => {
      log.push('first begins');
      await pause(20);
      await transaction(tx, async (inner) => {
        await inner.insert(proxies).values({ value: 'nested:1' });
      });
      log.push('first ends');
    });
    const second = transaction(db, async () => {
      log.push('second begins');
    });
    await Promise.all([first, second]);
    expect(log).toEqual(['first begins', 'first ends', 'second begins']);
    expect(await one(db.select().from(proxies).where(eq(proxies.value, 'nested:1')))).toBeDefined();
  });

  it('answers raw SQL and changed-row counts the same way as the builders', async () => {
    await db.insert(proxies).values([{ value: 'x:1' }, { value: 'x:2' }]);
    expect(await rawRun(db, sql`UPDATE proxies SET count_use = count_use + 1`)).toBe(2);
    const result = await db.update(proxies).set({ status: 'nonactive' }).where(eq(proxies.value, 'x:1'));
    expect(changes(result)).toBe(1);
    const raw = await rawAll<{ value: string; count_use: number }>(db, sql`SELECT value, count_use FROM proxies ORDER BY value`);
    expect(raw).toEqual([
      { value: 'x:1', count_use: 1 },
      { value: 'x:2', count_use: 1 },
    ]);
  });
});

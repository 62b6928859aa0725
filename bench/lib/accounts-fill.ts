/** Saved WhatsApp accounts in bulk (start-up benchmark and test): set-based SQL, no per-row round trips. */
import { sql } from 'drizzle-orm';
import { transaction, type Db } from '../../server/src/db/client';
import { dialectOf, rawGet, rawRun } from '../../server/src/db/raw';

const seriesTo = (n: number) => `WITH RECURSIVE s(i) AS (SELECT 0 WHERE ${n} > 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${n})`;
const padded = (db: Db, expr: string, width: number) =>
  dialectOf(db) === 'sqlite' ? `printf('%0${width}d', ${expr})` : `lpad((${expr})::text, ${width}, '0')`;

/**
 * `members` members and `accounts` linked accounts spread over them, each with a saved session
 * (number, serialized id): of every ten, seven connected, one disconnected, one conflicted, one logged
 * out; `sending` of the connected ones (spread evenly by id) were blasting. Device ids are `saved-<i>`.
 */
export async function fillSavedAccounts(
  db: Db,
  sizes: { accounts: number; sending: number; members: number },
): Promise<{ sending: number; restorable: number }> {
  const every = sizes.sending > 0 ? Math.max(1, Math.floor(sizes.accounts / sizes.sending)) : 0;
  // An index i is sending when it is a connected one (i % 10 < 7) at a multiple of `every`.
  const sending = every ? `i % ${every} = 0 AND i % 10 < 7 AND i / ${every} < ${sizes.sending}` : '0 = 1';
  await transaction(db, async (tx) => {
    await rawRun(
      tx,
      sql.raw(`${seriesTo(sizes.members)}
       INSERT INTO users (firstname, lastname, email, password_hash, role, referral_code)
       SELECT 'Member', 'Saved ' || i, 'saved' || i || '@bench.test', 'x', 'member', 'S' || i FROM s`),
    );
    const firstUser = Number((await rawGet<{ m: number }>(tx, sql`SELECT min(id) AS m FROM users WHERE email LIKE 'saved%@bench.test'`))!.m);
    await rawRun(
      tx,
      sql.raw(`${seriesTo(sizes.accounts)}
       INSERT INTO whatsapps (device_id, clientid, pushname, phonenumber, server, serialized, user_id, state, status)
       SELECT 'saved-' || i, '62877' || ${padded(db, 'i', 8)} || '@c.us', 'Saved ' || i, '62877' || ${padded(db, 'i', 8)}, 'c.us',
              '62877' || ${padded(db, 'i', 8)} || '@c.us', ${firstUser} + i % ${sizes.members},
              CASE WHEN i % 10 < 7 THEN 'connected' WHEN i % 10 = 7 THEN 'disconnected' WHEN i % 10 = 8 THEN 'conflict' ELSE 'loggedOut' END,
              CASE WHEN ${sending} THEN 'sending' ELSE 'idle' END
       FROM s`),
    );
  });
  const counts = await rawGet<{ sending: number; restorable: number }>(
    db,
    sql`SELECT sum(CASE WHEN status = 'sending' THEN 1 ELSE 0 END) AS sending, sum(CASE WHEN state <> 'loggedOut' THEN 1 ELSE 0 END) AS restorable FROM whatsapps WHERE device_id LIKE 'saved-%'`,
  );
  return { sending: Number(counts?.sending ?? 0), restorable: Number(counts?.restorable ?? 0) };
}

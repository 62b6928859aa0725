/** Bulk fills for the list benchmark (and the list tests): set-based SQL, no per-row round trips. */
import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { transaction, type Db } from '../../server/src/db/client';
import { dialectOf, rawGet, rawRun } from '../../server/src/db/raw';

const FIRST = ['Budi', 'Siti', 'Agus', 'Dewi', 'Rina', 'Joko', 'Sri', 'Andi', 'Putri', 'Eko', 'Wati', 'Hendra', 'Nur', 'Rudi', 'Fitri'];
const LAST = ['Santoso', 'Wijaya', 'Saputra', 'Pratama', 'Lestari', 'Hidayat', 'Kusuma', 'Setiawan', 'Nugroho', 'Rahayu'];

function nameTables(c: Database.Database): void {
  c.exec('CREATE TEMP TABLE IF NOT EXISTS bench_first (k INTEGER PRIMARY KEY, v TEXT); CREATE TEMP TABLE IF NOT EXISTS bench_last (k INTEGER PRIMARY KEY, v TEXT);');
  c.exec('DELETE FROM bench_first; DELETE FROM bench_last;');
  const f = c.prepare('INSERT INTO bench_first VALUES (?, ?)');
  const l = c.prepare('INSERT INTO bench_last VALUES (?, ?)');
  FIRST.forEach((v, k) => f.run(k, v));
  LAST.forEach((v, k) => l.run(k, v));
}

/** A recursive series from `from` to `to` (exclusive) as a CTE named s(i). */
const series = 'WITH RECURSIVE s(i) AS (SELECT @from UNION ALL SELECT i + 1 FROM s WHERE i + 1 < @to)';

/**
 * Phone numbers i in [from, to): the same scrambled numbers as bench/lib/contacts-data.ts
 * (`628` + (i × 2654435761) mod 10^10), names "First Last i%1000", a third never sent, the rest
 * sent at spread times, every one with a line type as the numbering-plan migration leaves them (a
 * server started on rows without one classifies them in the background first); inserted in steps of
 * 250,000 rows.
 */
export function fillPhoneNumbers(c: Database.Database, from: number, to: number): void {
  nameTables(c);
  const insert = c.prepare(
    `${series}
     INSERT INTO phone_numbers (number, name, count_success, count_fail, last_sent, line_type)
     SELECT '628' || printf('%010d', i * 2654435761 % 10000000000),
            f.v || ' ' || l.v || ' ' || (i % 1000), i % 3, (i % 5 = 0),
            CASE WHEN i % 3 = 0 THEN NULL ELSE @now - (i % 172800) * 1000 END, 'mobile'
     FROM s JOIN bench_first f ON f.k = i % 15 JOIN bench_last l ON l.k = i * 7 % 10`,
  );
  const now = Date.now();
  for (let a = from; a < to; a += 250_000) c.transaction(() => insert.run({ from: a, to: Math.min(to, a + 250_000), now }))();
}

/** The fixed names as an inline table (columns column1 = k, column2 = v: the same on SQLite and PostgreSQL). */
const valuesOf = (names: string[]) => `(VALUES ${names.map((v, k) => `(${k}, '${v}')`).join(', ')})`;

/** A series s(i) = 0 … n-1 (a recursive CTE, the same on SQLite and PostgreSQL). */
const seriesTo = (n: number) => `WITH RECURSIVE s(i) AS (SELECT 0 WHERE ${n} > 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${n})`;

/** An integer expression zero-padded to `width` digits. */
const padded = (db: Db, expr: string, width: number) =>
  dialectOf(db) === 'sqlite' ? `printf('%0${width}d', ${expr})` : `lpad((${expr})::text, ${width}, '0')`;

/**
 * `members` members, `accounts` WhatsApp accounts spread over them, and generator and validator jobs, in
 * one transaction of set-based statements on either store.
 */
export async function fillOthers(db: Db, sizes: { members: number; accounts: number; jobs: number }): Promise<void> {
  const first = valuesOf(FIRST);
  const last = valuesOf(LAST);
  await transaction(db, async (tx) => {
    await rawRun(
      tx,
      sql.raw(`${seriesTo(sizes.members)}
       INSERT INTO users (firstname, lastname, email, password_hash, role, referral_code, total_success, total_fail, income)
       SELECT f.column2, l.column2, 'member' || i || '@bench.test', 'x', 'member', 'R' || i, i % 500, i % 37, (i % 500) * 50
       FROM s JOIN ${first} f ON f.column1 = i % 15 JOIN ${last} l ON l.column1 = i * 7 % 10`),
    );
    const firstUser = Number((await rawGet<{ m: number }>(tx, sql`SELECT min(id) AS m FROM users WHERE role = 'member'`))!.m);
    await rawRun(
      tx,
      sql.raw(`${seriesTo(sizes.accounts)}
       INSERT INTO whatsapps (device_id, clientid, pushname, phonenumber, user_id, state, status, count_success, count_fail)
       SELECT 'dev-' || i, '62899' || ${padded(db, 'i', 8)} || '@c.us', f.column2 || ' ' || l.column2, '62899' || ${padded(db, 'i', 8)},
              ${firstUser} + (i * 7919) % ${sizes.members},
              CASE i % 4 WHEN 0 THEN 'connected' WHEN 1 THEN 'disconnected' WHEN 2 THEN 'loggedOut' ELSE 'connected' END,
              CASE WHEN i % 50 = 0 THEN 'sending' ELSE 'idle' END, i % 1000, i % 17
       FROM s JOIN ${first} f ON f.column1 = i % 15 JOIN ${last} l ON l.column1 = i * 3 % 10`),
    );
    const firstAccount = Number((await rawGet<{ m: number }>(tx, sql`SELECT min(id) AS m FROM whatsapps`))!.m);
    await rawRun(
      tx,
      sql.raw(`${seriesTo(sizes.jobs)}
       INSERT INTO generators (user_id, whatsapp_id, start_number, end_number, current_number, total, checked, count_success, count_fail, status)
       SELECT w.user_id, w.id, '6281' || ${padded(db, 'i * 1000', 9)}, '6281' || ${padded(db, 'i * 1000 + 999', 9)}, NULL, 1000, i % 1000, (i % 1000) / 2, (i % 1000) / 2,
              CASE WHEN i % 20 = 0 THEN 'sending' ELSE 'idle' END
       FROM s JOIN whatsapps w ON w.id = ${firstAccount} + (i * 31) % ${sizes.accounts}`),
    );
    await rawRun(
      tx,
      sql.raw(`${seriesTo(sizes.jobs)}
       INSERT INTO validators (user_id, whatsapp_id, file_name, file_url, total, checked, count_success, count_fail, status)
       SELECT w.user_id, w.id, 'daftar-' || i || '.csv', '/uploads/validators/v' || i || '.csv', 500, i % 500, (i % 500) / 2, (i % 500) / 2,
              CASE WHEN i % 20 = 0 THEN 'sending' ELSE 'idle' END
       FROM s JOIN whatsapps w ON w.id = ${firstAccount} + (i * 37) % ${sizes.accounts}`),
    );
  });
}

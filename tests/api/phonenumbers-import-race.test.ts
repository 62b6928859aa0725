import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { isPostgresUrl } from '../../server/src/db/postgres';
import { rawAll } from '../../server/src/db/raw';
import { importPhoneNumbers, SKIP_REASONS } from '../../server/src/phonenumbers/import';
import { startTestApp, type TestApp } from '../helpers';

/**
 * PostgreSQL: the import's final insert does without ON CONFLICT, since the numbers already listed were set
 * aside before it. A number someone else adds after that check (here: committed once the import starts
 * saving) makes the insert fail on the unique index; it is then done again with ON CONFLICT, and the
 * answer reports that number as already in the list, as when it was there first.
 */
const pgOnly = !isPostgresUrl(process.env.DATABASE_URL ?? '');
let t: TestApp;
beforeAll(async () => {
  if (!pgOnly) t = await startTestApp();
});
afterAll(() => t?.close());

describe.skipIf(pgOnly)('an import racing a number added by someone else', () => {
  it('adds the file once, and reports the number added meanwhile as already in the list', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-race-'));
    const file = path.join(dir, 'list.csv');
    const numbers = Array.from({ length: 3000 }, (_, i) => `62812${String(4000000 + i).padStart(7, '0')}`);
    fs.writeFileSync(file, `number,name\n${numbers.map((n, i) => `${n},Nama ${i}`).join('\n')}\n`);
    const raced = numbers[1234]!;
    // Added in a transaction of its own, not committed before the import has checked the list.
    const other = await (t.ctx.db as unknown as { $client: pg.Pool }).$client.connect();
    try {
      await other.query('BEGIN');
      await other.query("INSERT INTO phone_numbers (number, name) VALUES ($1, 'Lebih dulu')", [raced]);
      let committed: Promise<unknown> | null = null;
      const result = await importPhoneNumbers(t.ctx.db, file, 'csv', {
        skippedDir: dir,
        onProgress: (p) => {
          if (p.phase === 'saving' && !committed) committed = other.query('COMMIT');
        },
      });
      await committed;
      expect(result.createdCount).toBe(numbers.length - 1);
      expect(result.skippedCount).toBe(1);
      expect(result.skipped).toEqual([expect.objectContaining({ number: raced, reason: SKIP_REASONS.existing })]);
      const rows = await rawAll<{ number: string; name: string }>(t.ctx.db, sql`SELECT number, name FROM phone_numbers ORDER BY number`);
      expect(rows).toHaveLength(numbers.length);
      expect(rows.find((r) => r.number === raced)?.name).toBe('Lebih dulu');
    } finally {
      other.release();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { asc, eq } from 'drizzle-orm';
import { closeDb, createTestDb, openDb } from '../../server/src/db/client';
import { optOuts, phoneNumbers, settings } from '../../server/src/db/schema';
import { readStoredNumber, renormalizeStoredNumbers, reportLine } from '../../server/src/phonenumbers/renormalize';

/** Rows as the old rule ('8–15 digits, 08 → 628') stored them, marked pending as migration 0001 does. */
async function legacyDb(numbers: string[]) {
  const db = await createTestDb();
  await db.insert(phoneNumbers).values(numbers.map((number, i) => ({ number, name: `Kontak ${i}`, lineType: 'pending' })));
  return db;
}

const rowsOf = (db: Awaited<ReturnType<typeof legacyDb>>) =>
  db.select({ number: phoneNumbers.number, status: phoneNumbers.status, line_type: phoneNumbers.lineType }).from(phoneNumbers).orderBy(asc(phoneNumbers.id));

describe('re-normalising stored numbers', () => {
  it('rewrites, marks invalid and duplicate rows without deleting any, and reports the counts', async () => {
    const db = await legacyDb([
      '6281234567890', // already right
      '81234567891', // a spreadsheet's dropped zero, once stored as if 81 were Japan
      '447400123456', // a real UK mobile
      '12345678', // no number of any plan
      '81234567890', // becomes 6281234567890, which row 1 already holds
      '622155501234', // Jakarta landline
    ]);
    await db.insert(optOuts).values({ number: '81234567891', reason: 'Balasan STOP' });
    const report = await renormalizeStoredNumbers(db);
    expect(report).toEqual({ checked: 6, changed: 1, invalid: 1, duplicates: 1 });
    expect(reportLine(report)).toBe(
      'Nomor telepon dinormalisasi ulang dengan rencana penomoran: 6 diperiksa, 1 diubah, 1 ditandai tidak valid, 1 ditandai duplikat (tidak ada yang dihapus).',
    );
    const rows = await rowsOf(db);
    expect(rows.map((r) => [r.number, r.status, r.line_type])).toEqual([
      ['6281234567890', 'active', 'mobile'],
      ['6281234567891', 'active', 'mobile'],
      ['447400123456', 'active', 'mobile'],
      ['12345678', 'nonactive', 'invalid'],
      ['81234567890', 'nonactive', 'duplicate'],
      ['622155501234', 'active', 'fixed_line'],
    ]);
    // The opt-out follows its number.
    expect(await db.select({ number: optOuts.number }).from(optOuts)).toEqual([{ number: '6281234567891' }]);
    // A second run finds nothing left to do.
    expect(await renormalizeStoredNumbers(db)).toEqual({ checked: 0, changed: 0, invalid: 0, duplicates: 0 });
    await closeDb(db);
  });

  it('uses the default country setting for numbers without a country code', async () => {
    const db = await legacyDb(['123456789']);
    await db.update(settings).set({ defaultCountry: 'MY' }).where(eq(settings.id, 1));
    expect(await renormalizeStoredNumbers(db)).toMatchObject({ changed: 1 });
    expect((await rowsOf(db)).map(({ number, line_type }) => ({ number, line_type }))).toEqual([{ number: '60123456789', line_type: 'mobile' }]);
    await closeDb(db);
  });

  it('reads a stored number: international when it starts with the default code or only that is valid, the mobile reading when both are', () => {
    expect(readStoredNumber('6281234567890', 'ID')).toEqual({ ok: true, number: '6281234567890', lineType: 'mobile' });
    expect(readStoredNumber('81234567890', 'ID')).toEqual({ ok: true, number: '6281234567890', lineType: 'mobile' });
    expect(readStoredNumber('447400123456', 'ID')).toEqual({ ok: true, number: '447400123456', lineType: 'mobile' });
    expect(readStoredNumber('12345678', 'ID')).toBeNull();
  });
});

describe('migration 0001', () => {
  it('marks the rows stored before it as pending, so the start-up pass re-reads exactly those', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renorm-'));
    try {
      // A database at migration 0000, with a number stored by the old rule.
      const first = path.join(dir, 'drizzle');
      fs.mkdirSync(path.join(first, 'meta'), { recursive: true });
      fs.copyFileSync('drizzle/0000_init.sql', path.join(first, '0000_init.sql'));
      const journal = JSON.parse(fs.readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: Array<{ tag: string }> };
      fs.writeFileSync(path.join(first, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.tag === '0000_init') }));
      const file = path.join(dir, 'blast.db');
      const old = new Database(file);
      migrate(drizzle(old), { migrationsFolder: first });
      old.prepare("INSERT INTO phone_numbers (number, name) VALUES ('81234567890', 'Lama')").run();
      old.close();

      const db = openDb(file);
      db.$client.prepare("INSERT INTO phone_numbers (number, name) VALUES ('6281300000001', 'Baru')").run();
      expect(db.$client.prepare('SELECT number, line_type FROM phone_numbers ORDER BY id').all()).toEqual([
        { number: '81234567890', line_type: 'pending' },
        { number: '6281300000001', line_type: null },
      ]);
      expect(db.$client.prepare('SELECT default_country FROM settings').get()).toEqual({ default_country: 'ID' });
      expect(await renormalizeStoredNumbers(db)).toEqual({ checked: 1, changed: 1, invalid: 0, duplicates: 0 });
      await closeDb(db);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { closeDb, openDb } from '../../server/src/db/client';

interface Entry {
  tag: string;
  when: number;
}
interface Released extends Entry {
  sha256: string;
}

const DIALECTS = { sqlite: 'drizzle', pg: 'drizzle/pg' } as const;
const journal = (dir: string): { entries: Entry[] } => JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8'));
const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file, 'utf8')).digest('hex');

/** Tables, indexes and triggers with their SQL: what a database's schema is made of. */
const schemaOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
  } finally {
    db.close();
  }
};

describe('migrations of an installed database', () => {
  // Drizzle's migrator runs every migration whose journal time is later than the last one a database
  // recorded, and nothing else: a released migration edited afterwards is either never applied to the
  // databases that ran it, or run again on them (an edit that also moved its time: "duplicate column").
  // tests/migrations-released.json pins each released migration's text and time.
  for (const [dialect, dir] of Object.entries(DIALECTS)) {
    it(`${dialect}: every migration keeps the text and time it was released with, and times only grow`, () => {
      const released = (JSON.parse(fs.readFileSync('tests/migrations-released.json', 'utf8')) as Record<string, Released[]>)[dialect]!;
      const entries = journal(dir).entries;
      const now = entries.map((e) => ({ tag: e.tag, when: e.when, sha256: sha256(path.join(dir, `${e.tag}.sql`)) }));
      // A new migration is added to the list once written; a released one is never changed: add another.
      expect(now, `${dir} differs from tests/migrations-released.json`).toEqual(released);
      for (let i = 1; i < entries.length; i += 1) expect(entries[i]!.when).toBeGreaterThan(entries[i - 1]!.when);
    });
  }

  it('sqlite: a database left at any earlier migration upgrades to the schema of a new install', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-'));
    try {
      const fresh = path.join(tmp, 'fresh.db');
      await closeDb(openDb(fresh));
      const want = schemaOf(fresh);
      const { entries, ...rest } = journal('drizzle');
      for (let n = 1; n < entries.length; n += 1) {
        // The migrations folder as an install at entry n-1 had it.
        const folder = path.join(tmp, `at-${n}`);
        fs.mkdirSync(path.join(folder, 'meta'), { recursive: true });
        for (const e of entries.slice(0, n)) fs.copyFileSync(path.join('drizzle', `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
        fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...rest, entries: entries.slice(0, n) }));
        const file = path.join(tmp, `at-${n}.db`);
        const old = new Database(file);
        migrate(drizzle(old), { migrationsFolder: folder });
        old.close();

        const db = openDb(file);
        expect(db.$client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get(), `from ${entries[n - 1]!.tag}`).toEqual({ n: entries.length });
        await closeDb(db);
        expect(schemaOf(file), `from ${entries[n - 1]!.tag}`).toEqual(want);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

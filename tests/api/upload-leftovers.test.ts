import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb } from '../../server/src/db/client';
import { createContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { dialectOf } from '../../server/src/db/raw';
import { removeOldSkippedFiles, SKIPPED_FILE_TTL_MS } from '../../server/src/phonenumbers/skipped';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-leftovers-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A file written `agoMs` ago. */
function file(rel: string, agoMs: number): string {
  const full = path.join(dataDir, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, 'name,number\nAni,081234567801\n');
  const at = new Date(Date.now() - agoMs);
  fs.utimesSync(full, at, at);
  return full;
}

describe('import files a stopped process left behind', () => {
  it('are all removed at the start of a single SQLite node, whatever their age; on PostgreSQL once an hour old; template media stay', async () => {
    // An import cut by a SIGTERM's timeout (or a crash) ends the process before its file is removed.
    const cut = file('tmp/imports/1795740000000-aaaaaaaaaaaaaaaaaaaaaaaa.upload', 2 * 60 * 60 * 1000);
    const recent = file('tmp/imports/1795747000000-bbbbbbbbbbbbbbbbbbbbbbbb.upload', 60 * 1000);
    const media = file('uploads/1795740000000-cccccccccccccccccccccccc.png', 2 * 60 * 60 * 1000);
    const db = await createTestDb();
    const ctx = createContext(testConfig({ dataDir }), db, () => undefined);
    const { close } = createServer(ctx);
    try {
      expect(fs.existsSync(cut)).toBe(false);
      // SQLite: one node owns DATA_DIR, so a file of a minute ago is a leftover too. PostgreSQL: nodes may share
      // the folder, and another node's import of a minute ago may still be running.
      expect(fs.existsSync(recent)).toBe(dialectOf(db) === 'postgres');
      expect(fs.existsSync(media)).toBe(true);
    } finally {
      await close();
      await closeDb(db);
    }
  });
});

describe('skipped-list files', () => {
  it('are removed once older than their time to live; newer ones stay', () => {
    const old = file('tmp/skipped/aaaa.csv', SKIPPED_FILE_TTL_MS + 60_000);
    const fresh = file('tmp/skipped/bbbb.csv', 60_000);
    removeOldSkippedFiles(path.join(dataDir, 'tmp/skipped'));
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    // A folder not made yet is no error.
    expect(() => removeOldSkippedFiles(path.join(dataDir, 'tmp/none'))).not.toThrow();
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import { embeddedText, isEmbedded } from '../lib/embedded';
import { fromRoot } from '../lib/paths';

/**
 * The migrations of each store, read from drizzle/ (SQLite) and drizzle/pg/ (PostgreSQL), or from the single
 * executable's assets of the same names, and applied through Drizzle's own migrator (the same journal, hashes
 * and `__drizzle_migrations` table as `migrate()` from a folder). Each call says which migrations it applied,
 * for the start's log and `blast-console migrate`.
 */
export type MigrationDialect = 'sqlite' | 'pg';

interface MigrationMeta {
  sql: string[];
  bps: boolean;
  folderMillis: number;
  hash: string;
}

export interface Migration extends MigrationMeta {
  tag: string;
}

const FOLDER: Record<MigrationDialect, string> = { sqlite: 'drizzle', pg: 'drizzle/pg' };

/** A file of a migration folder, e.g. `drizzle/pg/meta/_journal.json`: on disk, or embedded under that key. */
function readMigrationFile(rel: string): string {
  return isEmbedded() ? embeddedText(rel) : fs.readFileSync(fromRoot(...rel.split('/')), 'utf8');
}

/** The journal's migrations in order, as Drizzle's readMigrationFiles makes them (the hash is of the file). */
export function readMigrations(dialect: MigrationDialect): Migration[] {
  const folder = FOLDER[dialect];
  const journal = JSON.parse(readMigrationFile(`${folder}/meta/_journal.json`)) as { entries: { tag: string; when: number; breakpoints: boolean }[] };
  return journal.entries.map((e) => {
    const text = readMigrationFile(`${folder}/${e.tag}.sql`);
    return {
      tag: e.tag,
      sql: text.split('--> statement-breakpoint'),
      bps: e.breakpoints,
      folderMillis: e.when,
      hash: crypto.createHash('sha256').update(text).digest('hex'),
    };
  });
}

/** Drizzle applies every migration newer than the newest one recorded: the same rule, to name them first. */
export function pendingAfter(migrations: Migration[], lastAppliedMillis: number | null): string[] {
  return migrations.filter((m) => lastAppliedMillis === null || lastAppliedMillis < m.folderMillis).map((m) => m.tag);
}

/** The part of a Drizzle database the migrator uses (the same call drizzle-orm's migrate() makes). */
interface Migratable {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: { migrationsFolder: string; migrationsSchema?: string }): unknown };
  session: unknown;
}

export async function applyMigrations(db: object, dialect: MigrationDialect, lastAppliedMillis: number | null, migrationsSchema?: string): Promise<string[]> {
  const migrations = readMigrations(dialect);
  const pending = pendingAfter(migrations, lastAppliedMillis);
  const d = db as Migratable;
  await d.dialect.migrate(migrations, d.session, { migrationsFolder: FOLDER[dialect], ...(migrationsSchema ? { migrationsSchema } : {}) });
  return pending;
}

/** SQLite's migrator is synchronous (openDb is): the same as applyMigrations, without awaiting. */
export function applyMigrationsSync(db: object, lastAppliedMillis: number | null): string[] {
  const migrations = readMigrations('sqlite');
  const pending = pendingAfter(migrations, lastAppliedMillis);
  const d = db as Migratable;
  d.dialect.migrate(migrations, d.session, { migrationsFolder: FOLDER.sqlite });
  return pending;
}

const applied = new WeakMap<object, string[]>();

/** The migrations the opening of this handle applied (empty when the database was up to date). */
export const appliedWhenOpened = (db: object): string[] => applied.get(db) ?? [];
export const recordApplied = (db: object, tags: string[]): void => void applied.set(db, tags);

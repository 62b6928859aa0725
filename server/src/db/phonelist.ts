import type { Db } from './client';
import { isPostgres } from './postgres';
import * as sqliteList from './sqlite/phonenumbers';
import * as sqliteSearch from './sqlite/search';
import * as pgList from './pg/phonenumbers';
import * as pgSearch from './pg/search';
import * as sqliteImport from './sqlite/import';
import * as pgImport from './pg/import';

/**
 * The phone-number list's dialect code (figures, deep pages, search), chosen by the handle: the areas
 * call these and never the SQLite or PostgreSQL modules themselves.
 */
export type { PhoneListFigures } from './sqlite/phonenumbers';
export const SLOT_MS = sqliteList.SLOT_MS;

const list = (db: Db) => (isPostgres(db) ? pgList : sqliteList);
const search = (db: Db) => (isPostgres(db) ? pgSearch : sqliteSearch);

export const phoneListFigures = (db: Db) => list(db).phoneListFigures(db);
export const activeSentAfter = (db: Db, cutoff: number) => list(db).activeSentAfter(db, cutoff);
export const foldNewRows = (db: Db) => list(db).foldNewRows(db);
export const listPageIds = (db: Db, offset: number, limit: number) => list(db).listPageIds(db, offset, limit);
export const typePageIds = (db: Db, lineType: string, offset: number, limit: number) => list(db).typePageIds(db, lineType, offset, limit);
export const storeOpen = (db: Db) => list(db).storeOpen(db);
export const ensurePhoneSearch = (db: Db) => search(db).ensurePhoneSearch(db);
export const indexAll = (db: Db) => search(db).indexAll(db);
export const scheduleIndexing = (db: Db, log?: (msg: string, err?: unknown) => void) => search(db).scheduleIndexing(db, log);
export const searchPhoneIds = (db: Db, text: string, cap: number, log?: (msg: string, err?: unknown) => void) => search(db).searchPhoneIds(db, text, cap, log);

/** File imports: on SQLite through the import worker, on PostgreSQL through a staging table of a pooled connection. */
export async function importPhoneFile(
  db: Db,
  file: string,
  kind: 'csv' | 'json',
  options: sqliteImport.ImportOptions,
): ReturnType<typeof sqliteImport.importPhoneFile> {
  if (isPostgres(db)) return pgImport.importPhoneFile(db, file, kind, options);
  return sqliteImport.importPhoneFile(db, file, kind, options);
}
export type { ImportOptions } from './sqlite/import';

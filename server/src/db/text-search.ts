import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { activeDialect } from './dialect';
import { likeInsensitive } from './raw';
import { likePattern } from '../lib/paging';
import { users, whatsapps } from './schema';

/**
 * "Contains" searches of the member and WhatsApp-account lists through a trigram index. Each list's
 * searched text is one expression: on PostgreSQL the expression of its GIN trigram index
 * (drizzle/pg/0001), on SQLite the text of its FTS5 trigram table (drizzle/0009), where a search of 3+
 * characters is a phrase match (the same rows as a case-insensitive LIKE '%text%'). Shorter texts
 * cannot use trigrams and scan the columns.
 */
export interface SearchedList {
  /** The row id column. */
  id: SQLWrapper;
  /** SQLite: the FTS5 table holding the searched text by rowid. */
  fts: 'users_search' | 'whatsapps_search';
  /** PostgreSQL: the indexed expression, exactly as the index declares it. */
  expression: SQL;
  /** The columns a short text is looked for in. */
  columns: SQLWrapper[];
}

export function textSearch(list: SearchedList, text: string): SQL {
  if (activeDialect() === 'postgres') return sql`(${list.expression}) ILIKE ${likePattern(text)} ESCAPE '\\'`;
  if ([...text].length >= 3) {
    const phrase = `"${text.replace(/"/g, '""')}"`;
    return sql`${list.id} IN (SELECT rowid FROM ${sql.raw(list.fts)} WHERE ${sql.raw(list.fts)} MATCH ${phrase})`;
  }
  const pattern = likePattern(text);
  return sql`(${sql.join(
    list.columns.map((c) => likeInsensitive(c, pattern)),
    sql` OR `,
  )})`;
}

/** The members list's searched text: name and email. */
export const memberSearch: SearchedList = {
  id: users.id,
  fts: 'users_search',
  expression: sql`${users.firstname} || ' ' || ${users.lastname} || ' ' || ${users.email}`,
  columns: [users.firstname, users.lastname, users.email, sql`${users.firstname} || ' ' || ${users.lastname}`],
};

/** The account list's searched text: push name, number and client id. */
export const accountSearch: SearchedList = {
  id: whatsapps.id,
  fts: 'whatsapps_search',
  expression: sql`coalesce(${whatsapps.pushname}, '') || ' ' || coalesce(${whatsapps.phonenumber}, '') || ' ' || ${whatsapps.clientid}`,
  columns: [whatsapps.pushname, whatsapps.phonenumber, whatsapps.clientid],
};

import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import { decimal } from './ids';

export const PAGE_SIZE = 10;

export interface PageMeta {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface Paged<T> {
  data: T[];
  meta: PageMeta;
}

/** `?page` from 1; anything unparsable or below 1 counts as page 1. */
export const pageParam = z
  .union([z.string(), z.number(), z.undefined(), z.array(z.string())])
  .transform((v) => {
    const n = decimal(Array.isArray(v) ? v[0] : v);
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? Math.min(n, 1_000_000) : 1;
  });

/** A query-string value as a trimmed string ('' when absent). */
export const textParam = z
  .union([z.string(), z.undefined(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim().slice(0, 200));

export function pageWindow(page: number, pageSize = PAGE_SIZE): { limit: number; offset: number } {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

export function paged<T>(data: T[], total: number, page: number, pageSize = PAGE_SIZE): Paged<T> {
  return { data, meta: { page, pageSize, total, totalPages: Math.max(1, Math.ceil(total / pageSize)) } };
}

/** Escapes % and _ for a LIKE pattern used with ESCAPE '\'. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column LIKE %text%` where % and _ in the text match only themselves. */
export function likeEscaped(column: SQLWrapper, text: string): SQL {
  return sql`${column} LIKE ${likePattern(text)} ESCAPE '\\'`;
}

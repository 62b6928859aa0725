import type { Writable } from 'node:stream';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { streamRows } from '../lib/csv';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { readImportRows } from '../lib/rows';
import { maskProxy, parseProxy, unmaskProxy, INVALID_PROXY } from './value';

interface ProxyRaw {
  id: number;
  value: string;
  status: string;
  count_use: number;
}

export interface ProxyView {
  id: number;
  /** The value with any password masked. */
  value: string;
  status: string;
  count_use: number;
}

const view = (r: ProxyRaw): ProxyView => ({ id: r.id, value: maskProxy(r.value), status: r.status, count_use: r.count_use });

const required = (msg: string) =>
  z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string({ message: msg }).trim().min(1, msg).max(500, 'Maksimal 500 karakter.'));
export const PROXY_REQUIRED = 'Proxy wajib diisi.';
export const ProxySave = z.object({ value: required(PROXY_REQUIRED) });
export const ProxyUpdate = ProxySave.extend({ status: z.enum(['active', 'nonactive'], { message: 'Status harus active atau nonactive.' }) });

function rawById(db: Db, id: number): ProxyRaw {
  const raw = db.$client.prepare('SELECT id, value, status, count_use FROM proxies WHERE id = ?').get(id) as ProxyRaw | undefined;
  if (!raw) throw new HttpError(404, 'Proxy not found');
  return raw;
}

function validValue(input: string): string {
  const r = parseProxy(input);
  if (!r.ok) throw new HttpError(422, r.message, { errors: { value: r.message } });
  return r.value;
}

function assertFree(db: Db, value: string, exceptId: number | null): void {
  if (db.$client.prepare('SELECT 1 AS x FROM proxies WHERE value = ? AND id IS NOT ?').get(value, exceptId)) {
    const msg = 'Proxy sudah ada di daftar.';
    throw new HttpError(409, msg, { errors: { value: msg } });
  }
}

export function proxiesPerPage(ctx: AppContext, page: number) {
  const c = ctx.db.$client;
  const total = (c.prepare('SELECT count(*) AS n FROM proxies').get() as { n: number }).n;
  const { limit, offset } = pageWindow(page);
  const rows = c.prepare('SELECT id, value, status, count_use FROM proxies ORDER BY id LIMIT ? OFFSET ?').all(limit, offset) as ProxyRaw[];
  return paged(rows.map(view), total, page);
}

export function proxyList(ctx: AppContext) {
  const rows = ctx.db.$client.prepare('SELECT id, value, status, count_use FROM proxies ORDER BY id').all() as ProxyRaw[];
  return { list: rows.map(view) };
}

export function proxyById(ctx: AppContext, id: number) {
  return { proxy: view(rawById(ctx.db, id)) };
}

export function saveProxy(ctx: AppContext, input: z.infer<typeof ProxySave>) {
  const value = validValue(input.value);
  const c = ctx.db.$client;
  const id = c.transaction(() => {
    assertFree(ctx.db, value, null);
    return Number(c.prepare('INSERT INTO proxies (value) VALUES (?)').run(value).lastInsertRowid);
  })();
  return { ...proxyById(ctx, id), msg: 'Proxy berhasil disimpan.' };
}

export function updateProxy(ctx: AppContext, id: number, input: z.infer<typeof ProxyUpdate>) {
  const c = ctx.db.$client;
  c.transaction(() => {
    const stored = rawById(ctx.db, id);
    const value = validValue(unmaskProxy(input.value, stored.value));
    assertFree(ctx.db, value, id);
    c.prepare('UPDATE proxies SET value = ?, status = ? WHERE id = ?').run(value, input.status, id);
  })();
  return { ...proxyById(ctx, id), msg: 'Proxy berhasil diperbarui.' };
}

export function deleteProxy(ctx: AppContext, id: number) {
  const { changes } = ctx.db.$client.prepare('DELETE FROM proxies WHERE id = ?').run(id);
  if (!changes) throw new HttpError(404, 'Proxy not found');
  return { id, msg: 'Proxy berhasil dihapus.' };
}

/** Proxies used by at least one account so far (count_use > 0) and the others. */
export function proxyCountUse(ctx: AppContext) {
  const row = ctx.db.$client.prepare('SELECT count(*) AS total, coalesce(sum(count_use > 0), 0) AS used FROM proxies').get() as { total: number; used: number };
  return { unUsed: row.total - row.used, used: row.used };
}

export function proxyCount(ctx: AppContext): number {
  return (ctx.db.$client.prepare('SELECT count(*) AS n FROM proxies').get() as { n: number }).n;
}

/** proxies.csv / proxies.json: value and status, in full (an admin's backup that re-imports as is). */
export async function exportProxies(ctx: AppContext, out: Writable, format: 'csv' | 'json'): Promise<void> {
  const page = ctx.db.$client.prepare('SELECT id, value, status, count_use FROM proxies WHERE id > ? ORDER BY id LIMIT 5000');
  await streamRows<ProxyRaw>(
    out,
    format,
    { header: ['value', 'status'], cells: (r) => [r.value, r.status], json: (r) => ({ value: r.value, status: r.status }) },
    (after) => {
      const rows = page.all(after) as ProxyRaw[];
      return rows.length ? { rows, lastKey: rows[rows.length - 1]!.id } : null;
    },
  );
}

export interface SkippedProxy {
  id: number | null;
  value: string;
  name: string;
  status: string;
  reason: string;
}

export const PROXY_SKIP = { existing: 'already in the list', repeated: 'repeated in the file', invalid: INVALID_PROXY } as const;
export const PROXY_IMPORT_MAX_ROWS = 100_000;

/** Imports a proxy file in one transaction: all valid new values, or nothing when it fails. */
export async function importProxies(ctx: AppContext, file: string, kind: 'csv' | 'json') {
  const rows: Array<{ value: string; status: string }> = [];
  for await (const batch of readImportRows(file, kind, { columns: ['value', 'status'], aliases: { proxy: 'value', proxies: 'value' } })) {
    for (const r of batch) rows.push({ value: r.value ?? '', status: r.status === 'nonactive' ? 'nonactive' : 'active' });
    if (rows.length > PROXY_IMPORT_MAX_ROWS) throw new HttpError(413, `Maksimal ${PROXY_IMPORT_MAX_ROWS.toLocaleString('id-ID')} proxy per file.`);
  }
  const c = ctx.db.$client;
  const existing = c.prepare('SELECT id, status FROM proxies WHERE value = ?');
  const insert = c.prepare('INSERT INTO proxies (value, status) VALUES (?, ?)');
  return c.transaction(() => {
    const created: ProxyView[] = [];
    const skipped: SkippedProxy[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      const parsed = parseProxy(row.value);
      if (!parsed.ok) {
        skipped.push({ id: null, value: maskProxy(row.value.slice(0, 500)), name: '', status: row.status, reason: PROXY_SKIP.invalid });
        continue;
      }
      if (seen.has(parsed.value)) {
        skipped.push({ id: null, value: maskProxy(parsed.value), name: '', status: row.status, reason: PROXY_SKIP.repeated });
        continue;
      }
      seen.add(parsed.value);
      const found = existing.get(parsed.value) as { id: number; status: string } | undefined;
      if (found) skipped.push({ id: found.id, value: maskProxy(parsed.value), name: '', status: found.status, reason: PROXY_SKIP.existing });
      else {
        const id = Number(insert.run(parsed.value, row.status).lastInsertRowid);
        created.push({ id, value: maskProxy(parsed.value), status: row.status, count_use: 0 });
      }
    }
    return { created, skipped };
  })();
}

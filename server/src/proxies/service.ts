import type { Writable } from 'node:stream';
import { and, asc, count, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context';
import { transaction, type Db } from '../db/client';
import { proxies } from '../db/schema';
import { changes, one } from '../db/raw';
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

const COLUMNS = { id: proxies.id, value: proxies.value, status: proxies.status, count_use: proxies.countUse };

async function rawById(db: Db, id: number): Promise<ProxyRaw> {
  const raw = await one(db.select(COLUMNS).from(proxies).where(eq(proxies.id, id)).limit(1));
  if (!raw) throw new HttpError(404, 'Proxy not found');
  return raw;
}

function validValue(input: string): string {
  const r = parseProxy(input);
  if (!r.ok) throw new HttpError(422, r.message, { errors: { value: r.message } });
  return r.value;
}

async function assertFree(db: Db, value: string, exceptId: number | null): Promise<void> {
  const same = eq(proxies.value, value);
  const other = await one(
    db
      .select({ id: proxies.id })
      .from(proxies)
      .where(exceptId === null ? same : and(same, ne(proxies.id, exceptId)))
      .limit(1),
  );
  if (other) {
    const msg = 'Proxy sudah ada di daftar.';
    throw new HttpError(409, msg, { errors: { value: msg } });
  }
}

export async function proxiesPerPage(ctx: AppContext, page: number) {
  const total = await proxyCount(ctx);
  const { limit, offset } = pageWindow(page);
  const rows = await ctx.db.select(COLUMNS).from(proxies).orderBy(asc(proxies.id)).limit(limit).offset(offset);
  return paged(rows.map(view), total, page);
}

export async function proxyList(ctx: AppContext) {
  const rows = await ctx.db.select(COLUMNS).from(proxies).orderBy(asc(proxies.id));
  return { list: rows.map(view) };
}

export async function proxyById(ctx: AppContext, id: number) {
  return { proxy: view(await rawById(ctx.db, id)) };
}

export async function saveProxy(ctx: AppContext, input: z.infer<typeof ProxySave>) {
  const value = validValue(input.value);
  const id = await transaction(ctx.db, async (tx) => {
    await assertFree(tx, value, null);
    const [row] = await tx.insert(proxies).values({ value }).returning({ id: proxies.id });
    return row!.id;
  });
  return { ...(await proxyById(ctx, id)), msg: 'Proxy berhasil disimpan.' };
}

export async function updateProxy(ctx: AppContext, id: number, input: z.infer<typeof ProxyUpdate>) {
  await transaction(ctx.db, async (tx) => {
    const stored = await rawById(tx, id);
    const value = validValue(unmaskProxy(input.value, stored.value));
    await assertFree(tx, value, id);
    await tx.update(proxies).set({ value, status: input.status }).where(eq(proxies.id, id));
  });
  return { ...(await proxyById(ctx, id)), msg: 'Proxy berhasil diperbarui.' };
}

export async function deleteProxy(ctx: AppContext, id: number) {
  if (!changes(await ctx.db.delete(proxies).where(eq(proxies.id, id)))) throw new HttpError(404, 'Proxy not found');
  return { id, msg: 'Proxy berhasil dihapus.' };
}

/** Proxies used by at least one account so far (count_use > 0) and the others. */
export async function proxyCountUse(ctx: AppContext) {
  const row = await one(
    ctx.db.select({ total: count(), used: sql<number>`coalesce(sum(case when ${proxies.countUse} > 0 then 1 else 0 end), 0)` }).from(proxies),
  );
  const used = Number(row?.used ?? 0);
  return { unUsed: Number(row?.total ?? 0) - used, used };
}

export async function proxyCount(ctx: AppContext): Promise<number> {
  return Number((await one(ctx.db.select({ n: count() }).from(proxies)))?.n ?? 0);
}

/** proxies.csv / proxies.json: value and status, in full (an admin's backup that re-imports as is). */
export async function exportProxies(ctx: AppContext, out: Writable, format: 'csv' | 'json'): Promise<void> {
  await streamRows<ProxyRaw>(
    out,
    format,
    { header: ['value', 'status'], cells: (r) => [r.value, r.status], json: (r) => ({ value: r.value, status: r.status }) },
    async (after) => {
      const rows = await ctx.db.select(COLUMNS).from(proxies).where(gt(proxies.id, after)).orderBy(asc(proxies.id)).limit(5000);
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
  const read = rows.map((row) => ({ row, parsed: parseProxy(row.value) }));
  const values = [...new Set(read.flatMap(({ parsed }) => (parsed.ok ? [parsed.value] : [])))];
  return transaction(ctx.db, async (tx) => {
    const created: ProxyView[] = [];
    const skipped: SkippedProxy[] = [];
    const seen = new Set<string>();
    // Values already in the list, looked up a chunk at a time.
    const existing = new Map<string, { id: number; status: string }>();
    for (let i = 0; i < values.length; i += 500) {
      const found = await tx
        .select({ id: proxies.id, value: proxies.value, status: proxies.status })
        .from(proxies)
        .where(inArray(proxies.value, values.slice(i, i + 500)));
      for (const f of found) existing.set(f.value, { id: f.id, status: f.status });
    }
    for (const { row, parsed } of read) {
      if (!parsed.ok) {
        skipped.push({ id: null, value: maskProxy(row.value.slice(0, 500)), name: '', status: row.status, reason: PROXY_SKIP.invalid });
        continue;
      }
      if (seen.has(parsed.value)) {
        skipped.push({ id: null, value: maskProxy(parsed.value), name: '', status: row.status, reason: PROXY_SKIP.repeated });
        continue;
      }
      seen.add(parsed.value);
      const found = existing.get(parsed.value);
      if (found) skipped.push({ id: found.id, value: maskProxy(parsed.value), name: '', status: found.status, reason: PROXY_SKIP.existing });
      else {
        // Another import may add the same value meanwhile (on PostgreSQL its transaction runs alongside):
        // then the value is reported as already in the list instead of failing the whole file.
        const [inserted] = await tx
          .insert(proxies)
          .values({ value: parsed.value, status: row.status })
          .onConflictDoNothing({ target: proxies.value })
          .returning({ id: proxies.id });
        if (inserted) created.push({ id: inserted.id, value: maskProxy(parsed.value), status: row.status, count_use: 0 });
        else {
          const other = await one(tx.select({ id: proxies.id, status: proxies.status }).from(proxies).where(eq(proxies.value, parsed.value)).limit(1));
          skipped.push({ id: other?.id ?? null, value: maskProxy(parsed.value), name: '', status: other?.status ?? '', reason: PROXY_SKIP.existing });
        }
      }
    }
    return { created, skipped };
  });
}

import type { BaseRecord, CrudFilter, DataProvider, MetaQuery } from '@refinedev/core';
import { ApiError, api, query, type RequestOptions } from '../lib/http';
import { answered, keyFor, MONEY_CALLS } from '../lib/requestKeys';

/** The transport the provider calls; tests pass their own. */
export type Http = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** Where each resource's calls live, when they differ from `/admin/{resource}/…`. */
interface ResourcePaths {
  base: string;
  list?: string;
  create?: string;
  /** The key the single-record answer wraps its record in (`{ phoneNumber: … }`). */
  one?: string;
  /** The key the list answer carries its rows in, when it is not `data` (`{ list: … }`). */
  rows?: string;
  /** Keys of a create or update answer, beside the record, that the screen reads on the saved record too. */
  carry?: string[];
  /** A record without ids (the global settings): read and saved at fixed paths, whatever id a page names. */
  single?: { get: string; update: string };
}

const RESOURCES: Record<string, ResourcePaths> = {
  phonenumber: { base: '/admin/phonenumber', create: '/admin/phonenumber/save', one: 'phoneNumber' },
  /** The suppression list: `list-per-page` and `save` (add by hand) under the phone-number area. */
  optout: { base: '/admin/phonenumber/optout', one: 'optOut' },
  proxy: { base: '/admin/proxy', create: '/admin/proxy/save', one: 'proxy' },
  // A save answers what Meta said about the template's WhatsApp mapping beside the record.
  message: { base: '/admin/message', create: '/admin/message/create', one: 'message', carry: ['waTemplateCheck'] },
  level: { base: '/admin/level', create: '/admin/level/create', one: 'level' },
  bonus: { base: '/admin/bonus', create: '/admin/bonus/create', one: 'bonus' },
  member: { base: '/admin/users', list: '/admin/users/members-per-page', one: 'user' },
  user: { base: '/admin/users', one: 'user' },
  /** The signed-in user's own record: a save answers `{ user, token? }` whole (a new password brings a token). */
  profile: { base: '/admin/users' },
  referral: { base: '/admin/users', list: '/admin/users/referral-per-page', rows: 'list' },
  whatsapp: { base: '/admin/whatsapp', create: '/admin/whatsapp/save', one: 'whatsapp' },
  generator: { base: '/admin/generator', create: '/admin/generator/create', one: 'generator' },
  validator: { base: '/admin/validator', create: '/admin/validator/create', one: 'validator' },
  withdraw: { base: '/admin/withdraw', list: '/admin/withdraw/histories-per-page', create: '/admin/withdraw/request' },
  audit: { base: '/admin/audit', list: '/admin/audit' },
  settings: { base: '/admin/setting', one: 'setting', single: { get: '/admin/setting/get', update: '/admin/setting/update' } },
};

function paths(resource: string) {
  const r = RESOURCES[resource] ?? { base: `/admin/${resource}` };
  return { base: r.base, list: r.list ?? `${r.base}/list-per-page`, create: r.create ?? `${r.base}/save`, one: r.one, rows: r.rows ?? 'data', single: r.single, carry: r.carry ?? [] };
}

const NETWORK = 'Network error. Please try again.';

/**
 * The message shown when the server answers without one: a screen passes the spec's text as
 * `meta.fallback` ('Error fetching Proxy list'); writes default to the network message.
 */
function fallbackOf(meta: MetaQuery | undefined, otherwise?: string): string | undefined {
  return typeof meta?.fallback === 'string' ? meta.fallback : otherwise;
}

/** Simple equality filters become query parameters (`user_id`, `search`, `s`…). */
function filterParams(filters: CrudFilter[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of filters ?? []) {
    if ('field' in f && f.value !== undefined && f.value !== null && f.value !== '') out[f.field] = String(f.value);
  }
  return out;
}

function unwrap<T>(body: unknown, key: string | undefined): T {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (key && key in b) return b[key] as T;
    if ('data' in b) return b.data as T;
  }
  return body as T;
}

/** A saved record with the answer's `carry` keys added to it. */
function saved<T>(body: unknown, key: string | undefined, carry: string[]): T {
  const record = unwrap<T>(body, key);
  if (!carry.length || !record || typeof record !== 'object' || !body || typeof body !== 'object') return record;
  const b = body as Record<string, unknown>;
  return { ...record, ...Object.fromEntries(carry.filter((k) => k in b).map((k) => [k, b[k]])) };
}

const idPath = (base: string, id: string | number) => `${base}/${encodeURIComponent(String(id))}`;

export function createDataProvider(http: Http = api): DataProvider {
  /** A write; money calls go with their Idempotency-Key, kept for a retry until the server answers. */
  const write = async <T>(path: string, options: RequestOptions): Promise<T> => {
    if (!MONEY_CALLS.has(path)) return http<T>(path, options);
    const key = keyFor(path, options.body);
    try {
      const body = await http<T>(path, { ...options, headers: { ...options.headers, 'Idempotency-Key': key } });
      answered(path);
      return body;
    } catch (err) {
      // Only a refusal (4xx) is the server's own answer. No answer (status 0), a proxy's 502/503/504 or a
      // broken body may hide a request the server made: the same request reuses the key.
      if (err instanceof ApiError && err.statusCode >= 400 && err.statusCode < 500) answered(path);
      throw err;
    }
  };
  return {
    getApiUrl: () => '/api',

    /**
     * `{ data, meta: { total, totalPages } }` (or the rows under the resource's key). Whatever else the
     * answer carries (the referral list's rupiah `total`) comes back under `extra`.
     */
    getList: async <T extends BaseRecord>({ resource, pagination, filters, meta }: Parameters<DataProvider['getList']>[0]) => {
      const p = paths(resource);
      const page = pagination?.currentPage ?? 1;
      const body = await http<Record<string, unknown> | undefined>(`${p.list}${query({ page, ...filterParams(filters) })}`, {
        fallback: fallbackOf(meta),
      });
      const { [p.rows]: rows, meta: m, ...extra } = body ?? {};
      const data = Array.isArray(rows) ? (rows as T[]) : [];
      const info = (m ?? {}) as { total?: number; totalPages?: number };
      return { data, total: info.total ?? data.length, totalPages: info.totalPages ?? 1, extra };
    },

    getOne: async <T extends BaseRecord>({ resource, id, meta }: Parameters<DataProvider['getOne']>[0]) => {
      const p = paths(resource);
      return { data: unwrap<T>(await http(p.single?.get ?? idPath(p.base, id), { fallback: fallbackOf(meta) }), p.one) };
    },

    create: async <T extends BaseRecord, V>({ resource, variables, meta }: { resource: string; variables: V; meta?: MetaQuery }) => {
      const p = paths(resource);
      const body = await write(p.create, { method: 'POST', body: variables, fallback: fallbackOf(meta, NETWORK) });
      return { data: saved<T>(body, p.one, p.carry) };
    },

    update: async <T extends BaseRecord, V>({ resource, id, variables, meta }: { resource: string; id: string | number; variables: V; meta?: MetaQuery }) => {
      const p = paths(resource);
      const body = await http(p.single?.update ?? idPath(p.base, id), { method: 'PUT', body: variables, fallback: fallbackOf(meta, NETWORK) });
      return { data: saved<T>(body, p.one, p.carry) };
    },

    deleteOne: async <T extends BaseRecord>({ resource, id, meta }: { resource: string; id: string | number; meta?: MetaQuery }) => {
      const p = paths(resource);
      const body = await http(idPath(p.base, id), { method: 'DELETE', fallback: fallbackOf(meta, NETWORK) });
      return { data: (body ?? { id }) as T };
    },

    /** Any other call under /api (withdraw update, totals, exports): `url` is the spec's path. */
    custom: async <T extends BaseRecord>({ url, method, payload, query: q, meta }: Parameters<NonNullable<DataProvider['custom']>>[0]) => {
      const m = method.toUpperCase();
      if (m !== 'GET' && m !== 'POST' && m !== 'PUT' && m !== 'DELETE') throw new ApiError(`Unsupported method ${method}`, 400);
      const qs = q && typeof q === 'object' ? query(q as Record<string, string>) : '';
      // A read that nobody waits for any more (its screen closed) is cut off: long polls hold a connection.
      const signal = (meta as { signal?: AbortSignal } | undefined)?.signal;
      const fallback = fallbackOf(meta, m === 'GET' ? undefined : NETWORK);
      // The simulated phone may be used without signing in (an open demo): `meta.anonymous` sends no token.
      const anonymous = meta?.anonymous === true;
      const call = m === 'GET' ? http : write;
      return { data: await call<T>(`${url}${qs}`, { method: m, body: payload, signal, fallback, ...(anonymous ? { anonymous } : {}) }) };
    },
  };
}

export const dataProvider = createDataProvider();

import type { BaseRecord, CrudFilter, DataProvider } from '@refinedev/core';
import { ApiError, api, query, type RequestOptions } from '../lib/http';

/** The transport the provider calls; tests pass their own. */
export type Http = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** Where each resource's calls live, when they differ from `/admin/{resource}/…`. */
interface ResourcePaths {
  base: string;
  list?: string;
  create?: string;
  /** The key the single-record answer wraps its record in (`{ phoneNumber: … }`). */
  one?: string;
}

const RESOURCES: Record<string, ResourcePaths> = {
  phonenumber: { base: '/admin/phonenumber', create: '/admin/phonenumber/save', one: 'phoneNumber' },
  proxy: { base: '/admin/proxy', create: '/admin/proxy/save', one: 'proxy' },
  message: { base: '/admin/message', create: '/admin/message/create', one: 'message' },
  level: { base: '/admin/level', create: '/admin/level/create', one: 'level' },
  bonus: { base: '/admin/bonus', create: '/admin/bonus/create', one: 'bonus' },
  member: { base: '/admin/users', list: '/admin/users/members-per-page', one: 'user' },
  whatsapp: { base: '/admin/whatsapp', create: '/admin/whatsapp/save', one: 'whatsapp' },
  generator: { base: '/admin/generator', create: '/admin/generator/create', one: 'generator' },
  validator: { base: '/admin/validator', create: '/admin/validator/create', one: 'validator' },
  withdraw: { base: '/admin/withdraw', list: '/admin/withdraw/histories-per-page', create: '/admin/withdraw/request' },
  audit: { base: '/admin/audit', list: '/admin/audit' },
};

function paths(resource: string): Required<Omit<ResourcePaths, 'one'>> & { one?: string } {
  const r = RESOURCES[resource] ?? { base: `/admin/${resource}` };
  return { base: r.base, list: r.list ?? `${r.base}/list-per-page`, create: r.create ?? `${r.base}/save`, one: r.one };
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

export function createDataProvider(http: Http = api): DataProvider {
  return {
    getApiUrl: () => '/api',

    getList: async <T extends BaseRecord>({ resource, pagination, filters }: Parameters<DataProvider['getList']>[0]) => {
      const p = paths(resource);
      const page = pagination?.currentPage ?? 1;
      const body = await http<{ data: T[]; meta?: { total?: number; totalPages?: number } }>(
        `${p.list}${query({ page, ...filterParams(filters) })}`,
      );
      const data = body?.data ?? [];
      return { data, total: body?.meta?.total ?? data.length, totalPages: body?.meta?.totalPages ?? 1 };
    },

    getOne: async <T extends BaseRecord>({ resource, id }: Parameters<DataProvider['getOne']>[0]) => {
      const p = paths(resource);
      return { data: unwrap<T>(await http(`${p.base}/${encodeURIComponent(String(id))}`), p.one) };
    },

    create: async <T extends BaseRecord, V>({ resource, variables }: { resource: string; variables: V }) => {
      const p = paths(resource);
      const body = await http(p.create, { method: 'POST', body: variables, fallback: 'Network error. Please try again.' });
      return { data: unwrap<T>(body, p.one) };
    },

    update: async <T extends BaseRecord, V>({ resource, id, variables }: { resource: string; id: string | number; variables: V }) => {
      const p = paths(resource);
      const body = await http(`${p.base}/${encodeURIComponent(String(id))}`, {
        method: 'PUT',
        body: variables,
        fallback: 'Network error. Please try again.',
      });
      return { data: unwrap<T>(body, p.one) };
    },

    deleteOne: async <T extends BaseRecord>({ resource, id }: { resource: string; id: string | number }) => {
      const p = paths(resource);
      const body = await http(`${p.base}/${encodeURIComponent(String(id))}`, {
        method: 'DELETE',
        fallback: 'Network error. Please try again.',
      });
      return { data: (body ?? { id }) as T };
    },

    custom: async <T extends BaseRecord>({ url, method, payload, query: q, meta }: Parameters<NonNullable<DataProvider['custom']>>[0]) => {
      const m = method.toUpperCase();
      if (m !== 'GET' && m !== 'POST' && m !== 'PUT' && m !== 'DELETE') throw new ApiError(`Unsupported method ${method}`, 400);
      const qs = q && typeof q === 'object' ? query(q as Record<string, string>) : '';
      // A read that nobody waits for any more (its screen closed) is cut off: long polls hold a connection.
      const signal = (meta as { signal?: AbortSignal } | undefined)?.signal;
      return { data: await http<T>(`${url}${qs}`, { method: m, body: payload, signal }) };
    },
  };
}

export const dataProvider = createDataProvider();

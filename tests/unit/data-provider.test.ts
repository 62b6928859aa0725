import { describe, expect, it } from 'vitest';
import { createDataProvider, type Http } from '../../client/src/providers/data';
import type { RequestOptions } from '../../client/src/lib/http';

/** A transport that records calls and answers what the test gives it. */
function transport(answer: unknown) {
  const calls: Array<{ path: string; options?: RequestOptions }> = [];
  const http: Http = async <T,>(path: string, options?: RequestOptions) => {
    calls.push({ path, options });
    return answer as T;
  };
  return { http, calls };
}

describe('data provider', () => {
  it('getList calls list-per-page with the page and filters and returns data and total', async () => {
    const { http, calls } = transport({ data: [{ id: 1 }], meta: { total: 31, totalPages: 4 } });
    const dp = createDataProvider(http);
    const res = await dp.getList({ resource: 'phonenumber', pagination: { currentPage: 3 }, filters: [{ field: 'search', operator: 'eq', value: '62812' }] });
    expect(calls[0]!.path).toBe('/admin/phonenumber/list-per-page?page=3&search=62812');
    expect(res).toMatchObject({ data: [{ id: 1 }], total: 31 });
  });

  it('getList maps members to members-per-page', async () => {
    const { http, calls } = transport({ data: [], meta: { total: 0, totalPages: 1 } });
    await createDataProvider(http).getList({ resource: 'member' });
    expect(calls[0]!.path).toBe('/admin/users/members-per-page?page=1');
  });

  it('getList maps the audit log to its one list call', async () => {
    const { http, calls } = transport({ data: [{ id: 9 }], meta: { total: 11, totalPages: 2 } });
    const res = await createDataProvider(http).getList({ resource: 'audit', pagination: { currentPage: 2, pageSize: 10 } });
    expect(calls[0]!.path).toBe('/admin/audit?page=2');
    expect(res).toMatchObject({ data: [{ id: 9 }], total: 11 });
  });

  it('getOne unwraps the record from its key', async () => {
    const { http, calls } = transport({ phoneNumber: { id: 5, number: '628123' } });
    const res = await createDataProvider(http).getOne({ resource: 'phonenumber', id: 5 });
    expect(calls[0]!.path).toBe('/admin/phonenumber/5');
    expect(res.data).toEqual({ id: 5, number: '628123' });
  });

  it('create posts to the resource save or create path', async () => {
    const { http, calls } = transport({ level: { id: 2 } });
    const res = await createDataProvider(http).create({ resource: 'level', variables: { name: 'Gold' } });
    expect(calls[0]).toMatchObject({ path: '/admin/level/create', options: { method: 'POST', body: { name: 'Gold' } } });
    expect(res.data).toEqual({ id: 2 });
    await createDataProvider(http).create({ resource: 'proxy', variables: { value: 'h:1' } });
    expect(calls[1]!.path).toBe('/admin/proxy/save');
  });

  it('update puts to /{id}; deleteOne deletes /{id}', async () => {
    const { http, calls } = transport({ msg: 'ok' });
    const dp = createDataProvider(http);
    await dp.update({ resource: 'proxy', id: 9, variables: { status: 'active' } });
    await dp.deleteOne({ resource: 'bonus', id: 4 });
    expect(calls[0]).toMatchObject({ path: '/admin/proxy/9', options: { method: 'PUT', body: { status: 'active' } } });
    expect(calls[1]).toMatchObject({ path: '/admin/bonus/4', options: { method: 'DELETE' } });
  });

  it('custom passes the method, query and payload', async () => {
    const { http, calls } = transport({ count: 3 });
    const res = await createDataProvider(http).custom!({ url: '/admin/users/active', method: 'get', query: { a: 1 } });
    expect(calls[0]).toMatchObject({ path: '/admin/users/active?a=1', options: { method: 'GET' } });
    expect(res.data).toEqual({ count: 3 });
  });
});

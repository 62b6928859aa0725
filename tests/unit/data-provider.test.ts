import { describe, expect, it } from 'vitest';
import { createDataProvider, type Http } from '../../client/src/providers/data';
import { ApiError, api, retryRead, type RequestOptions } from '../../client/src/lib/http';

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

  it("a template's save brings back what Meta said about its WhatsApp mapping with the record", async () => {
    const check = { wabas: ['201'], warnings: [{ code: 'wa_check_not_found', msg: 'x', params: { template: 'promo', waba: '201' }, wabaId: '201' }] };
    const { http } = transport({ message: { id: 3, text: '<p>a</p>' }, msg: 'Template pesan berhasil diperbarui.', waTemplateCheck: check });
    const dp = createDataProvider(http);
    expect((await dp.update({ resource: 'message', id: 3, variables: {} })).data).toEqual({ id: 3, text: '<p>a</p>', waTemplateCheck: check });
    expect((await dp.create({ resource: 'message', variables: {} })).data).toEqual({ id: 3, text: '<p>a</p>', waTemplateCheck: check });
    // Other resources keep only their record.
    const other = transport({ level: { id: 2 }, waTemplateCheck: check });
    expect((await createDataProvider(other.http).create({ resource: 'level', variables: {} })).data).toEqual({ id: 2 });
  });

  it('update puts to /{id}; deleteOne deletes /{id}', async () => {
    const { http, calls } = transport({ msg: 'ok' });
    const dp = createDataProvider(http);
    await dp.update({ resource: 'proxy', id: 9, variables: { status: 'active' } });
    await dp.deleteOne({ resource: 'bonus', id: 4 });
    expect(calls[0]).toMatchObject({ path: '/admin/proxy/9', options: { method: 'PUT', body: { status: 'active' } } });
    expect(calls[1]).toMatchObject({ path: '/admin/bonus/4', options: { method: 'DELETE' } });
  });

  it('the settings are one record without an id: read from /get and saved by PUT /update', async () => {
    const { http, calls } = transport({ setting: { interval_min: 1, info: 'Halo' }, msg: 'Pengaturan berhasil disimpan.' });
    const dp = createDataProvider(http);
    const one = await dp.getOne({ resource: 'settings', id: 'settings', meta: { fallback: 'Error fetching Settings' } });
    const saved = await dp.update({ resource: 'settings', id: 'settings', variables: { info: 'Halo' } });
    expect(calls[0]).toMatchObject({ path: '/admin/setting/get', options: { fallback: 'Error fetching Settings' } });
    expect(calls[1]).toMatchObject({ path: '/admin/setting/update', options: { method: 'PUT', body: { info: 'Halo' }, fallback: 'Network error. Please try again.' } });
    expect(one.data).toEqual({ interval_min: 1, info: 'Halo' });
    expect(saved.data).toEqual({ interval_min: 1, info: 'Halo' });
  });

  it('custom passes the method, query and payload', async () => {
    const { http, calls } = transport({ count: 3 });
    const res = await createDataProvider(http).custom!({ url: '/admin/users/active', method: 'get', query: { a: 1 } });
    expect(calls[0]).toMatchObject({ path: '/admin/users/active?a=1', options: { method: 'GET' } });
    expect(res.data).toEqual({ count: 3 });
  });

  it('custom sends no token only when the screen asks for an anonymous call', async () => {
    const { http, calls } = transport({ devices: [] });
    const dp = createDataProvider(http);
    await dp.custom!({ url: '/sim/devices', method: 'get', meta: { anonymous: true } });
    await dp.custom!({ url: '/sim/scan', method: 'post', payload: { qr: 'x' } });
    expect(calls[0]!.options).toMatchObject({ method: 'GET', anonymous: true });
    expect(calls[1]!.options).toMatchObject({ method: 'POST', body: { qr: 'x' } });
    expect(calls[1]!.options).not.toHaveProperty('anonymous');
  });
});

describe('data provider: spec answers, fallbacks and errors', () => {
  it('getList reads rows under the resource key and hands back the rest of the answer', async () => {
    const { http, calls } = transport({ list: [{ id: 7, income: 30 }], total: 80, meta: { page: 2, total: 11, totalPages: 2 } });
    const res = await createDataProvider(http).getList({ resource: 'referral', pagination: { currentPage: 2 }, filters: [{ field: 'userId', operator: 'eq', value: 5 }], meta: { fallback: 'Error fetching Referral list' } });
    expect(calls[0]).toMatchObject({ path: '/admin/users/referral-per-page?page=2&userId=5', options: { fallback: 'Error fetching Referral list' } });
    expect(res).toMatchObject({ data: [{ id: 7, income: 30 }], total: 11, totalPages: 2, extra: { total: 80 } });
  });

  it('getList leaves out empty filters and maps withdrawals to histories-per-page', async () => {
    const { http, calls } = transport({ data: [], meta: { total: 0, totalPages: 1 } });
    await createDataProvider(http).getList({ resource: 'withdraw', filters: [{ field: 'user_id', operator: 'eq', value: '' }, { field: 'status', operator: 'eq', value: null }] });
    expect(calls[0]!.path).toBe('/admin/withdraw/histories-per-page?page=1');
  });

  it('getOne passes the screen fallback; the profile resource keeps the whole answer on update', async () => {
    const { http, calls } = transport({ user: { id: 3 }, token: 'fresh' });
    const dp = createDataProvider(http);
    await dp.getOne({ resource: 'proxy', id: 2, meta: { fallback: 'Error fetching Proxy' } });
    expect(calls[0]).toMatchObject({ path: '/admin/proxy/2', options: { fallback: 'Error fetching Proxy' } });
    const saved = await dp.update({ resource: 'profile', id: 3, variables: { firstname: 'A' } });
    expect(saved.data).toEqual({ user: { id: 3 }, token: 'fresh' });
    const member = await dp.update({ resource: 'member', id: 3, variables: { blast_fee: 1 } });
    expect(member.data).toEqual({ id: 3 });
  });

  it('writes fall back to the network message unless the screen gives its own', async () => {
    const { http, calls } = transport({});
    const dp = createDataProvider(http);
    await dp.create({ resource: 'bonus', variables: {} });
    await dp.update({ resource: 'member', id: 1, variables: {}, meta: { fallback: 'Error updating user' } });
    await dp.deleteOne({ resource: 'message', id: 1 });
    await dp.custom!({ url: '/admin/withdraw/update', method: 'put', payload: { id: 1, status: 'accepted' } });
    await dp.custom!({ url: '/admin/bonus/total/4', method: 'get', meta: { fallback: 'Error fetching Bonus list' } });
    expect(calls.map((c) => c.options?.fallback)).toEqual([
      'Network error. Please try again.',
      'Error updating user',
      'Network error. Please try again.',
      'Network error. Please try again.',
      'Error fetching Bonus list',
    ]);
    expect(calls[3]).toMatchObject({ path: '/admin/withdraw/update', options: { method: 'PUT', body: { id: 1, status: 'accepted' } } });
  });

  it('custom refuses a method the API does not use', async () => {
    const { http, calls } = transport({});
    await expect(createDataProvider(http).custom!({ url: '/x', method: 'patch' })).rejects.toMatchObject({ statusCode: 400 });
    expect(calls).toHaveLength(0);
  });

  it('a refused call reaches Refine as an HttpError with statusCode, errors and the server code', async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = async () => new Response(JSON.stringify({ msg: 'Rekening bank belum diisi', code: 1, errors: { nominal: 'Terlalu besar' } }), { status: 422 });
    try {
      const dp = createDataProvider(async <T,>(path: string, options?: RequestOptions) => api<T>(path, { ...options, anonymous: true }));
      const err = await dp.create({ resource: 'withdraw', variables: { nominal: 1 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ message: 'Rekening bank belum diisi', statusCode: 422, code: 1, errors: { nominal: 'Terlalu besar' } });
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('money calls carry an Idempotency-Key', () => {
  /** A transport whose answers are queued: an Error is thrown, anything else answered. */
  function scripted(...answers: unknown[]) {
    const keys: Array<string | undefined> = [];
    const http: Http = async <T,>(_path: string, options?: RequestOptions) => {
      keys.push(options?.headers?.['Idempotency-Key']);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next as T;
    };
    return { http, keys };
  }
  const lost = () => new ApiError('Network error. Please try again.', 0);

  it('a withdrawal retried after a lost answer reuses its key; after an answer the next gets a new one', async () => {
    const { http, keys } = scripted(lost(), { msg: 'ok' }, { msg: 'ok' });
    const dp = createDataProvider(http);
    const withdraw = () => dp.custom!({ url: '/admin/withdraw/request', method: 'post', payload: { nominal: 20_000 } });
    await expect(withdraw()).rejects.toThrow('Network error');
    await withdraw();
    await withdraw();
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("a proxy's 504 or a broken answer keeps the key too: the server may have made the request", async () => {
    const { http, keys } = scripted(new ApiError('Gateway Timeout', 504), new TypeError('terminated'), { msg: 'ok' });
    const dp = createDataProvider(http);
    const withdraw = () => dp.custom!({ url: '/admin/withdraw/request', method: 'post', payload: { nominal: 30_000 } });
    await expect(withdraw()).rejects.toThrow('Gateway Timeout');
    await expect(withdraw()).rejects.toThrow('terminated');
    await withdraw();
    expect(new Set(keys).size).toBe(1);
  });

  it('a bonus with another body, or after a refusal, gets a new key; other writes carry none', async () => {
    const { http, keys } = scripted(lost(), { bonus: {} }, new ApiError('Nominal is required.', 422), { bonus: {} }, { proxy: {} });
    const dp = createDataProvider(http);
    const bonus = (nominal: number) => dp.create({ resource: 'bonus', variables: { userId: 3, nominal, reason: 'x' } });
    await expect(bonus(5)).rejects.toThrow();
    await bonus(6);
    await expect(bonus(7)).rejects.toThrow('Nominal');
    await bonus(7);
    await dp.create({ resource: 'proxy', variables: { value: '1.2.3.4:80' } });
    expect(new Set(keys.slice(0, 4)).size).toBe(4);
    expect(keys[4]).toBeUndefined();
  });
});

describe('retryRead', () => {
  it('asks a refused read (4xx) no more, and a failed one (network, 5xx) up to three times', () => {
    expect(retryRead(0, new ApiError('Proxy tidak ditemukan', 404))).toBe(false);
    expect(retryRead(0, new ApiError('Forbidden', 403))).toBe(false);
    expect(retryRead(0, new ApiError('Too many requests', 429))).toBe(false);
    expect(retryRead(0, new ApiError('Network Error', 0))).toBe(true);
    expect(retryRead(2, new ApiError('Internal server error', 500))).toBe(true);
    expect(retryRead(3, new ApiError('Internal server error', 500))).toBe(false);
    expect(retryRead(0, new Error('no status'))).toBe(true);
  });
});

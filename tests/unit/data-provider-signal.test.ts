import { describe, expect, it } from 'vitest';
import { createDataProvider, type Http } from '../../client/src/providers/data';
import type { RequestOptions } from '../../client/src/lib/http';

describe('data provider custom reads', () => {
  it('pass the query signal on, so a long poll stops when its screen closes', async () => {
    const seen: Array<RequestOptions | undefined> = [];
    const http: Http = async <T,>(_path: string, options?: RequestOptions) => {
      seen.push(options);
      return { ok: true } as T;
    };
    const controller = new AbortController();
    await createDataProvider(http).custom!({ url: '/admin/whatsapp/listen-message-created/id-1-1', method: 'get', meta: { signal: controller.signal } });
    expect(seen[0]?.signal).toBe(controller.signal);
    await createDataProvider(http).custom!({ url: '/admin/whatsapp/reset', method: 'post', payload: { id: 1 } });
    expect(seen[1]).toMatchObject({ method: 'POST', body: { id: 1 } });
    expect(seen[1]?.signal).toBeUndefined();
  });
});

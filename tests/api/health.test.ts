import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers';
import { closeDb } from '../../server/src/db/client';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close().catch(() => undefined);
  t = null;
});

describe('GET /api/health', () => {
  it('answers 200 with the version, uptime and the database round trip, without signing in', async () => {
    t = await startTestApp();
    const res = await t.http.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ status: 'ok', db: { ok: true } });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.body.uptime).toBeGreaterThanOrEqual(0);
    expect(['sqlite', 'postgres']).toContain(res.body.db.dialect);
    expect(res.body.db.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('answers 503 when the database does not answer, naming it without detail', async () => {
    t = await startTestApp();
    await closeDb(t.ctx.db);
    const res = await t.http.get('/api/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'degraded', db: { ok: false, error: 'database unreachable' } });
    expect(JSON.stringify(res.body)).not.toMatch(/SqliteError|not open|stack|ECONN|Cannot use a pool/i);
  });
});

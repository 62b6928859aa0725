import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, connected, type TestApp, type TestUser } from '../helpers';
import { engineFor } from '../../server/src/engine/engine';
import { messageLogs, messageTemplates } from '../../server/src/db/schema';
import { linkByQr } from './whatsapp-fixtures';
import { addTargets, addTemplate, setRules, startBlast, untilIdle } from './engine-fixtures';

const TOKEN = 'metrics-token-0123456789';

/** The value of one series in a Prometheus text answer (0 when absent). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    if (want.every((w) => (m[2] ?? '').includes(w))) return Number(m[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  let t: TestApp;
  let member: TestUser;
  const scrape = async () => {
    const res = await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    return res.text;
  };
  beforeAll(async () => {
    t = await startTestApp({ metricsToken: TOKEN, sim: { seed: 'test', latencyMs: 0, failureRate: 0 } });
    member = await t.user('member');
  });
  afterAll(async () => {
    await engineFor(t.ctx).shutdown();
    await t.close();
  });

  it('answers 401 without the token or with another one, in Prometheus format with it', async () => {
    expect((await t.http.get('/metrics')).status).toBe(401);
    expect((await t.http.get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).toBe(401);
    expect((await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}x`)).status).toBe(401);
    const res = await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'blast_http_requests_total',
      'blast_http_request_duration_seconds',
      'blast_messages_total',
      'blast_engine_tick_duration_seconds',
      'blast_accounts_sending',
      'blast_db_connections_in_use',
      'blast_db_connections_waiting',
      'blast_socket_connections',
      'blast_import_rows_total',
      'blast_webhook_statuses_total',
      'blast_signin_failures_total',
      'blast_signin_locked_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts requests by route template and status, never by path', async () => {
    const before = await scrape();
    const route = '/api/admin/users/:id';
    const base = value(before, 'blast_http_requests_total', { route, method: 'GET', status: '200' });
    for (const id of [member.id, member.id]) await t.http.get(`/api/admin/users/${id}`).set(member.auth).expect(200);
    await t.http.get('/api/admin/users/999999').set(member.auth);
    await t.http.get('/api/no/such/call/12345');
    const after = await scrape();
    expect(value(after, 'blast_http_requests_total', { route, method: 'GET', status: '200' })).toBe(base + 2);
    expect(value(after, 'blast_http_request_duration_seconds_count', { route, method: 'GET', status: '200' })).toBe(base + 2);
    expect(after).not.toContain(`/api/admin/users/${member.id}"`);
    expect(after).not.toContain('12345');
    expect(value(after, 'blast_http_requests_total', { route: '/api (unknown)', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('counts failed sign-ins, import rows and socket connections', async () => {
    const before = await scrape();
    await t.http.post('/api/auth/login').send({ email: member.row.email, password: 'wrong-password' }).expect(401);
    await t.http.post('/api/auth/login').send({ email: member.row.email, password: 'wrong-password' }).expect(401);
    const admin = await t.user('admin');
    await t.http
      .post('/api/admin/phonenumber/import')
      .set(admin.auth)
      .attach('file', Buffer.from('number,name\n6281311112222,Satu\n6281311113333,Dua\nbukan,Tiga\n'), 'numbers.csv')
      .expect(200);
    const socket = t.socket(member.token);
    await connected(socket);
    const after = await scrape();
    expect(value(after, 'blast_signin_failures_total')).toBe(value(before, 'blast_signin_failures_total') + 2);
    expect(value(after, 'blast_import_rows_total', { outcome: 'added' })).toBe(value(before, 'blast_import_rows_total', { outcome: 'added' }) + 2);
    expect(value(after, 'blast_import_rows_total', { outcome: 'skipped' })).toBe(value(before, 'blast_import_rows_total', { outcome: 'skipped' }) + 1);
    expect(value(after, 'blast_socket_connections')).toBe(value(before, 'blast_socket_connections') + 1);
    socket.disconnect();
  });

  it('counts the messages a blast sends and the engine ticks that recorded them', async () => {
    await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 0 });
    await t.ctx.db.delete(messageTemplates);
    await addTemplate(t.ctx.db);
    await addTargets(t, 3, 500);
    const account = await linkByQr(t, member, { phonenumber: '6281299997001', pushname: 'Metrik' });
    const before = await scrape();
    await startBlast(t, member, account.id).expect(200);
    await untilIdle(t, member, account.id);
    const after = await scrape();
    const logged = await t.ctx.db.select({ success: messageLogs.success }).from(messageLogs);
    const sent = logged.filter((r) => r.success).length;
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(value(after, 'blast_messages_total', { result: 'sent' })).toBe(value(before, 'blast_messages_total', { result: 'sent' }) + sent);
    expect(value(after, 'blast_messages_total', { result: 'failed' })).toBe(value(before, 'blast_messages_total', { result: 'failed' }) + logged.length - sent);
    expect(value(after, 'blast_engine_tick_duration_seconds_count')).toBeGreaterThan(value(before, 'blast_engine_tick_duration_seconds_count'));
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is a 404, whatever token is sent', async () => {
    const t = await startTestApp();
    try {
      expect((await t.http.get('/metrics')).status).toBe(404);
      expect((await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraph } from '../fakes/graph';
import { CloudApiGateway } from '../../server/src/gateway/cloud/cloud';
import { HttpError } from '../../server/src/lib/errors';
import type { GatewayEvent, OutgoingMessage } from '../../server/src/gateway/types';

const fake = new FakeGraph();
const NUMBER = { phoneNumberId: '120000000000001', token: 'EAAGunit0001', display_phone_number: '+62 812-0000-0001', verified_name: 'Unit' };
const FAST = { baseMs: 20, maxMs: 80, rateLimitRetries: 3, networkRetries: 2 };

const message = (to: string): OutgoingMessage => ({ to, text: 'Halo', template: { name: 'promo', language: 'id', bodyParams: ['Budi'] } });

function gateway(over: Partial<ConstructorParameters<typeof CloudApiGateway>[0]> = {}) {
  const g = new CloudApiGateway({ baseUrl: fake.url, ratePerSecond: 80, backOff: FAST, ...over });
  g.register('cloud-unit', { phoneNumberId: NUMBER.phoneNumberId, token: NUMBER.token });
  return g;
}

beforeAll(async () => {
  await fake.start();
  fake.addNumber(NUMBER);
});
afterAll(() => fake.close());

describe('the Cloud API gateway', () => {
  it('sends templates, plain text only as Meta allows it, and answers what it cannot do', async () => {
    const g = gateway();
    expect(g.state('cloud-unit')).toBe('connected');
    // Plain text (the Blaster): accepted within the 24-hour window, refused as re-engagement outside it.
    expect(await g.send('cloud-unit', { to: '6281299990001', text: 'Halo' })).toMatchObject({ ok: true });
    expect(fake.requests.at(-1)!.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '6281299990001', type: 'text', text: { body: 'Halo', preview_url: false } });
    fake.program({ to: '6281299990077', outcome: 'reengagement', times: 1 });
    expect(await g.send('cloud-unit', { to: '6281299990077', text: 'Halo' })).toEqual({ ok: false, error: 'reengagement' });
    expect(await g.send('cloud-nobody', message('6281299990001'))).toEqual({ ok: false, error: 'unknown_device' });
    const ok = await g.send('cloud-unit', message('6281299990001'));
    expect(ok).toMatchObject({ ok: true, messageId: expect.stringMatching(/^wamid\./) });
    expect(await g.checkNumber()).toEqual({ ok: false, error: 'failed' });
    await expect(g.startSession()).rejects.toBeInstanceOf(HttpError);
    await expect(g.reconnect()).rejects.toMatchObject({ status: 409, msg: 'Cloud API tidak mendukung QR code' });
    expect(JSON.stringify(g.inspect('cloud-unit'))).not.toContain(NUMBER.token);
    g.close();
  });

  it('maps Graph errors: not on WhatsApp, re-engagement, rate limit after its retries, server errors after theirs', async () => {
    const g = gateway();
    fake.program({ to: '6281299990002', outcome: 'not_on_whatsapp' });
    fake.program({ to: '6281299990003', outcome: 'reengagement' });
    fake.program({ to: '6281299990004', outcome: 'rate_limit' });
    fake.program({ to: '6281299990005', outcome: 'server_error', times: 1 });
    fake.program({ to: '6281299990006', outcome: 'server_error' });
    expect(await g.send('cloud-unit', message('6281299990002'))).toEqual({ ok: false, error: 'not_registered' });
    expect(await g.send('cloud-unit', message('6281299990003'))).toEqual({ ok: false, error: 'reengagement' });
    expect(await g.send('cloud-unit', message('6281299990004'))).toEqual({ ok: false, error: 'rate_limited' });
    expect(fake.sends().filter((s) => s.body?.to === '6281299990004')).toHaveLength(1 + FAST.rateLimitRetries);
    expect(await g.send('cloud-unit', message('6281299990005'))).toMatchObject({ ok: true });
    expect(await g.send('cloud-unit', message('6281299990006'))).toEqual({ ok: false, error: 'failed' });
    expect(fake.sends().filter((s) => s.body?.to === '6281299990006')).toHaveLength(1 + FAST.networkRetries);
    g.close();
  });

  it("answers a refusal of the template or of the business number as such, and tries a refusal Graph would repeat once", async () => {
    const g = gateway();
    fake.program({ to: '6281299990011', outcome: 'template_paused' });
    fake.program({ to: '6281299990012', outcome: 'template_params' });
    fake.program({ to: '6281299990013', outcome: 'account_locked' });
    fake.program({ to: '6281299990014', outcome: 'spam_limit' });
    fake.program({ to: '6281299990015', outcome: 'invalid_parameter' });
    // A parameter's format (132012) or the format policy (132007) can be one recipient's filled-in name: that send fails, not the template.
    fake.program({ to: '6281299990019', outcome: 'param_format' });
    expect(await g.send('cloud-unit', message('6281299990011'))).toEqual({ ok: false, error: 'no_template' });
    expect(await g.send('cloud-unit', message('6281299990012'))).toEqual({ ok: false, error: 'no_template' });
    expect(await g.send('cloud-unit', message('6281299990013'))).toEqual({ ok: false, error: 'account_restricted' });
    expect(await g.send('cloud-unit', message('6281299990014'))).toEqual({ ok: false, error: 'account_restricted' });
    expect(await g.send('cloud-unit', message('6281299990015'))).toEqual({ ok: false, error: 'failed' });
    expect(await g.send('cloud-unit', message('6281299990019'))).toEqual({ ok: false, error: 'failed' });
    for (const to of ['6281299990011', '6281299990012', '6281299990013', '6281299990014', '6281299990015', '6281299990019']) {
      expect(fake.sends().filter((s) => s.body?.to === to)).toHaveLength(1);
    }
    expect(g.state('cloud-unit')).toBe('connected');
    g.close();
  });

  it('stops waiting between tries of a rate-limited send when the send is aborted', async () => {
    const g = gateway({ backOff: { baseMs: 5_000, maxMs: 5_000, rateLimitRetries: 3, networkRetries: 2 } });
    fake.program({ to: '6281299990016', outcome: 'rate_limit' });
    const abort = new AbortController();
    const started = Date.now();
    const sent = g.send('cloud-unit', message('6281299990016'), abort.signal);
    setTimeout(() => abort.abort(), 200);
    expect(await sent).toEqual({ ok: false, error: 'rate_limited' });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(fake.sends().filter((s) => s.body?.to === '6281299990016')).toHaveLength(1);
    g.close();
  });

  it('answers failed or timeout when Graph cannot be reached', async () => {
    const g = new CloudApiGateway({ baseUrl: 'http://127.0.0.1:9/v21.0', ratePerSecond: 80, backOff: FAST, timeoutMs: 500 });
    g.register('cloud-unit', { phoneNumberId: NUMBER.phoneNumberId, token: NUMBER.token });
    const r = await g.send('cloud-unit', message('6281299990007'));
    expect(r.ok).toBe(false);
    expect(['failed', 'timeout']).toContain(!r.ok && r.error);
    g.close();
  });

  it('logs the number out when its token expires', async () => {
    const g = gateway();
    const events: GatewayEvent[] = [];
    g.on((e) => events.push(e));
    fake.program({ to: '6281299990008', outcome: 'token_expired' });
    expect(await g.send('cloud-unit', message('6281299990008'))).toEqual({ ok: false, error: 'token_expired' });
    expect(g.state('cloud-unit')).toBe('loggedOut');
    expect(events).toEqual([{ type: 'connection.update', deviceId: 'cloud-unit', state: 'loggedOut' }]);
    expect(await g.send('cloud-unit', message('6281299990009'))).toEqual({ ok: false, error: 'token_expired' });
    g.close();
  });

  it('keeps to the per-number rate: sends wait for their turn and none fails', async () => {
    const g = gateway({ ratePerSecond: 10 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => g.send('cloud-unit', message(`62812998${String(i).padStart(5, '0')}`))));
    const elapsed = Date.now() - started;
    expect(results.every((r) => r.ok)).toBe(true);
    // A burst of 10, then 15 more at 10 per second.
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    const times = fake
      .sends()
      .filter((s) => String(s.body?.to).startsWith('62812998'))
      .map((s) => s.at);
    const windows = times.map((at) => times.filter((x) => x >= at && x < at + 1000).length);
    // At most a full bucket plus one second's refill in any second.
    expect(Math.max(...windows)).toBeLessThanOrEqual(20);
    g.close();
  });
  it("lists a WABA's templates of one name with a number's token, and logs a failure without the token", async () => {
    const logs: string[] = [];
    const g = gateway({ timeoutMs: 400, log: (msg) => logs.push(msg) });
    fake.addTemplate({ wabaId: 'waba-unit', name: 'promo_unit', language: 'id', status: 'APPROVED', body: 'Halo {{1}}, {{2}} dan lagi {{1}}' });
    fake.addTemplate({ wabaId: 'waba-unit', name: 'promo_unit_2', language: 'id', status: 'PAUSED', body: 'Halo' });
    expect(await g.templatesOf('cloud-unit', 'waba-unit', 'promo_unit')).toEqual({
      ok: true,
      templates: [{ name: 'promo_unit', language: 'id', status: 'APPROVED', bodyParams: 2, named: false }],
    });
    fake.templateFailures.set('waba-unit', 'server_error');
    expect(await g.templatesOf('cloud-unit', 'waba-unit', 'promo_unit')).toEqual({ ok: false, reason: 'unavailable' });
    fake.templateFailures.set('waba-unit', 'hang');
    expect(await g.templatesOf('cloud-unit', 'waba-unit', 'promo_unit')).toEqual({ ok: false, reason: 'unavailable' });
    fake.templateFailures.set('waba-unit', 'token_expired');
    expect(await g.templatesOf('cloud-unit', 'waba-unit', 'promo_unit')).toEqual({ ok: false, reason: 'token' });
    fake.templateFailures.delete('waba-unit');
    expect(logs).toEqual([
      'Graph did not answer the template check of WABA waba-unit: HTTP 500 code 2',
      'Graph did not answer the template check of WABA waba-unit: timeout',
    ]);
    // A logged-out number's token is not used: Graph is not asked.
    const before = fake.templateLookups().length;
    g.register('cloud-unit', { phoneNumberId: NUMBER.phoneNumberId, token: NUMBER.token }, null, 'loggedOut');
    expect(await g.templatesOf('cloud-unit', 'waba-unit', 'promo_unit')).toEqual({ ok: false, reason: 'token' });
    expect(fake.templateLookups()).toHaveLength(before);
  });
});

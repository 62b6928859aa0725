import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { one } from '../../server/src/db/raw';
import { messageLogs, messageTemplates, phoneNumbers, whatsapps } from '../../server/src/db/schema';
import { decryptSecret } from '../../server/src/lib/secrets';
import { addTemplate, invariantViolations, startBlast, untilIdle } from './engine-fixtures';
import { eventually } from './whatsapp-fixtures';
import { accountRow, addTargets, admin, fake, link, member, NUMBERS, t, useCloudApp, WABA } from './cloud-fixtures';

useCloudApp();

describe('blasting from a business number', () => {
  let mixId: number;

  it('is refused while no active template maps to an approved WhatsApp template', async () => {
    await addTemplate(t.ctx.db, { textWa: 'Halo {name}' });
    const linked = await link(member, NUMBERS.mix);
    expect(linked.status).toBe(200);
    mixId = linked.body.whatsapp.id;
    const res = await startBlast(t, member, mixId);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('Template pesan belum terhubung ke template WhatsApp yang disetujui');
    expect(fake.sends(NUMBERS.mix.phoneNumberId)).toHaveLength(0);
  });

  it('sends the mapped template to 50 numbers and counts each outcome', async () => {
    await addTemplate(t.ctx.db, {
      textWa: 'Promo untuk {name}',
      waTemplateName: 'promo_blast',
      waTemplateLanguage: 'id',
      waTemplateParams: JSON.stringify(['{name}', '{phoneNumber}']),
    });
    const targets = await addTargets(50);
    for (const x of targets.slice(0, 10)) fake.program({ to: x.number, outcome: 'not_on_whatsapp' });
    for (const x of targets.slice(10, 15)) fake.program({ to: x.number, outcome: 'reengagement' });
    // After a restart the session comes back from the saved row (the token decrypted).
    const deviceId = `cloud-${NUMBERS.mix.phoneNumberId}`;
    t.ctx.gateway.removeSession(deviceId);
    expect(t.ctx.gateway.state(deviceId)).toBeNull();

    const res = await startBlast(t, member, mixId);
    expect(res.status).toBe(200);
    const row = await untilIdle(t, member, mixId);
    expect(row).toMatchObject({ count_success: 35, count_fail: 15, state: 'connected' });

    const sends = fake.sends(NUMBERS.mix.phoneNumberId);
    expect(sends).toHaveLength(50);
    for (const s of sends) expect(s.authorization).toBe(`Bearer ${NUMBERS.mix.token}`);
    const first = targets[20]!;
    expect(sends.find((s) => s.body?.to === first.number)!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: first.number,
      type: 'template',
      template: {
        name: 'promo_blast',
        language: { code: 'id' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: first.name }, { type: 'text', text: first.number }] }],
      },
    });

    const logs = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, mixId));
    expect(logs).toHaveLength(50);
    const byNumber = new Map(logs.map((l) => [l.number, l]));
    for (const x of targets.slice(0, 10)) expect(byNumber.get(x.number)).toMatchObject({ success: false, errorCode: 'not_registered' });
    for (const x of targets.slice(10, 15)) expect(byNumber.get(x.number)).toMatchObject({ success: false, errorCode: 'reengagement' });
    for (const x of targets.slice(15)) expect(byNumber.get(x.number)).toMatchObject({ success: true, errorCode: null });
    // Only the mapped template was sent.
    const mapped = (await one(t.ctx.db.select().from(messageTemplates).where(eq(messageTemplates.waTemplateName, 'promo_blast'))))!;
    expect(new Set(logs.map((l) => l.templateId))).toEqual(new Set([mapped.id]));
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it("records accepted sends unpaid with Meta's message id, and pays them once when the signed webhook reports them delivered", async () => {
    const logs = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, mixId));
    const accepted = logs.filter((l) => l.success);
    expect(accepted).toHaveLength(35);
    for (const l of accepted) expect(l).toMatchObject({ income: 0, deliveryStatus: 'sent', waMessageId: expect.stringMatching(/^wamid\./) });
    expect(new Set(accepted.map((l) => l.waMessageId)).size).toBe(35);
    for (const l of logs.filter((x) => !x.success)) expect(l).toMatchObject({ income: 0, waMessageId: null, deliveryStatus: null });
    const before = (await accountRow(mixId)).income;
    expect(before).toBe(0);

    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: NUMBERS.mix.display_phone_number, phone_number_id: NUMBERS.mix.phoneNumberId },
                // Mixed, as Meta reports them: 30 delivered, 2 read (delivery skipped), 3 failed.
                statuses: accepted.map((l, i) => ({
                  id: l.waMessageId,
                  status: i < 30 ? 'delivered' : i < 32 ? 'read' : 'failed',
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: l.number,
                  ...(i >= 32 ? { errors: [{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' }] } : {}),
                })),
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${crypto.createHmac('sha256', 'test-app-secret').update(body).digest('hex')}`;
    const post = () => t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signature).send(body);
    expect((await post()).status).toBe(200);
    // Meta retries: the same body again pays nothing more.
    expect((await post()).status).toBe(200);
    // A body signed with another secret changes nothing.
    const forged = await t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', `sha256=${crypto.createHmac('sha256', 'wrong').update(body).digest('hex')}`).send(body);
    expect(forged.status).toBe(401);

    const after = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, mixId));
    const byId = new Map(after.map((l) => [l.id, l]));
    accepted.forEach((l, i) => {
      const now = byId.get(l.id)!;
      if (i < 30) expect(now).toMatchObject({ success: true, income: 40, deliveryStatus: 'delivered' });
      else if (i < 32) expect(now).toMatchObject({ success: true, income: 40, deliveryStatus: 'read' });
      else expect(now).toMatchObject({ success: false, income: 0, deliveryStatus: 'failed' });
    });
    expect(await accountRow(mixId)).toMatchObject({ income: 32 * 40, countSuccess: 32, countFail: 18 });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);

    // The delivered count and each recipient's status, for the account's owner and staff above, not others.
    const counts = await t.http.get(`/api/admin/messagelog/delivery/${mixId}`).set(member.auth);
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ sent: 0, delivered: 30, read: 2, failed: 3 });
    const failed = await t.http.get(`/api/admin/messagelog/recipients/${mixId}?status=failed`).set(admin.auth);
    expect(failed.status).toBe(200);
    expect(failed.body.meta).toMatchObject({ total: 3, page: 1 });
    expect(failed.body.data.map((r: { number: string }) => r.number).sort()).toEqual(accepted.slice(32).map((l) => l.number).sort());
    expect(failed.body.data[0].error).toMatch(/131049/);
    const page = await t.http.get(`/api/admin/messagelog/recipients/${mixId}?page=2`).set(member.auth);
    expect(page.body.data).toHaveLength(10);
    const stranger = await t.user('member');
    expect((await t.http.get(`/api/admin/messagelog/delivery/${mixId}`).set(stranger.auth)).status).toBe(403);
  });

  it("stops at the number's messaging tier: 50 different recipients in 24 hours, then refuses to start again", async () => {
    const linked = await link(member, NUMBERS.tier);
    expect(linked.status).toBe(200);
    expect(linked.body.whatsapp.messaging_tier).toBe('TIER_50');
    const id = linked.body.whatsapp.id as number;
    const targets = await addTargets(60);
    expect((await startBlast(t, member, id)).status).toBe(200);
    const row = await untilIdle(t, member, id);
    expect(row.count_success).toBe(50);
    expect(fake.sends(NUMBERS.tier.phoneNumberId)).toHaveLength(50);
    const again = await startBlast(t, member, id);
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('Batas harian nomor ini dari Meta (tier) sudah tercapai. Blast dapat dilanjutkan setelah 24 jam.');
    expect(again.body.code).toBe('cloud_tier_reached');
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
    // The ten numbers it did not reach leave the list, so the next blast starts on its own targets.
    const left = await t.ctx.db.delete(phoneNumbers).where(and(inArray(phoneNumbers.id, targets.map((x) => x.id)), isNull(phoneNumbers.lastSent))).returning({ id: phoneNumbers.id });
    expect(left).toHaveLength(10);
  });

  it('uses a tier Meta raised since the number was linked: a start past the known tier asks Graph again', async () => {
    const [account] = await t.ctx.db.select().from(whatsapps).where(eq(whatsapps.cloudPhoneNumberId, NUMBERS.tier.phoneNumberId));
    expect(account?.messagingTier).toBe('TIER_50');
    // Still TIER_50 at Meta: refused, and nothing changes.
    expect((await startBlast(t, member, account!.id)).status).toBe(409);
    fake.addNumber({ ...NUMBERS.tier, messaging_limit_tier: 'TIER_250' });
    try {
      await addTargets(5);
      expect((await startBlast(t, member, account!.id)).status).toBe(200);
      const row = await untilIdle(t, member, account!.id);
      expect(row.count_success).toBe(55);
      expect((await accountRow(account!.id)).messagingTier).toBe('TIER_250');
      expect(fake.sends(NUMBERS.tier.phoneNumberId)).toHaveLength(55);
    } finally {
      fake.addNumber(NUMBERS.tier);
    }
  });

  it('waits out rate limits with back-off and still completes the blast', async () => {
    const linked = await link(member, NUMBERS.slow);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    await addTargets(3);
    fake.program({ phoneNumberId: NUMBERS.slow.phoneNumberId, outcome: 'rate_limit', times: 2 });
    fake.program({ phoneNumberId: NUMBERS.slow.phoneNumberId, outcome: 'pair_rate_limit', times: 1 });
    const started = Date.now();
    expect((await startBlast(t, member, id)).status).toBe(200);
    const row = await untilIdle(t, member, id, 20_000);
    const elapsed = Date.now() - started;
    expect(row).toMatchObject({ count_success: 3, count_fail: 0 });
    const sends = fake.sends(NUMBERS.slow.phoneNumberId);
    expect(sends.map((s) => s.outcome)).toEqual(['rate_limit', 'rate_limit', 'pair_rate_limit', 'ok', 'ok', 'ok']);
    // Back-off of 0.5 s, 1 s and 2 s before the first send went through.
    expect(elapsed).toBeGreaterThanOrEqual(3400);
    expect(sends[3]!.at - sends[0]!.at).toBeGreaterThanOrEqual(3400);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  }, 30_000);

  it('stops when the token expires and marks the account logged out', async () => {
    const linked = await link(member, NUMBERS.expire);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    const targets = await addTargets(5);
    fake.program({ to: targets[2]!.number, outcome: 'token_expired', times: 1 });
    expect((await startBlast(t, member, id)).status).toBe(200);
    await untilIdle(t, member, id);
    const row = await eventually(
      () => accountRow(id),
      (r) => r.state === 'loggedOut',
    );
    expect(row).toMatchObject({ state: 'loggedOut', status: 'idle', countSuccess: 2, countFail: 0 });
    expect(t.ctx.gateway.state(row.deviceId)).toBe('loggedOut');
    expect(fake.sends(NUMBERS.expire.phoneNumberId)).toHaveLength(3);
    // The number whose send found the token expired is released uncounted.
    const third = (await one(t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, targets[2]!.id))))!;
    expect({ inUse: Number(third.inUse), countSuccess: third.countSuccess, countFail: third.countFail }).toEqual({ inUse: 0, countSuccess: 0, countFail: 0 });
    const again = await startBlast(t, member, id);
    expect(again.status).toBe(403);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);

    // Linking it again with a new token renews the token in place; the blast goes on.
    fake.numbers.get(NUMBERS.expire.phoneNumberId)!.token = 'EAAGrenewedtoken';
    const stranger = await t.user('member');
    expect((await link(stranger, { ...NUMBERS.expire, token: 'EAAGrenewedtoken' })).status).toBe(409);
    const renewed = await link(member, { ...NUMBERS.expire, token: 'EAAGrenewedtoken' });
    expect(renewed.status).toBe(200);
    expect(renewed.body.whatsapp).toMatchObject({ id, state: 'connected', count_success: 2 });
    expect(decryptSecret(t.ctx.config.secretKey, (await accountRow(id)).cloudToken!)).toBe('EAAGrenewedtoken');
    expect((await startBlast(t, member, id)).status).toBe(200);
    expect(await untilIdle(t, member, id)).toMatchObject({ count_success: 5, count_fail: 0 });
    expect(fake.sends(NUMBERS.expire.phoneNumberId).slice(3).map((s) => s.authorization)).toEqual(Array(3).fill('Bearer EAAGrenewedtoken'));
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});

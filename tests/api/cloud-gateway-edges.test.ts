import { afterEach, describe, expect, it } from 'vitest';
import { eq, inArray, isNull } from 'drizzle-orm';
import { messageLogs, messageTemplates, phoneNumbers } from '../../server/src/db/schema';
import { ACCOUNT_RESTRICTED_MSG, TEMPLATE_REFUSED_MSG } from '../../server/src/engine/loop';
import { connected } from '../helpers';
import { addTemplate, invariantViolations, startBlast, stopBlast, untilIdle } from './engine-fixtures';
import { eventually } from './whatsapp-fixtures';
import { addTargets, fake, link, member, NUMBERS, t, useCloudApp } from './cloud-fixtures';

useCloudApp();

afterEach(async () => {
  fake.rules = [];
  await t.ctx.db.update(messageTemplates).set({ status: 'nonactive' });
});

/** The blast's end events of an account, as its owner's socket receives them. */
async function endEvents(accountId: number) {
  const s = t.socket(member.token);
  await connected(s);
  const events: Array<{ event: string; message?: string }> = [];
  s.on(String(member.id), (m: { event: string; data: { id: number; message?: string } }) => {
    if (m.data.id === accountId) events.push({ event: m.event, message: m.data.message });
  });
  return { events, close: () => s.close() };
}

/** Whether none of the targets was touched: never sent, not in use, no counts, no log rows. */
async function untouched(ids: number[]) {
  const rows = await t.ctx.db.select().from(phoneNumbers).where(inArray(phoneNumbers.id, ids));
  const logs = await t.ctx.db.select().from(messageLogs).where(inArray(messageLogs.phoneNumberId, ids));
  return { logs: logs.length, touched: rows.filter((r) => r.lastSent !== null || Number(r.inUse) !== 0 || r.countSuccess !== 0 || r.countFail !== 0).length };
}

describe("Graph's refusals of the template or the number end the blast", () => {
  it('a paused template: one send, the target released uncounted, the blast ended with the reason', async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'paused_promo', waTemplateLanguage: 'id', waTemplateParams: '[]' });
    const linked = await link(member, NUMBERS.mix);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    const targets = await addTargets(6);
    fake.program({ phoneNumberId: NUMBERS.mix.phoneNumberId, outcome: 'template_paused' });
    const live = await endEvents(id);
    try {
      expect((await startBlast(t, member, id)).status).toBe(200);
      const row = await untilIdle(t, member, id);
      expect(row).toMatchObject({ count_success: 0, count_fail: 0, state: 'connected' });
      const ended = await eventually(() => live.events, (e) => e.some((x) => x.event === 'error_blast'));
      expect(ended.find((x) => x.event === 'error_blast')?.message).toBe(TEMPLATE_REFUSED_MSG);
    } finally {
      live.close();
    }
    expect(fake.sends(NUMBERS.mix.phoneNumberId)).toHaveLength(1);
    expect(await untouched(targets.map((x) => x.id))).toEqual({ logs: 0, touched: 0 });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('a mapping whose parameters do not fit the approved template ends the blast the same way', async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'two_params', waTemplateLanguage: 'id', waTemplateParams: JSON.stringify(['{name}']) });
    const linked = await link(member, NUMBERS.slow);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    const targets = await addTargets(4);
    fake.program({ phoneNumberId: NUMBERS.slow.phoneNumberId, outcome: 'template_params' });
    expect((await startBlast(t, member, id)).status).toBe(200);
    await untilIdle(t, member, id);
    expect(fake.sends(NUMBERS.slow.phoneNumberId)).toHaveLength(1);
    expect(await untouched(targets.map((x) => x.id))).toEqual({ logs: 0, touched: 0 });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('a business number Meta has locked ends the blast with its own reason', async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'promo_ok', waTemplateLanguage: 'id', waTemplateParams: '[]' });
    const linked = await link(member, NUMBERS.link);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    const targets = await addTargets(4);
    fake.program({ phoneNumberId: NUMBERS.link.phoneNumberId, outcome: 'account_locked' });
    const live = await endEvents(id);
    try {
      expect((await startBlast(t, member, id)).status).toBe(200);
      await untilIdle(t, member, id);
      const ended = await eventually(() => live.events, (e) => e.some((x) => x.event === 'error_blast'));
      expect(ended.find((x) => x.event === 'error_blast')?.message).toBe(ACCOUNT_RESTRICTED_MSG);
    } finally {
      live.close();
    }
    expect(fake.sends(NUMBERS.link.phoneNumberId)).toHaveLength(1);
    expect(await untouched(targets.map((x) => x.id))).toEqual({ logs: 0, touched: 0 });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});

describe('a refusal Graph would repeat is not sent again', () => {
  it("an invalid-parameter answer fails that target once and the blast goes on", async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'promo_ok', waTemplateLanguage: 'id', waTemplateParams: '[]' });
    const linked = await link(member, NUMBERS.jobs);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    const targets = await addTargets(3);
    fake.program({ to: targets[0]!.number, outcome: 'invalid_parameter' });
    expect((await startBlast(t, member, id)).status).toBe(200);
    // The targets the blasts above left untouched are sent too.
    const row = await untilIdle(t, member, id);
    expect(row.count_fail).toBe(1);
    expect(row.count_success).toBeGreaterThanOrEqual(2);
    expect(fake.sends(NUMBERS.jobs.phoneNumberId).filter((s) => s.body?.to === targets[0]!.number)).toHaveLength(1);
    const [log] = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.number, targets[0]!.number));
    expect(log).toMatchObject({ success: false, errorCode: 'failed' });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});

describe("a stop during Graph's rate-limit back-off", () => {
  it('ends the blast at once, the number Graph kept refusing released uncounted', async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'promo_ok', waTemplateLanguage: 'id', waTemplateParams: '[]' });
    const linked = await link(member, NUMBERS.expire);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    // Targets of the blasts above that are still unsent leave the list, so the first send is to ours.
    await t.ctx.db.delete(phoneNumbers).where(isNull(phoneNumbers.lastSent));
    const targets = await addTargets(2);
    fake.program({ phoneNumberId: NUMBERS.expire.phoneNumberId, outcome: 'rate_limit' });
    expect((await startBlast(t, member, id)).status).toBe(200);
    // Refused once: the gateway waits 0.5 s, 1 s, 2 s, 4 s and 8 s between tries.
    await eventually(() => fake.sends(NUMBERS.expire.phoneNumberId), (s) => s.length >= 1);
    const asked = Date.now();
    const stopped = await stopBlast(t, member, id);
    expect(stopped.status).toBe(200);
    expect(Date.now() - asked).toBeLessThan(5_000); // it waited out the back-off (15 s) before
    expect(stopped.body.data).toMatchObject({ status: 'idle', count_success: 0, count_fail: 0 });
    expect(fake.sends(NUMBERS.expire.phoneNumberId).length).toBeLessThanOrEqual(3);
    expect(await untouched(targets.map((x) => x.id))).toEqual({ logs: 0, touched: 0 });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});

describe('template parameters', () => {
  it('go to Graph on one line: a name with a line break, a tab or a run of spaces is sent with single spaces', async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'promo_name', waTemplateLanguage: 'id', waTemplateParams: JSON.stringify(['{name}']) });
    const linked = await link(member, NUMBERS.tier);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    await t.ctx.db.delete(phoneNumbers).where(isNull(phoneNumbers.lastSent));
    const [target] = await addTargets(1);
    await t.ctx.db.update(phoneNumbers).set({ name: 'Budi\nSantoso\t  dan      Ani' }).where(eq(phoneNumbers.id, target!.id));
    expect((await startBlast(t, member, id)).status).toBe(200);
    await untilIdle(t, member, id);
    const [send] = fake.sends(NUMBERS.tier.phoneNumberId);
    expect((send!.body!.template as { components: unknown }).components).toEqual([{ type: 'body', parameters: [{ type: 'text', text: 'Budi Santoso dan Ani' }] }]);
  });
});

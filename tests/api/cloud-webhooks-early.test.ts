import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messageLogs } from '../../server/src/db/schema';
import { HeldStatuses, HOLD_MS } from '../../server/src/webhooks/held';
import type { CloudStatus } from '../../server/src/webhooks/schema';
import { heldStatusesOf } from '../../server/src/webhooks/service';
import { signBody } from '../../server/src/webhooks/signature';
import { addTemplate, invariantViolations, startBlast, untilIdle } from './engine-fixtures';
import { eventually } from './whatsapp-fixtures';
import { accountRow, addTargets, fake, link, member, NUMBERS, t, useCloudApp } from './cloud-fixtures';

useCloudApp();

const now = () => Math.floor(Date.now() / 1000);

function postStatuses(phoneNumberId: string, statuses: Array<Record<string, unknown>>) {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phoneNumberId }, statuses } }] }],
  });
  return t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signBody('test-app-secret', raw)).send(raw);
}

describe('a status that arrives before its send is recorded', () => {
  it("is applied once the engine records the send: 'delivered' before Graph's answer still pays the member", async () => {
    await addTemplate(t.ctx.db, { textWa: 'Promo {name}', waTemplateName: 'promo_blast', waTemplateLanguage: 'id', waTemplateParams: '[]' });
    const linked = await link(member, NUMBERS.mix);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    await addTargets(3);
    const answers: number[] = [];
    // Meta's webhook overtakes the send's answer.
    fake.beforeAnswer = async ({ phoneNumberId, to, messageId }) => {
      const res = await postStatuses(phoneNumberId, [{ id: messageId, status: 'delivered', recipient_id: to, timestamp: String(now()) }]);
      answers.push(res.status);
    };
    try {
      expect((await startBlast(t, member, id)).status).toBe(200);
      await untilIdle(t, member, id);
    } finally {
      fake.beforeAnswer = null;
    }
    expect(answers).toEqual([200, 200, 200]);
    const logs = await eventually(
      () => t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, id)),
      (rows) => rows.length === 3 && rows.every((l) => l.deliveryStatus === 'delivered'),
    );
    for (const l of logs) expect(l).toMatchObject({ success: true, income: 40, deliveryStatus: 'delivered' });
    expect((await accountRow(id)).income).toBe(120);
    // Each held row is deleted once its status is applied.
    await eventually(() => heldStatusesOf(t.ctx).count(), (n) => n === 0);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('holds only recent statuses of a linked business number, and forgets them after a while', async () => {
    const held = heldStatusesOf(t.ctx);
    const before = await held.count();
    // Not a linked number, and a status of a message sent long ago: nothing to wait for.
    expect((await postStatuses('999000000000001', [{ id: 'wamid.elsewhere', status: 'delivered', timestamp: String(now()) }])).status).toBe(200);
    expect((await postStatuses(NUMBERS.mix.phoneNumberId, [{ id: 'wamid.old', status: 'read', timestamp: String(now() - 3600) }])).status).toBe(200);
    expect(await held.count()).toBe(before);
    // Another app's (or the Blaster's) message on the linked number: held, then dropped.
    expect((await postStatuses(NUMBERS.mix.phoneNumberId, [{ id: 'wamid.other-app', status: 'delivered', timestamp: String(now()) }])).status).toBe(200);
    expect(await held.count()).toBe(before + 1);
    await held.sweep(Date.now() + HOLD_MS + 1);
    expect(await held.count()).toBe(0);
  });

  it('keeps a status whose applying failed, and applies it at the next sweep', async () => {
    const [log] = await t.ctx.db.select().from(messageLogs).limit(1);
    expect(log?.waMessageId).toBeTruthy();
    const applied: string[][] = [];
    let failNext = true;
    const held = new HeldStatuses(t.ctx, async (statuses) => {
      if (failNext) {
        failNext = false;
        throw new Error('database away');
      }
      applied.push(statuses.map((s) => s.status.id));
    });
    try {
      await held.hold(NUMBERS.mix.phoneNumberId, [{ id: log!.waMessageId!, status: 'read', timestamp: String(now()) } as CloudStatus]);
      expect(await held.count()).toBe(1);
      await held.sweep();
      // The database failed while applying it: still held, not lost.
      expect(await held.count()).toBe(1);
      expect(applied).toEqual([]);
      // Two sweeps at once: the second waits for the first and finds nothing left.
      await Promise.all([held.sweep(), held.sweep()]);
      expect(applied).toEqual([[log!.waMessageId!]]);
      expect(await held.count()).toBe(0);
    } finally {
      held.close();
    }
  });

  it('a status that keeps failing holds the others back only until it expires, then it is given up', async () => {
    const logs = await t.ctx.db.select().from(messageLogs).limit(2);
    expect(logs).toHaveLength(2);
    const [bad, good] = logs.map((l) => l.waMessageId!);
    const applied: string[] = [];
    const held = new HeldStatuses(t.ctx, async (statuses) => {
      if (statuses.some((s) => s.status.id === bad)) throw new Error('cannot be applied');
      applied.push(...statuses.map((s) => s.status.id));
    });
    try {
      const at = String(now());
      await held.hold(NUMBERS.mix.phoneNumberId, [{ id: bad, status: 'read', timestamp: at } as CloudStatus, { id: good, status: 'read', timestamp: at } as CloudStatus]);
      await held.sweep();
      await held.sweep();
      // Before its expiry the failing status stays, and the one behind it waits.
      expect(applied).toEqual([]);
      expect(await held.count()).toBe(2);
      const later = Date.now() + HOLD_MS + 1000;
      await held.sweep(later);
      await held.sweep(later);
      expect(applied).toEqual([good]);
      expect(await held.count()).toBe(0);
    } finally {
      held.close();
    }
  });

  it('a node that is not sweeping finds statuses another node left held, and applies them', async () => {
    const [log] = await t.ctx.db.select().from(messageLogs).limit(1);
    const applied: string[] = [];
    const other = new HeldStatuses(t.ctx, async () => {});
    const node = new HeldStatuses(t.ctx, async (statuses) => void applied.push(...statuses.map((s) => s.status.id)), 50);
    try {
      await node.resume();
      expect(node.active).toBe(false);
      // Another node holds a status and goes away before sweeping it.
      await other.hold(NUMBERS.mix.phoneNumberId, [{ id: log!.waMessageId!, status: 'read', timestamp: String(now()) } as CloudStatus]);
      other.close();
      await eventually(async () => applied, (a) => a.length === 1, 5000);
      expect(applied).toEqual([log!.waMessageId!]);
      await eventually(() => node.count(), (n) => n === 0);
    } finally {
      other.close();
      node.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageTemplates } from '../../server/src/db/schema';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { engineFor } from '../../server/src/engine/engine';
import { linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, setRules, startBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let member: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 0, failureRate: 0 } });
  member = await t.user('member');
  account = await linkByQr(t, member, { phonenumber: '6281299990081', pushname: 'Habis' });
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 0, recipientCooldownHours: 24 });
  await addTemplate(t.ctx.db);
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe('starting a blast with no number to send to', () => {
  it('is refused with the reason while every active number is in its cooldown, and starts once one is free', async () => {
    const empty = await startBlast(t, member, account.id);
    expect(empty.status).toBe(409);
    expect(empty.body.msg).toBe('Tidak ada nomor tujuan yang bisa dikirimi saat ini: semua nomor aktif sudah dikirimi dalam masa jeda penerima');

    await addTargets(t, 2);
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    const idle = await untilIdle(t, member, account.id);
    expect(idle.count_success).toBe(2);

    // Both numbers were sent to within the 24 h cooldown: nothing is left to send.
    const again = await startBlast(t, member, account.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('blast_no_targets');

    await addTargets(t, 1, 2);
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    expect((await untilIdle(t, member, account.id)).count_success).toBe(3);
  });
});

describe('starting a blast with no active template', () => {
  it('is refused with the reason instead of a run that ends at once, and starts once a template is active', async () => {
    await addTargets(t, 1, 10);
    await t.ctx.db.update(messageTemplates).set({ status: 'nonactive' });
    const refused = await startBlast(t, member, account.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('Tidak ada template pesan yang aktif');
    expect(refused.body.code).toBe('no_active_template');

    await t.ctx.db.update(messageTemplates).set({ status: 'active' });
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    expect((await untilIdle(t, member, account.id)).count_success).toBe(4);
  });
});

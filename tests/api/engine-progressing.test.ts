import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, startTestApp, type TestApp, type TestUser } from '../helpers';
import { engineFor } from '../../server/src/engine/engine';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, setRules, startBlast, untilIdle } from './engine-fixtures';

type Message = { event: string; data: Record<string, unknown> };

let t: TestApp;
let member: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  // A send takes 100–300 ms, as a real one takes a moment, so its start is told before its result.
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 200, failureRate: 0 } });
  member = await t.user('member');
  account = await linkByQr(t, member, { phonenumber: '6281299990071', pushname: 'Progres' });
  await setRules(t.ctx.db, { intervalMin: 1, intervalMax: 1, price: 0, recipientCooldownHours: 24 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe("the blast's progressing event ('Generating...')", () => {
  it('is sent as each send starts, with the target and progress, before that target is counted', async () => {
    const targets = await addTargets(t, 2);
    await addTemplate(t.ctx.db);
    const socket = t.socket(member.token);
    await connected(socket);
    const got: Message[] = [];
    socket.on(String(member.id), (m: Message) => {
      if (m.data.id === account.id) got.push(m);
    });
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    await untilIdle(t, member, account.id);
    // The last events may still wait for their channel's batch window.
    await eventually(() => got.at(-1)?.event, (e) => e === 'finished');

    const progressing = got.filter((m) => m.event === 'progressing');
    expect(progressing.map((m) => m.data.target).sort()).toEqual(targets.map((x) => x.number).sort());
    for (const m of progressing) {
      expect(m.data).toMatchObject({ status: 'sending', progressing: true, number: m.data.target });
      expect(typeof m.data.progress).toBe('number');
      const at = got.indexOf(m);
      const counted = got.findIndex((c) => c.event === 'count_success' && c.data.number === m.data.target);
      expect(counted).toBeGreaterThan(at);
    }
    expect(got[got.length - 1]!.event).toBe('finished');
    socket.disconnect();
  });
});

import { describe, expect, it } from 'vitest';
import { RealtimeHub, type LiveMessage } from '../../server/src/realtime/hub';
import { COALESCE_MS, LiveRows } from '../../server/src/engine/live';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function recorder() {
  const hub = new RealtimeHub();
  const got: Array<{ channel: string; message: LiveMessage; at: number; flush: number }> = [];
  // A flush sends its messages synchronously: messages of one flush share a number even when the
  // clock ticks between them.
  let flush = 0;
  let open = false;
  let flushAt = 0;
  hub.onMessage((_room, channel, message) => {
    if (!open) {
      open = true;
      flush++;
      flushAt = Date.now();
      queueMicrotask(() => (open = false));
    }
    got.push({ channel, message, at: flushAt, flush });
  });
  return { hub, got };
}

describe('coalesced blast events', () => {
  it("tells a send's start even when its count and the wait that follows fall in the same window", async () => {
    const { hub, got } = recorder();
    const live = new LiveRows(hub);
    live.account(9, 4, 'sending', { id: 9, status: 'sending' });
    await sleep(80);
    live.account(9, 4, 'progressing', { id: 9, progressing: true, target: '6281100000001', count_success: 0 });
    live.account(9, 4, 'count_success', { id: 9, progressing: false, count_success: 1 });
    live.account(9, 4, 'waiting', { id: 9, waiting: true, waitTime: 1 });
    await sleep(400);
    const mine = got.filter((g) => g.channel === '4').map((g) => g.message);
    expect(mine.map((m) => m.event)).toEqual(['sending', 'progressing', 'count_success', 'waiting']);
    expect(mine[1]!.data).toMatchObject({ progressing: true, target: '6281100000001', count_success: 0 });
    expect(mine[3]!.data).toMatchObject({ progressing: false, waiting: true, count_success: 1 });
    live.close();
  });

  it('sends a busy row at most one flush per window, counts first, with the latest absolute values', async () => {
    const { hub, got } = recorder();
    const live = new LiveRows(hub);
    const started = Date.now();
    for (let i = 1; i <= 40; i++) {
      live.account(7, 3, 'sending', { id: 7, status: 'sending', count_success: i - 1 });
      live.account(7, 3, 'count_success', { id: 7, count_success: i });
      live.account(7, 3, 'waiting', { id: 7, waitTime: 1 });
      await sleep(10);
    }
    await sleep(300);
    const mine = got.filter((g) => g.channel === '3');
    // About 400 ms of events: a few flushes of at most two messages each, not 120 messages.
    const flushes = [...new Map(mine.map((g) => [g.flush, g.at])).values()];
    expect(flushes.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / COALESCE_MS));
    for (let i = 1; i < flushes.length; i++) expect(flushes[i]! - flushes[i - 1]!).toBeGreaterThanOrEqual(COALESCE_MS - 5);
    expect(mine.length).toBeLessThanOrEqual(2 * flushes.length);
    // A message's date is when its event happened, before the flush that sent it.
    for (const g of mine) expect(Date.parse(g.message.date)).toBeLessThanOrEqual(g.at);
    const last = mine[mine.length - 1]!.message;
    expect(last.event).toBe('waiting');
    expect(last.data).toMatchObject({ count_success: 40, waitTime: 1, status: 'sending' });
    expect(mine[mine.length - 2]!.message.event).toBe('count_success');
    // Every account message also reaches 'admin' and 'client-admin'.
    expect(got.filter((g) => g.channel === 'admin')).toHaveLength(mine.length);
    expect(got.filter((g) => g.channel === 'client-admin')).toHaveLength(mine.length);
    live.close();
  });

  it('sends an ending event at once, after the counts still pending', () => {
    const { hub, got } = recorder();
    const live = new LiveRows(hub);
    live.account(1, 2, 'count_fail', { id: 1, count_fail: 5 });
    live.account(1, 2, 'stop', { id: 1, status: 'idle' });
    expect(got.filter((g) => g.channel === '2').map((g) => [g.message.event, g.message.data])).toEqual([
      ['count_fail', { id: 1, count_fail: 5, status: 'idle' }],
      ['stop', { id: 1, count_fail: 5, status: 'idle' }],
    ]);
    live.close();
  });

  it("leaves out a phone number's in_use message when the claim and its release fall in one window", async () => {
    const { hub, got } = recorder();
    const live = new LiveRows(hub);
    live.target(9, 'in_use', { id: 9, in_use: 1 });
    live.target(9, 'count_success', { id: 9, in_use: 0, count_success: 1 });
    await sleep(120);
    expect(got.map((g) => g.message.event)).toEqual(['count_success']);
    expect(got[0]!.message.data).toEqual({ receiver: { id: 9, in_use: 0, count_success: 1 } });

    live.target(9, 'in_use', { id: 9, in_use: 1 });
    await sleep(320);
    live.target(9, 'count_fail', { id: 9, in_use: 0, count_fail: 1 });
    await sleep(320);
    expect(got.map((g) => g.message.event)).toEqual(['count_success', 'in_use', 'count_fail', 'in_use']);
    expect(got.map((g) => (g.message.data as { receiver: { in_use: number } }).receiver.in_use)).toEqual([0, 1, 0, 0]);
    expect(got.every((g) => g.channel === 'client-admin')).toBe(true);
    live.close();
  });
});

import { describe, expect, it } from 'vitest';
import { applyBlastEvent, blastLabel, isForRow, tick, unflash, type BlastRowFields } from './blastRow';

const row: BlastRowFields = {
  id: 5,
  deviceId: 'id-1-1',
  clientid: 'id-1-1',
  state: 'connected',
  status: 'idle',
  count_success: 3,
  count_fail: 1,
  income: 150,
  suspended: false,
  suspended_count: 0,
};
const sender = { id: 5, clientid: 'id-1-1' };

describe('blast events on an account row', () => {
  it('matches events by their sender block', () => {
    expect(isForRow(row, { sender })).toBe(true);
    expect(isForRow(row, { sender: { id: 6 }, deviceId: 'id-1-1' })).toBe(false);
    expect(isForRow(row, { deviceId: 'id-1-1' })).toBe(true);
  });

  it('sending shows Sending... and a count from any event flashes its counter', () => {
    const sending = applyBlastEvent(row, { event: 'sending', data: { sender, status: 'sending' } }, 1000);
    expect(blastLabel(sending)).toBe('Sending...');
    expect(sending.successUpdated).toBe(false);
    // A merged message: the count arrives on a 'waiting' event.
    const waiting = applyBlastEvent(sending, { event: 'waiting', data: { sender, status: 'sending', count_success: 4, income: 200, waitTime: 2 } }, 2000);
    expect(waiting).toMatchObject({ count_success: 4, income: 200, successUpdated: true, failUpdated: false, flashAt: 2000 });
    expect(blastLabel(waiting)).toBe('Waiting (2s)...');
    expect(unflash(waiting, 2500).successUpdated).toBe(true);
    expect(unflash(waiting, 3000).successUpdated).toBe(false);
  });

  it("progressing shows 'Generating...' until the attempt is counted or the wait starts", () => {
    const gen = applyBlastEvent(row, { event: 'progressing', data: { sender, status: 'sending', target: '6281200000001', progress: 12.5 } }, 1000);
    expect(gen).toMatchObject({ status: 'sending', progressing: true, generating: true });
    expect(blastLabel(gen)).toBe('Generating...');
    const counted = applyBlastEvent(gen, { event: 'count_success', data: { sender, status: 'sending', count_success: 4 } }, 1100);
    expect(blastLabel(counted)).toBe('Sending...');
    const waiting = applyBlastEvent(gen, { event: 'waiting', data: { sender, status: 'sending', waitTime: 3 } }, 1100);
    expect(blastLabel(waiting)).toBe('Waiting (3s)...');
    const attempting = applyBlastEvent(gen, { event: 'attempting', data: { sender, status: 'sending', code: 'timeout' } }, 1100);
    expect(blastLabel(attempting)).toBe('Fail, attempting (timeout)...');
    const stopped = applyBlastEvent(gen, { event: 'stop', data: { sender, status: 'idle' } }, 1200);
    expect(stopped.generating).toBe(false);
    expect(blastLabel(stopped)).toBeNull();
    expect(blastLabel({ ...gen, suspended: true })).toBeNull();
  });

  it('counts the wait down each second to 0, from when the wait ends', () => {
    const until = new Date(10_000 + 3000).toISOString();
    let r = applyBlastEvent({ ...row, status: 'sending' }, { event: 'waiting', data: { sender, waitTime: 3, waitUntil: until } }, 10_250);
    expect(r.waitTime).toBe(3);
    r = tick(r, 11_000);
    expect(blastLabel(r)).toBe('Waiting (2s)...');
    r = tick(r, 12_000);
    r = tick(r, 13_000);
    expect(r.waitTime).toBe(0);
    expect(blastLabel(r)).toBe('Sending...');
  });

  it('attempting shows the gateway code; stop, idle, finished and error_blast end the run', () => {
    const a = applyBlastEvent({ ...row, status: 'sending' }, { event: 'attempting', data: { sender, attemptingCode: 'timeout' } });
    expect(blastLabel(a)).toBe('Fail, attempting (timeout)...');
    for (const event of ['stop', 'idle', 'finished', 'error_blast']) {
      const ended = applyBlastEvent(a, { event, data: { sender, status: 'idle', count_fail: 2 } });
      expect(ended).toMatchObject({ status: 'idle', attempting: false, waiting: false, progressing: false, count_fail: 2, failUpdated: true });
      expect(blastLabel(ended)).toBeNull();
    }
  });

  it('leaves other events alone and hides labels while suspended', () => {
    expect(applyBlastEvent(row, { event: 'reset', data: { sender, count_success: 0 } })).toBe(row);
    expect(blastLabel({ ...row, status: 'sending', suspended: true })).toBeNull();
  });
});

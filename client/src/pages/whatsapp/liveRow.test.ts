import { describe, expect, it } from 'vitest';
import { accountLabel, applyLive, canReconnect, type AccountRow } from './liveRow';
import { blastLabel } from '../blaster/components/blastRow';

const row = (over: Partial<AccountRow> = {}): AccountRow => ({
  id: 1,
  deviceId: 'id-1-1',
  clientid: 'id-1-1',
  pushname: 'A',
  phonenumber: '6281',
  user_id: 9,
  state: 'connected',
  status: 'idle',
  interval: null,
  count_success: 3,
  count_fail: 1,
  income: 150,
  suspended: false,
  suspended_count: 0,
  ...over,
});

describe('live events on account rows', () => {
  it('applies connection.update by device id; conflict also sets idle', () => {
    const rows = [row({ status: 'sending' }), row({ id: 2, deviceId: 'id-2-2', clientid: 'id-2-2' })];
    const next = applyLive(rows, { event: 'connection.update', data: { deviceId: 'id-1-1', state: 'conflict' } });
    expect(next[0]).toMatchObject({ state: 'conflict', status: 'idle' });
    expect(next[1]).toBe(rows[1]);
  });

  it('ignores events for other rows, and bare ids of other kinds', () => {
    const rows = [row()];
    expect(applyLive(rows, { event: 'count_success', data: { id: 1, count_success: 99 } })).toBe(rows);
    expect(applyLive(rows, { event: 'count_success', data: { deviceId: 'other', count_success: 99 } })).toBe(rows);
  });

  it('counters are absolute and highlighted; count_synced sets both', () => {
    const [a] = applyLive([row()], { event: 'count_success', data: { deviceId: 'id-1-1', count_success: 10, income: 500 } });
    expect(a).toMatchObject({ count_success: 10, income: 500, successUpdated: true });
    const [b] = applyLive([row()], { event: 'count_synced', data: { deviceId: 'id-1-1', count_success: 0, count_fail: 0, income: 0 } });
    expect(b).toMatchObject({ count_success: 0, count_fail: 0, income: 0, successUpdated: true, failUpdated: true });
  });

  it('suspended marks the row and, above 2, takes the counters; activated lifts it', () => {
    const [s1] = applyLive([row()], { event: 'suspended', data: { sender: { id: 1 }, suspended: true, suspended_count: 1, count_success: 0 } });
    expect(s1).toMatchObject({ suspended: true, suspended_count: 1, count_success: 3 });
    const [s3] = applyLive([row()], { event: 'suspended', data: { deviceId: 'id-1-1', suspended_count: 3, count_success: 0, count_fail: 0, income: 0 } });
    expect(s3).toMatchObject({ suspended: true, suspended_count: 3, count_success: 0, income: 0 });
    const [on] = applyLive([s1!], { event: 'activated', data: { deviceId: 'id-1-1', suspended: false, suspended_count: 1 } });
    expect(on).toMatchObject({ suspended: false, suspended_count: 1 });
  });

  it('transient labels, hidden when suspended or reconnecting', () => {
    const [w] = applyLive([row({ status: 'sending' })], { event: 'waiting', data: { deviceId: 'id-1-1', waitTime: 7 } });
    expect(blastLabel(w!)).toBe('Waiting (7s)...');
    const [a] = applyLive([row()], { event: 'attempting', data: { deviceId: 'id-1-1', code: 'timeout' } });
    expect(blastLabel(a!)).toBe('Fail, attempting (timeout)...');
    const [r] = applyLive([a!], { event: 'reconnecting', data: { deviceId: 'id-1-1' } });
    expect(r!.state).toBe('reconnecting...');
    expect(blastLabel(r!)).toBeNull();
    const [idle] = applyLive([w!], { event: 'stop', data: { deviceId: 'id-1-1' } });
    expect(idle).toMatchObject({ status: 'idle', waiting: false });
    expect(blastLabel(idle!)).toBeNull();
  });

  it('Reconnect is offered for unset, disconnected, loggedOut, unknown and conflict, never when suspended', () => {
    for (const state of [null, 'disconnected', 'loggedOut', 'unknown', 'conflict']) expect(canReconnect(row({ state }))).toBe(true);
    expect(canReconnect(row({ state: 'connected' }))).toBe(false);
    expect(canReconnect(row({ state: 'disconnected', suspended: true }))).toBe(false);
  });
});

describe('the transient label as a locale key', () => {
  it('follows the blasting label rules', () => {
    const [w] = applyLive([row({ status: 'sending' })], { event: 'waiting', data: { deviceId: 'id-1-1', waitTime: 7 } });
    expect(accountLabel(w!)).toEqual({ key: 'whatsapp.labels.waiting', values: { seconds: 7 } });
    expect(accountLabel(row({ attempting: true, attempingCode: 'timeout' }))).toEqual({ key: 'whatsapp.labels.attempting', values: { code: 'timeout' } });
    expect(accountLabel(row({ status: 'sending' }))).toEqual({ key: 'whatsapp.labels.sending' });
    const [g] = applyLive([row({ status: 'sending' })], { event: 'progressing', data: { deviceId: 'id-1-1', target: '6281234567890' } });
    expect(accountLabel(g!)).toEqual({ key: 'whatsapp.labels.generating' });
    expect(accountLabel(row({ status: 'sending', suspended: true }))).toBeNull();
    expect(accountLabel(row({ status: 'sending', state: 'reconnecting...' }))).toBeNull();
    expect(accountLabel(row())).toBeNull();
  });

  it("outcomes: today's figures replace the row's, as absolute values; a malformed block changes nothing", () => {
    const rows = [row({ today: { sent: 4, delivered: 2, read: 1, failed: 0 } }), row({ id: 2, deviceId: 'id-2-2', clientid: 'id-2-2' })];
    const next = applyLive(rows, { event: 'outcomes', data: { id: 1, sender: { id: 1 }, today: { sent: 5, delivered: 5, read: 3, failed: 1 } } });
    expect(next[0]!.today).toEqual({ sent: 5, delivered: 5, read: 3, failed: 1 });
    expect(next[1]).toBe(rows[1]);
    const same = applyLive(next, { event: 'outcomes', data: { id: 1, sender: { id: 1 }, today: { sent: 'x' } } });
    expect(same[0]!.today).toEqual({ sent: 5, delivered: 5, read: 3, failed: 1 });
  });
});

describe("waiting for 'Jam Kirim'", () => {
  it("shows when the window opens, in Indonesian and English, until the next send starts", async () => {
    const i18next = (await import('i18next')).default;
    const en = (await import('../../locales/en/whatsapp.json')).default;
    const id = (await import('../../locales/id/whatsapp.json')).default;
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'id', resources: { id: { translation: { whatsapp: id } }, en: { translation: { whatsapp: en } } } });
    const [w] = applyLive([row({ status: 'sending' })], { event: 'window_wait', data: { sender: { id: 1, clientid: 'id-1-1' }, status: 'sending', windowOpensAt: '08:00' } });
    const label = accountLabel(w!)!;
    expect(label).toEqual({ key: 'whatsapp.labels.windowWait', values: { time: '08:00' } });
    expect(i18n.t(label.key, label.values ?? {})).toBe('Menunggu jam kirim (08:00)');
    expect(i18n.getFixedT("en")(label.key, label.values ?? {})).toBe('Waiting for sending hours (08:00)');
    const [g] = applyLive([w!], { event: 'progressing', data: { sender: { id: 1, clientid: 'id-1-1' }, target: '6281234567890' } });
    expect(accountLabel(g!)).toEqual({ key: 'whatsapp.labels.generating' });
    const [done] = applyLive([w!], { event: 'finished', data: { sender: { id: 1, clientid: 'id-1-1' }, status: 'idle' } });
    expect(accountLabel(done!)).toBeNull();
  });

  it('shows the wait as soon as the list is loaded, from the row the list gives, until an event says otherwise', () => {
    // The list's row of a blast waiting for the window carries the opening; others carry null.
    const loaded = row({ status: 'sending', windowOpensAt: '15:00' });
    expect(accountLabel(loaded)).toEqual({ key: 'whatsapp.labels.windowWait', values: { time: '15:00' } });
    expect(accountLabel(row({ status: 'sending', windowOpensAt: null }))).toEqual({ key: 'whatsapp.labels.sending' });
    expect(accountLabel(row({ status: 'idle', windowOpensAt: '15:00' }))).toBeNull();
    const [sent] = applyLive([loaded], { event: 'sending', data: { sender: { id: 1, clientid: 'id-1-1' }, status: 'sending' } });
    expect(accountLabel(sent!)).toEqual({ key: 'whatsapp.labels.sending' });
  });
});

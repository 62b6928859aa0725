import { describe, expect, it } from 'vitest';
import { applyReceiverEvent, type PhoneNumberRow } from '../../client/src/pages/phonenumber/live';

const row = (id: number): PhoneNumberRow => ({
  id,
  number: `62812000000${id}`,
  name: `N${id}`,
  status: 'active',
  in_use: 0,
  count_success: 1,
  count_fail: 0,
  last_sent: null,
  opt_out_reason: null,
});

describe('applyReceiverEvent', () => {
  it('sets the absolute values the event carries on the matching row only', () => {
    const rows = [row(1), row(2)];
    const { rows: next, changedId } = applyReceiverEvent(rows, {
      event: 'count_success',
      data: { receiver: { id: 2, count_success: 7, last_sent: '2024-06-01T00:00:00.000Z', in_use: 0, number: 'ignored' } },
    });
    expect(changedId).toBe(2);
    expect(next[1]).toMatchObject({ count_success: 7, last_sent: '2024-06-01T00:00:00.000Z', number: '628120000002' });
    expect(next[0]).toBe(rows[0]);
    expect(rows[1]!.count_success).toBe(1);
  });

  it('ignores events for rows not on the page and messages without a receiver', () => {
    const rows = [row(1)];
    expect(applyReceiverEvent(rows, { event: 'count_fail', data: { receiver: { id: 9, count_fail: 3 } } })).toEqual({ rows, changedId: null });
    expect(applyReceiverEvent(rows, { event: 'count_fail', data: null })).toEqual({ rows, changedId: null });
    expect(applyReceiverEvent(rows, { event: 'x', data: { receiver: { count_fail: 3 } } }).changedId).toBeNull();
  });

  it('marks an opted-out row nonactive with its reason', () => {
    const { rows } = applyReceiverEvent([row(1)], { event: 'opt_out', data: { receiver: { id: 1, status: 'nonactive', reason: 'Balasan STOP' } } });
    expect(rows[0]).toMatchObject({ status: 'nonactive', opt_out_reason: 'Balasan STOP' });
  });
});

import { describe, expect, it } from 'vitest';
import { EventRing, eventKeys } from '../../server/src/monitor/ring';

const msg = (event: string, data: unknown) => ({ event, data, date: new Date().toISOString() });

describe('monitor event ring', () => {
  it('finds device, client and account keys in event data', () => {
    expect(eventKeys({ deviceId: 'id-1', id: 7 }).sort()).toEqual(['7', 'id-1']);
    expect(eventKeys({ sender: { id: 3, clientid: 'id-2' } }).sort()).toEqual(['3', 'id-2']);
    expect(eventKeys({ receiver: { id: 5 } })).toEqual([]);
    expect(eventKeys(null)).toEqual([]);
  });

  it('keeps at most perKey events per device, newest first', () => {
    const ring = new EventRing(500);
    for (let i = 0; i < 1200; i++) ring.record('admin', msg('waiting', { deviceId: 'id-1', waitTime: i }));
    const recent = ring.recent('id-1');
    expect(recent).toHaveLength(500);
    expect((recent[0]!.data as { waitTime: number }).waitTime).toBe(1199);
    expect((recent[499]!.data as { waitTime: number }).waitTime).toBe(700);
  });

  it('records an event sent to several rooms once', () => {
    const ring = new EventRing();
    const data = { deviceId: 'id-9', state: 'connected' };
    ring.record('9', msg('connection.update', data));
    ring.record('admin', msg('connection.update', data));
    expect(ring.recent('id-9')).toHaveLength(1);
  });

  it('bounds the number of devices it remembers', () => {
    const ring = new EventRing(5, 100);
    for (let i = 0; i < 250; i++) ring.record('admin', msg('x', { deviceId: `d${i}` }));
    expect(ring.size).toBe(100);
    expect(ring.recent('d0')).toEqual([]);
    expect(ring.recent('d249')).toHaveLength(1);
  });

  it('bounds the events kept overall, forgetting the least recently active devices first', () => {
    const ring = new EventRing(500, 5000, 1000);
    for (let i = 0; i < 20; i++) for (let j = 0; j < 100; j++) ring.record('admin', msg('x', { deviceId: `d${i}`, n: j }));
    ring.record('admin', msg('x', { deviceId: 'd0', n: 'again' }));
    expect(ring.entries).toBeLessThanOrEqual(1000);
    expect(ring.recent('d19')).toHaveLength(100);
    expect(ring.recent('d0')).toHaveLength(1);
    expect(ring.recent('d1')).toEqual([]);
  });
});

import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveEvent } from '@refinedev/core';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveProvider, toLiveMessage, unpackMessages } from '../../client/src/providers/live';
import { BATCH_EVENT, BATCH_WINDOW_MS, RealtimeHub, rooms } from '../../server/src/realtime/hub';

let http: HttpServer;
let ioServer: Server;
let client: Socket;
const hub = new RealtimeHub();

beforeAll(async () => {
  http = createServer();
  ioServer = new Server(http);
  // As the real server does for an admin's token: join the admin room.
  ioServer.on('connection', (s) => void s.join(rooms.admin));
  // No socket here carries a token to re-check; the provider test only needs the hub to send.
  hub.attach(ioServer, async () => null);
  await new Promise<void>((resolve) => http.listen(0, resolve));
  const { port } = http.address() as AddressInfo;
  client = connect(`http://localhost:${port}`, { transports: ['websocket'] });
  await new Promise<void>((resolve) => client.on('connect', () => resolve()));
});

afterAll(async () => {
  client.disconnect();
  await new Promise<void>((resolve) => ioServer.close(() => resolve()));
});

/** Waits until the server's room sees the client (joins are asynchronous). */
async function roomReady(): Promise<void> {
  for (let i = 0; i < 50 && !(ioServer.sockets.adapter.rooms.get(rooms.admin)?.size ?? 0); i++) await new Promise((r) => setTimeout(r, 10));
}

const settle = () => new Promise((r) => setTimeout(r, 100));
/** Sends what the hub holds for its window now, and gives it time to arrive. */
const delivered = async () => {
  hub.flush();
  await settle();
};

describe('live provider on socket.io', () => {
  it('delivers the server messages of a channel as Refine live events until unsubscribed', async () => {
    await roomReady();
    const provider = createLiveProvider(() => client);
    const got: LiveEvent[] = [];
    const sub = provider.subscribe({ channel: 'admin', types: ['*'], callback: (e) => got.push(e) });

    hub.toAdmin('count_success', { id: 7, count_success: 12, count_fail: 3 });
    await delivered();
    expect(got).toHaveLength(1);
    expect(got[0]!.channel).toBe('admin');
    expect(got[0]!.type).toBe('count_success');
    expect(got[0]!.payload).toEqual({ id: 7, count_success: 12, count_fail: 3 });
    const msg = toLiveMessage<{ count_success: number }>(got[0]!);
    expect(msg.event).toBe('count_success');
    expect(msg.data.count_success).toBe(12);
    expect(Number.isNaN(Date.parse(msg.date))).toBe(false);

    provider.unsubscribe(sub);
    hub.toAdmin('count_success', { id: 7, count_success: 13, count_fail: 3 });
    await delivered();
    expect(got).toHaveLength(1);
  });

  it('filters by event type and ignores other channels and Refine resource channels', async () => {
    await roomReady();
    const provider = createLiveProvider(() => client);
    const typed: LiveEvent[] = [];
    const other: LiveEvent[] = [];
    const a = provider.subscribe({ channel: 'admin', types: ['idle'], callback: (e) => typed.push(e) });
    const b = provider.subscribe({ channel: 'client-admin', types: ['*'], callback: (e) => other.push(e) });
    expect(provider.subscribe({ channel: 'resources/phonenumber', types: ['*'], callback: () => undefined })).toBeNull();

    hub.toAdmin('count_fail', { id: 1 });
    hub.toAdmin('idle', { id: 1, status: 'idle' });
    await delivered();
    expect(typed.map((e) => e.type)).toEqual(['idle']);
    // The client is not in the client-admin room, so nothing arrives there.
    expect(other).toHaveLength(0);
    provider.unsubscribe(a);
    provider.unsubscribe(b);
  });

  it("hands a batch's messages to the callback one by one, in order, filtered by type", async () => {
    await roomReady();
    const provider = createLiveProvider(() => client);
    const all: LiveEvent[] = [];
    const counts: LiveEvent[] = [];
    const raw: Array<{ event: string; data: unknown }> = [];
    const rawListener = (m: { event: string; data: unknown }) => raw.push(m);
    client.on('admin', rawListener);
    const a = provider.subscribe({ channel: 'admin', types: ['*'], callback: (e) => all.push(e) });
    const b = provider.subscribe({ channel: 'admin', types: ['count_success'], callback: (e) => counts.push(e) });

    // The first goes out at once (after a quiet window); the three after it wait and travel together.
    await new Promise((r) => setTimeout(r, BATCH_WINDOW_MS));
    hub.toAdmin('progressing', { id: 4, progressing: true });
    hub.toAdmin('count_success', { id: 4, count_success: 1 });
    hub.toAdmin('waiting', { id: 4, waitTime: 2 });
    hub.toAdmin('count_success', { id: 5, count_success: 8 });
    for (let i = 0; i < 100 && all.length < 4; i++) await new Promise((r) => setTimeout(r, 20));

    expect(raw.map((m) => m.event)).toEqual(['progressing', BATCH_EVENT]);
    expect((raw[1]!.data as Array<{ event: string }>).map((m) => m.event)).toEqual(['count_success', 'waiting', 'count_success']);
    expect(all.map((e) => [e.type, e.payload])).toEqual([
      ['progressing', { id: 4, progressing: true }],
      ['count_success', { id: 4, count_success: 1 }],
      ['waiting', { id: 4, waitTime: 2 }],
      ['count_success', { id: 5, count_success: 8 }],
    ]);
    expect(all.every((e) => e.channel === 'admin' && !Number.isNaN(e.date.getTime()))).toBe(true);
    expect(counts.map((e) => e.payload)).toEqual([{ id: 4, count_success: 1 }, { id: 5, count_success: 8 }]);
    expect(unpackMessages({ event: 'idle', data: { id: 1 }, date: 'x' })).toEqual([{ event: 'idle', data: { id: 1 }, date: 'x' }]);
    expect(unpackMessages('not a message')).toEqual([]);
    provider.unsubscribe(a);
    provider.unsubscribe(b);
    client.off('admin', rawListener);
  });

  it('subscribes to nothing without a socket (signed out)', () => {
    const provider = createLiveProvider(() => null);
    expect(provider.subscribe({ channel: 'admin', types: ['*'], callback: () => undefined })).toBeNull();
    expect(() => provider.unsubscribe(null)).not.toThrow();
  });
});

describe('live provider before the socket is ready', () => {
  it('attaches once the socket arrives, and not at all when unsubscribed first', async () => {
    await roomReady();
    let release: (s: Socket) => void = () => undefined;
    const ready = new Promise<Socket>((r) => (release = r));
    const provider = createLiveProvider(() => null, () => ready);
    const early: LiveEvent[] = [];
    const dropped: LiveEvent[] = [];
    provider.subscribe({ channel: 'admin', types: ['*'], callback: (e) => early.push(e) });
    const gone = provider.subscribe({ channel: 'admin', types: ['*'], callback: (e) => dropped.push(e) });
    provider.unsubscribe(gone);
    release(client);
    await ready;
    await settle();
    hub.toAdmin('waiting', { id: 2, waitTime: 5 });
    await delivered();
    expect(early.map((e) => e.payload)).toEqual([{ id: 2, waitTime: 5 }]);
    expect(dropped).toHaveLength(0);
  });
});

import { useSubscription, type LiveEvent, type LiveProvider } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import { unpackMessages, type LiveMessage } from '../../../common/live';
import { getToken } from '../lib/session';

export { unpackMessages, type LiveMessage };

type SocketClient = typeof import('socket.io-client');

// The socket client is fetched once someone subscribes, so /signin does not download it.
let client: SocketClient | null = null;
let clientLoading: Promise<SocketClient> | null = null;
let socket: Socket | null = null;
let socketToken: string | null = null;

export function loadSocketClient(): Promise<SocketClient> {
  clientLoading ??= import('socket.io-client').then((m) => (client = m));
  return clientLoading;
}

/**
 * One socket per signed-in session, opened with the token in the handshake; null when signed out or
 * while the socket client is still loading (it starts loading then).
 */
export function getSocket(): Socket | null {
  const token = getToken();
  if (!token) {
    closeSocket();
    return null;
  }
  if (socket && socketToken === token) return socket;
  if (!client) {
    void loadSocketClient();
    return null;
  }
  closeSocket();
  socketToken = token;
  socket = client.io({ auth: { token }, transports: ['websocket', 'polling'] });
  return socket;
}

/** The session's socket once the client has loaded (null when signed out). */
export async function whenSocket(): Promise<Socket | null> {
  await loadSocketClient();
  return getSocket();
}

export function closeSocket(): void {
  socket?.disconnect();
  socket = null;
  socketToken = null;
}

interface Subscription {
  socket: Socket | null;
  channel: string;
  listener: (msg: unknown) => void;
  cancelled: boolean;
}

/**
 * Refine's live provider over the server's socket.io channels ('{userId}', 'admin', 'client-admin').
 * A server message `{ event, data, date }` becomes a LiveEvent whose `type` is the event and whose
 * `payload` is the data (absolute values); a `batch` message becomes its messages' events, in order. Refine's own `resources/*` channels have no server side:
 * rows are patched by the pages from the spec's events, so those subscriptions are empty.
 * `later` gives the socket when it is not ready yet (the client still loading).
 */
export function createLiveProvider(socketFor: () => Socket | null = getSocket, later?: () => Promise<Socket | null>): LiveProvider {
  return {
    subscribe: ({ channel, types, callback }): Subscription | null => {
      if (!channel || channel.startsWith('resources/')) return null;
      const all = types.length === 0 || types.includes('*');
      const listener = (raw: unknown) => {
        for (const msg of unpackMessages(raw)) {
          if (!all && !types.includes(msg.event)) continue;
          const date = new Date(msg.date);
          callback({ channel, type: msg.event, payload: msg.data as LiveEvent['payload'], date: Number.isNaN(date.getTime()) ? new Date() : date });
        }
      };
      const sub: Subscription = { socket: null, channel, listener, cancelled: false };
      const attach = (s: Socket | null) => {
        if (!s || sub.cancelled) return;
        sub.socket = s;
        s.on(channel, listener);
      };
      const now = socketFor();
      if (now) attach(now);
      else if (later) void later().then(attach);
      else return null;
      return sub;
    },
    unsubscribe: (sub: Subscription | null) => {
      if (!sub) return;
      sub.cancelled = true;
      sub.socket?.off(sub.channel, sub.listener);
    },
  };
}

export const liveProvider = createLiveProvider(getSocket, whenSocket);

/** A LiveEvent back in the server's message shape, which the pages' row patches read. */
export function toLiveMessage<T>(event: LiveEvent): LiveMessage<T> {
  return { event: event.type, data: event.payload as T, date: event.date.toISOString() };
}

/**
 * Listens on a channel ('{userId}', 'admin', 'client-admin') while mounted, through Refine's
 * `useSubscription`. The handler may change between renders without re-subscribing; a new channel
 * re-subscribes (useSubscription only follows `enabled`, so the hook turns it off for one render).
 */
export function useLive<T = Record<string, unknown>>(channel: string | null | undefined, handler: (msg: LiveMessage<T>) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  const [active, setActive] = useState(channel);
  useEffect(() => {
    if (active !== channel) setActive(channel);
  }, [active, channel]);
  useSubscription({
    channel: channel ?? '',
    enabled: Boolean(channel) && active === channel,
    types: ['*'],
    onLiveEvent: (event) => ref.current(toLiveMessage<T>(event)),
  });
}

import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { getToken } from '../lib/session';

export interface LiveMessage<T = Record<string, unknown>> {
  event: string;
  data: T;
  date: string;
}

let socket: Socket | null = null;
let socketToken: string | null = null;

/** One socket per signed-in session, opened with the token in the handshake. */
export function getSocket(): Socket | null {
  const token = getToken();
  if (!token) {
    closeSocket();
    return null;
  }
  if (socket && socketToken === token) return socket;
  closeSocket();
  socketToken = token;
  socket = io({ auth: { token }, transports: ['websocket', 'polling'] });
  return socket;
}

export function closeSocket(): void {
  socket?.disconnect();
  socket = null;
  socketToken = null;
}

/**
 * Listens on a channel ('{userId}', 'admin', 'client-admin') while mounted. The handler may change
 * between renders without re-subscribing.
 */
export function useLive<T = Record<string, unknown>>(channel: string | null | undefined, handler: (msg: LiveMessage<T>) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!channel) return;
    const s = getSocket();
    if (!s) return;
    const listener = (msg: LiveMessage<T>) => ref.current(msg);
    s.on(channel, listener);
    return () => {
      s.off(channel, listener);
    };
  }, [channel]);
}

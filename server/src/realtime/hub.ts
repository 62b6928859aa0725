import type { Server as IoServer, Socket } from 'socket.io';
import type { Role } from '../../../common/roles';

export interface LiveMessage<T = unknown> {
  event: string;
  data: T;
  date: string;
}

/** Room names. A member only ever joins their own user room. */
export const rooms = {
  user: (userId: number) => `user:${userId}`,
  admin: 'admin',
  clientAdmin: 'client-admin',
} as const;

export interface SocketIdentity {
  userId: number;
  role: Role;
  token: string;
}

type Listener = (room: string, channel: string, message: LiveMessage) => void;

/**
 * The one place events leave the server. Channels are socket.io event names the client listens on
 * ('{userId}', 'admin', 'client-admin'); rooms decide who receives them.
 */
export class RealtimeHub {
  private io: IoServer | null = null;
  private listeners = new Set<Listener>();

  attach(io: IoServer): void {
    this.io = io;
  }

  /** Observers (the developer monitor's ring buffer) see every message sent. */
  onMessage(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private send(room: string, channel: string, event: string, data: unknown): void {
    const message: LiveMessage = { event, data, date: new Date().toISOString() };
    for (const l of this.listeners) l(room, channel, message);
    // socket.io encodes a packet even for a room nobody is in; most member rooms are empty.
    if (this.io && (this.io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0) this.io.to(room).emit(channel, message);
  }

  /** To a member's own channel (named by their id) and to admin/dev on 'admin'. */
  toUserAndAdmin(userId: number, event: string, data: unknown): void {
    this.send(rooms.user(userId), String(userId), event, data);
    this.send(rooms.admin, 'admin', event, data);
  }

  toUser(userId: number, event: string, data: unknown): void {
    this.send(rooms.user(userId), String(userId), event, data);
  }

  toAdmin(event: string, data: unknown): void {
    this.send(rooms.admin, 'admin', event, data);
  }

  /** Phone-number row updates and the developer's realtime monitor. */
  toClientAdmin(event: string, data: unknown): void {
    this.send(rooms.clientAdmin, 'client-admin', event, data);
  }

  private sockets(): Socket[] {
    return this.io ? [...this.io.of('/').sockets.values()] : [];
  }

  /** User ids with at least one open socket, by role. */
  connectedUserIds(role?: Role): Set<number> {
    const ids = new Set<number>();
    for (const s of this.sockets()) {
      const who = s.data as Partial<SocketIdentity>;
      if (who.userId !== undefined && (!role || who.role === role)) ids.add(who.userId);
    }
    return ids;
  }

  disconnectUser(userId: number): void {
    for (const s of this.sockets()) if ((s.data as Partial<SocketIdentity>).userId === userId) s.disconnect(true);
  }

  disconnectToken(token: string): void {
    for (const s of this.sockets()) if ((s.data as Partial<SocketIdentity>).token === token) s.disconnect(true);
  }
}

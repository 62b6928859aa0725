import crypto from 'node:crypto';
import type { Server as IoServer, Socket } from 'socket.io';
import type { Role } from '../../../common/roles';
import { BATCH_EVENT } from '../../../common/live';

export interface LiveMessage<T = unknown> {
  event: string;
  data: T;
  date: string;
}

/** Room names. A member only ever joins their own user room (and its presence room, which gets no events). */
export const rooms = {
  user: (userId: number) => `user:${userId}`,
  admin: 'admin',
  clientAdmin: 'client-admin',
  /** Presence: who is connected, by role, read from room names on every node. Nothing is sent to it. */
  online: (role: Role, userId: number) => `online:${role}:${userId}`,
} as const;

const ONLINE = /^online:([a-z]+):(\d+)$/;

/** A token as other nodes are told it: its SHA-256, so the token itself never travels through Redis. */
const tokenKey = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface SocketIdentity {
  userId: number;
  role: Role;
  token: string;
  /** When the token expires (ms since the epoch); the socket is closed then. */
  expiresAt: number;
}

/** Re-reads a token: the user's current role, or null when the token no longer stands. */
export type TokenCheck = (token: string) => Promise<{ role: Role } | null>;

/** The rooms a role's socket belongs in. A member only ever joins their own user room. */
export function roomsFor(userId: number, role: Role): string[] {
  const own = [rooms.user(userId), rooms.online(role, userId)];
  return role === 'admin' || role === 'dev' ? [...own, rooms.admin, rooms.clientAdmin] : own;
}

type Listener = (room: string, channel: string, message: LiveMessage) => void;

/** A room+channel sends at most one socket message per window (see RealtimeHub). */
export const BATCH_WINDOW_MS = 250;

export { BATCH_EVENT };

interface Outbox {
  room: string;
  channel: string;
  /** When the last socket message of this room+channel went out (ms since the epoch). */
  lastSent: number;
  queue: LiveMessage[];
  timer: NodeJS.Timeout | null;
}

/** What a node asks the others to do to their sockets (socket.io server-side events). */
const NODE_EVENTS = { recheckUser: 'hub:recheck-user', disconnectUser: 'hub:disconnect-user', disconnectToken: 'hub:disconnect-token' } as const;

/**
 * The one place events leave the server. Channels are socket.io event names the client listens on
 * ('{userId}', 'admin', 'client-admin'); rooms decide who receives them.
 *
 * Each room+channel sends at most one socket message per window: a message goes out at once when
 * nothing went out there during the last window; otherwise it waits for the window's end, and the
 * messages that waited go out together as one `{ event: 'batch', data: [messages in order], date }`
 * (a lone one as itself). So a socket receives a bounded number of messages a second however fast
 * events are made, and a quiet channel has no delay. Observers still see every message as it is made.
 */
export class RealtimeHub {
  private io: IoServer | null = null;
  private listeners = new Set<Listener>();
  private check: TokenCheck | null = null;
  private outboxes = new Map<string, Outbox>();

  /** With other nodes (a shared adapter), rooms may have members elsewhere: always publish. */
  private shared = false;

  constructor(private readonly windowMs = BATCH_WINDOW_MS) {}

  attach(io: IoServer, check: TokenCheck, shared = false, log: (msg: string, err?: unknown) => void = () => undefined): void {
    this.io = io;
    this.check = check;
    this.shared = shared;
    this.log = log;
    if (shared) {
      // What another node asks of the sockets connected here (serverSideEmit reaches the other nodes only).
      io.on(NODE_EVENTS.recheckUser, (userId: number) => void this.recheckLocal(userId));
      io.on(NODE_EVENTS.disconnectUser, (userId: number) => this.disconnectLocal((who) => who.userId === userId));
      io.on(NODE_EVENTS.disconnectToken, (key: string) => this.disconnectLocal((who) => who.token !== undefined && tokenKey(who.token) === key));
    }
  }

  private log: (msg: string, err?: unknown) => void = () => undefined;

  /** Asks every other node to do the same to its own sockets. */
  private tellOtherNodes(event: string, arg: number | string): void {
    if (this.shared) this.io?.serverSideEmit(event, arg);
  }

  /** Observers (the developer monitor's ring buffer) see every message sent. */
  onMessage(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private send(room: string, channel: string, event: string, data: unknown, at?: number): void {
    const now = Date.now();
    const message: LiveMessage = { event, data, date: new Date(at ?? now).toISOString() };
    for (const l of this.listeners) l(room, channel, message);
    // socket.io encodes a packet even for a room nobody is in; most member rooms are empty. With other
    // nodes the room's members may be connected there, so the adapter gets every event.
    if (!this.io || !(this.shared || (this.io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0)) return;
    const key = `${channel}\u0000${room}`;
    let box = this.outboxes.get(key);
    if (!box) {
      box = { room, channel, lastSent: 0, queue: [], timer: null };
      this.outboxes.set(key, box);
    }
    if (box.queue.length === 0 && now - box.lastSent >= this.windowMs) {
      box.lastSent = now;
      this.emit(room, channel, message);
      return;
    }
    box.queue.push(message);
    if (!box.timer) {
      const b = box;
      box.timer = setTimeout(() => this.flushBox(key, b), Math.max(0, b.lastSent + this.windowMs - now));
      box.timer.unref();
    }
  }

  private flushBox(key: string, box: Outbox): void {
    if (box.timer) clearTimeout(box.timer);
    box.timer = null;
    const queued = box.queue;
    if (queued.length === 0) return;
    box.queue = [];
    box.lastSent = Date.now();
    this.emit(box.room, box.channel, queued.length === 1 ? queued[0]! : { event: BATCH_EVENT, data: queued, date: new Date(box.lastSent).toISOString() });
    // Quiet boxes of rooms nobody is in any more are forgotten (their next message goes out at once anyway).
    if (!this.shared && !(this.io?.sockets.adapter.rooms.get(box.room)?.size ?? 0)) this.outboxes.delete(key);
  }

  private emit(room: string, channel: string, message: LiveMessage): void {
    this.io?.to(room).emit(channel, message);
  }

  /** Sends every waiting message now (shutdown, before socket.io closes). */
  flush(): void {
    for (const [key, box] of this.outboxes) this.flushBox(key, box);
  }

  /**
   * To a member's own channel (named by their id) and to admin/dev on 'admin'. `at` is when the event
   * happened (the message's `date`) when it was held back before reaching the hub; now by default.
   */
  toUserAndAdmin(userId: number, event: string, data: unknown, at?: number): void {
    this.send(rooms.user(userId), String(userId), event, data, at);
    this.send(rooms.admin, 'admin', event, data, at);
  }

  toUser(userId: number, event: string, data: unknown): void {
    this.send(rooms.user(userId), String(userId), event, data);
  }

  toAdmin(event: string, data: unknown): void {
    this.send(rooms.admin, 'admin', event, data);
  }

  /** Phone-number row updates and the developer's realtime monitor. */
  toClientAdmin(event: string, data: unknown, at?: number): void {
    this.send(rooms.clientAdmin, 'client-admin', event, data, at);
  }

  private sockets(): Socket[] {
    return this.io ? [...this.io.of('/').sockets.values()] : [];
  }

  /**
   * User ids with at least one open socket, by role, on every node: read from the presence rooms' names
   * (with other nodes the adapter asks them for their room names only; if they do not answer in time,
   * this node's own rooms).
   */
  async connectedUserIds(role?: Role): Promise<Set<number>> {
    let names: Iterable<string> = this.io ? this.io.sockets.adapter.rooms.keys() : [];
    const adapter = this.io?.sockets.adapter as { allRooms?: () => Promise<Set<string>> } | undefined;
    if (this.shared && adapter?.allRooms) {
      try {
        names = await adapter.allRooms();
      } catch {
        // Another node did not answer in time: this node's own rooms (read above).
      }
    }
    const ids = new Set<number>();
    for (const name of names) {
      const m = ONLINE.exec(name);
      if (m && (!role || m[1] === role)) ids.add(Number(m[2]));
    }
    return ids;
  }

  /**
   * After a user's role, password or session epoch changed: every open socket of theirs whose token
   * no longer stands is closed, on every node; the others move to the rooms of the user's current role.
   */
  async recheckUser(userId: number): Promise<void> {
    this.tellOtherNodes(NODE_EVENTS.recheckUser, userId);
    await this.recheckLocal(userId);
  }

  /** Never rejects: a failed token read (the database away) is logged, and the sockets stay as they are. */
  private async recheckLocal(userId: number): Promise<void> {
    try {
      await this.recheckSockets(userId);
    } catch (err) {
      this.log(`Re-checking the live connections of user ${userId} failed`, err);
    }
  }

  private async recheckSockets(userId: number): Promise<void> {
    const mine = this.sockets().filter((s) => (s.data as Partial<SocketIdentity>).userId === userId);
    for (const s of mine) {
      const who = s.data as SocketIdentity;
      const now = this.check ? await this.check(who.token) : null;
      if (!now) {
        s.disconnect(true);
        continue;
      }
      who.role = now.role;
      const wanted = new Set(roomsFor(userId, now.role));
      for (const room of [...s.rooms]) if (room !== s.id && !wanted.has(room)) void s.leave(room);
      for (const room of wanted) void s.join(room);
    }
  }

  /** Closes every socket of the user, on every node. */
  disconnectUser(userId: number): void {
    this.tellOtherNodes(NODE_EVENTS.disconnectUser, userId);
    this.disconnectLocal((who) => who.userId === userId);
  }

  /** Closes every socket signed in with the token (sign-out), on every node. */
  disconnectToken(token: string): void {
    this.tellOtherNodes(NODE_EVENTS.disconnectToken, tokenKey(token));
    this.disconnectLocal((who) => who.token === token);
  }

  private disconnectLocal(match: (who: Partial<SocketIdentity>) => boolean): void {
    for (const s of this.sockets()) if (match(s.data as Partial<SocketIdentity>)) s.disconnect(true);
  }
}

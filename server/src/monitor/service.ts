import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users, whatsapps } from '../db/schema';
import { EventRing } from './ring';
import { engineFor } from '../engine/engine';

/** One entry of the local or remote view; `type` says what it describes. */
export type MonitorEntry = { type: 'process' | 'session' | 'linking' | 'device' } & Record<string, unknown>;

/** The developer monitor's sources: the event ring fed by every live message, plus the process itself. */
export class Monitor {
  readonly ring = new EventRing();
  private lastEvent = new Map<string, { event: string; date: string }>();
  private readonly stop: () => void;

  constructor(private ctx: AppContext) {
    this.stop = ctx.realtime.onMessage((_room, channel, message) => {
      this.ring.record(channel, message);
      const d = message.data as { deviceId?: unknown } | null;
      if (d && typeof d === 'object' && typeof d.deviceId === 'string') this.lastEvent.set(d.deviceId, { event: message.event, date: message.date });
    });
  }

  close(): void {
    this.stop();
  }

  /**
   * This process's view as an array of entries (spec: "an array of data"): the process first, then
   * one entry per account with its gateway session and blast loop, then devices being linked.
   */
  async local(): Promise<MonitorEntry[]> {
    const rows = await this.ctx.db
      .select({ w: whatsapps, firstname: users.firstname, lastname: users.lastname, email: users.email })
      .from(whatsapps)
      .leftJoin(users, eq(users.id, whatsapps.userId))
      .orderBy(asc(whatsapps.id));
    const loops = new Map(engineFor(this.ctx).describeLoops().map((l) => [l.accountId, l]));
    const sessions = rows.map(({ w, firstname, lastname, email }): MonitorEntry => {
      const snap = this.ctx.gateway.snapshot(w.deviceId);
      const last = this.lastEvent.get(w.deviceId) ?? null;
      return {
        type: 'session',
        deviceId: w.deviceId,
        accountId: w.id,
        owner: { id: w.userId, name: `${firstname ?? ''} ${lastname ?? ''}`.trim(), email },
        state: w.state,
        gatewayState: this.ctx.gateway.state(w.deviceId),
        phase: snap?.phase ?? null,
        status: w.status,
        interval: w.interval,
        suspended: w.suspended,
        reconnectTime: w.reconnectCount,
        loop: loops.get(w.id) ?? null,
        lastEvent: last?.event ?? null,
        lastEventAt: last?.date ?? null,
      };
    });
    const known = new Set(rows.map((r) => r.w.deviceId));
    // Sessions the gateway holds with no account row yet: devices being linked right now.
    const linking = this.ctx.gateway
      .sessions()
      .filter((snap) => !known.has(snap.deviceId))
      .map((snap): MonitorEntry => ({ type: 'linking', ...snap }));
    const mem = process.memoryUsage();
    const proc: MonitorEntry = {
      type: 'process',
      pid: process.pid,
      node: process.version,
      uptimeSeconds: Math.round(process.uptime()),
      memory: { rss: mem.rss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external },
      gateway: this.ctx.gateway.kind,
    };
    return [proc, ...sessions, ...linking];
  }

  /** The gateway's own view of one device: one entry, or none for a device it does not know. */
  remote(id: string): MonitorEntry[] {
    const record = this.ctx.gateway.inspect(id);
    return record ? [{ type: 'device', deviceId: id, ...record }] : [];
  }

  socket(id: string) {
    return this.ring.recent(id);
  }
}

import type { LiveMessage } from '../realtime/hub';

export interface RecordedEvent {
  channel: string;
  event: string;
  date: string;
  data: unknown;
}

/** Keys an event belongs to: its device id / client id and its account id, wherever the data carries them. */
export function eventKeys(data: unknown): string[] {
  if (!data || typeof data !== 'object') return [];
  const d = data as Record<string, unknown>;
  const keys = new Set<string>();
  const add = (v: unknown) => {
    if ((typeof v === 'string' && v) || (typeof v === 'number' && Number.isFinite(v))) keys.add(String(v));
  };
  add(d.deviceId);
  add(d.clientid);
  add(d.whatsappId);
  add(d.whatsappClientId);
  const sender = d.sender;
  if (sender && typeof sender === 'object') {
    const s = sender as Record<string, unknown>;
    add(s.id);
    add(s.clientid);
    add(s.deviceId);
  }
  // Account rows sent whole carry their own id with a device id beside it.
  if (typeof d.deviceId === 'string' || typeof d.clientid === 'string') add(d.id);
  return [...keys];
}

/**
 * The last events per device or account, newest first. Bounded per key, in the number of keys and
 * in the events kept overall (the least recently active devices are forgotten first), so a busy or
 * long-running server cannot grow it without end.
 */
export class EventRing {
  private byKey = new Map<string, RecordedEvent[]>();
  private lastData: unknown = undefined;
  private total = 0;

  constructor(
    readonly perKey = 500,
    readonly maxKeys = 5_000,
    readonly maxEntries = 100_000,
  ) {}

  private evictOldest(): void {
    const oldest = this.byKey.keys().next();
    if (oldest.done) return;
    this.total -= this.byKey.get(oldest.value)?.length ?? 0;
    this.byKey.delete(oldest.value);
  }

  record(channel: string, message: LiveMessage): void {
    // One event sent to several rooms shares its data object: keep it once.
    if (message.data === this.lastData && message.data !== undefined) return;
    this.lastData = message.data;
    const keys = eventKeys(message.data);
    if (!keys.length) return;
    const entry: RecordedEvent = { channel, event: message.event, date: message.date, data: message.data };
    for (const key of keys) {
      let list = this.byKey.get(key);
      if (list) {
        // Most recently active last: the Map's order is the eviction order.
        this.byKey.delete(key);
      } else {
        if (this.byKey.size >= this.maxKeys) this.evictOldest();
        list = [];
      }
      this.byKey.set(key, list);
      list.push(entry);
      this.total += 1;
      if (list.length > this.perKey) {
        const extra = list.length - this.perKey;
        list.splice(0, extra);
        this.total -= extra;
      }
    }
    while (this.total > this.maxEntries && this.byKey.size > 1) this.evictOldest();
  }

  /** Newest first. */
  recent(key: string): RecordedEvent[] {
    return [...(this.byKey.get(key) ?? [])].reverse();
  }

  get size(): number {
    return this.byKey.size;
  }

  get entries(): number {
    return this.total;
  }
}

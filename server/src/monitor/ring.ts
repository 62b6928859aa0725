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
 * The last events per device or account, newest first, bounded per key and in the number of keys,
 * so a busy or long-running server cannot grow it without end.
 */
export class EventRing {
  private byKey = new Map<string, RecordedEvent[]>();
  private lastData: unknown = undefined;

  constructor(
    readonly perKey = 500,
    readonly maxKeys = 20_000,
  ) {}

  record(channel: string, message: LiveMessage): void {
    // One event sent to several rooms shares its data object: keep it once.
    if (message.data === this.lastData && message.data !== undefined) return;
    this.lastData = message.data;
    const keys = eventKeys(message.data);
    if (!keys.length) return;
    const entry: RecordedEvent = { channel, event: message.event, date: message.date, data: message.data };
    for (const key of keys) {
      let list = this.byKey.get(key);
      if (!list) {
        if (this.byKey.size >= this.maxKeys) {
          const oldest = this.byKey.keys().next().value;
          if (oldest !== undefined) this.byKey.delete(oldest);
        }
        list = [];
        this.byKey.set(key, list);
      }
      list.push(entry);
      if (list.length > this.perKey) list.splice(0, list.length - this.perKey);
    }
  }

  /** Newest first. */
  recent(key: string): RecordedEvent[] {
    return [...(this.byKey.get(key) ?? [])].reverse();
  }

  get size(): number {
    return this.byKey.size;
  }
}

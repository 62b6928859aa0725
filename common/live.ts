/**
 * The event of a socket message that carries the messages one room+channel made during a window, in
 * order: `{ event: 'batch', data: [{ event, data, date }, …], date }` (see docs/realtime.md).
 */
export const BATCH_EVENT = 'batch';

/** A server socket message: an event, its data (absolute values) and when it happened. */
export interface LiveMessage<T = Record<string, unknown>> {
  event: string;
  data: T;
  date: string;
}

export function isLiveMessage(msg: unknown): msg is LiveMessage<unknown> {
  return Boolean(msg) && typeof msg === 'object' && typeof (msg as { event?: unknown }).event === 'string';
}

/** A socket message as the messages it carries: a batch's messages in order, or itself (none when it is not one). */
export function unpackMessages(msg: unknown): LiveMessage<unknown>[] {
  if (!isLiveMessage(msg)) return [];
  if (msg.event === BATCH_EVENT && Array.isArray(msg.data)) return msg.data.filter(isLiveMessage);
  return [msg];
}

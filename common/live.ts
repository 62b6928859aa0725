/**
 * The event of a socket message that carries the messages one room+channel made during a window, in
 * order: `{ event: 'batch', data: [{ event, data, date }, …], date }` (see docs/realtime.md).
 */
export const BATCH_EVENT = 'batch';

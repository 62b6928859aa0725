/**
 * An admin's socket for the engine benchmark, in its own process (as a browser would be): connects
 * with a token and counts every socket message it receives on any channel (a batch counts once), the
 * messages they carry (batches unpacked) and, for count events, the time from the event (its `date`)
 * to its arrival here. Prints `0` once connected, then a JSON line of the running figures every 250 ms.
 * A line `mark` on stdin starts the figures afresh (the end of the warm-up).
 * `tsx bench/lib/admin-socket.ts <url> <token>` (started by bench/engine.ts; not a benchmark itself).
 */
import readline from 'node:readline';
import { io } from 'socket.io-client';
import { unpackMessages } from '../../common/live';

const [url, token] = process.argv.slice(2);
if (!url || !token) {
  console.error('usage: admin-socket.ts <url> <token>');
  process.exit(2);
}

const COUNT_EVENTS = new Set(['count_success', 'count_fail', 'count_synced']);
type Message = { event?: unknown; data?: unknown; date?: unknown };

let since = Date.now();
let packets = 0;
let messages = 0;
/** Socket messages per whole second since the mark (arrival time), for the busiest second. */
let perSecond = new Map<number, number>();
/** Count-event latencies in ms: a histogram by whole millisecond. */
let latency = new Map<number, number>();
let counted = 0;

function reset(): void {
  since = Date.now();
  packets = 0;
  messages = 0;
  perSecond = new Map();
  latency = new Map();
  counted = 0;
}

function percentile(p: number): number | null {
  if (counted === 0) return null;
  const rank = Math.ceil((p / 100) * counted);
  let seen = 0;
  for (const ms of [...latency.keys()].sort((a, b) => a - b)) {
    seen += latency.get(ms)!;
    if (seen >= rank) return ms;
  }
  return null;
}

function one(msg: Message, at: number): void {
  messages += 1;
  if (typeof msg.event !== 'string' || !COUNT_EVENTS.has(msg.event) || typeof msg.date !== 'string') return;
  const ms = Math.max(0, Math.round(at - Date.parse(msg.date)));
  latency.set(ms, (latency.get(ms) ?? 0) + 1);
  counted += 1;
}

const socket = io(url, { auth: { token }, transports: ['websocket'] });
socket.onAny((_channel: string, msg: Message) => {
  const at = Date.now();
  packets += 1;
  const second = Math.floor((at - since) / 1000);
  perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  for (const m of unpackMessages(msg)) one(m, at);
});
socket.on('connect', () => console.log('0'));
socket.on('connect_error', (err) => {
  console.error(err.message);
  process.exit(1);
});
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'mark') reset();
});
setInterval(() => {
  const seconds = (Date.now() - since) / 1000;
  console.log(
    JSON.stringify({
      seconds,
      packets,
      messages,
      busiestSecond: Math.max(0, ...perSecond.values()),
      counted,
      p50: percentile(50),
      p99: percentile(99),
      max: counted ? Math.max(...latency.keys()) : null,
    }),
  );
}, 250);

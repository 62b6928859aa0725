/**
 * An admin's socket for the engine benchmark, in its own process: connects with a token, counts
 * the messages on the 'admin' channel and prints the running count every 250 ms.
 * `tsx bench/lib/admin-socket.ts <url> <token>` (started by bench/engine.ts; not a benchmark itself).
 */
import { io } from 'socket.io-client';

const [url, token] = process.argv.slice(2);
if (!url || !token) {
  console.error('usage: admin-socket.ts <url> <token>');
  process.exit(2);
}
let count = 0;
const socket = io(url, { auth: { token }, transports: ['websocket'] });
socket.on('admin', () => (count += 1));
socket.on('connect', () => console.log('0'));
socket.on('connect_error', (err) => {
  console.error(err.message);
  process.exit(1);
});
setInterval(() => console.log(String(count)), 250);

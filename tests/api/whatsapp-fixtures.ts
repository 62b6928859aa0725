import { inspect } from 'node:util';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../helpers';
import { SIM } from '../helpers';

let seq = 0;

/** A WhatsApp ID as the console makes it: id-{timestamp}-{0-9999}. */
export function newDeviceId(): string {
  seq += 1;
  return `id-${Date.now()}${seq}-${Math.floor(Math.random() * 10000)}`;
}

export interface LinkedAccount {
  id: number;
  deviceId: string;
  clientid: string;
  phonenumber: string;
  pushname: string;
  user_id: number;
  state: string | null;
  [key: string]: unknown;
}

/** Links an account the way the console does: new-client, QR, a scan on the simulated phone, save. */
export async function linkByQr(
  t: TestApp,
  user: TestUser,
  options: { phonenumber?: string; pushname?: string; reconnect?: number } = {},
): Promise<LinkedAccount> {
  const deviceId = newDeviceId();
  const created = await t.http.post('/api/admin/whatsapp/new-client').set(user.auth).send({ deviceId, userId: user.id, previousDeviceId: null });
  expect(created.status).toBe(200);
  const qr = await t.http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(user.auth);
  expect(qr.status).toBe(200);
  expect(typeof qr.body.qr).toBe('string');
  const scanned = await t.http.post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr, phonenumber: options.phonenumber, pushname: options.pushname });
  expect(scanned.status).toBe(200);
  const message = await t.http.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`).set(user.auth);
  expect(message.status).toBe(200);
  const saved = await t.http
    .post('/api/admin/whatsapp/save')
    .set(user.auth)
    .send({ ...message.body.message, proxyId: created.body.proxyId, user_id: null, reconnect: options.reconnect });
  expect(saved.status).toBe(200);
  return saved.body.whatsapp as LinkedAccount;
}

/**
 * Polls a condition (events are asynchronous) for up to `ms` and answers the first value that meets it;
 * past `ms` it fails with the last value (or what `describe` makes of it).
 */
export async function eventually<T>(fn: () => Promise<T> | T, ok: (value: T) => boolean, ms = 3000, describe: (last: T) => string = shown): Promise<T> {
  const end = Date.now() + ms;
  let last = await fn();
  while (!ok(last)) {
    if (Date.now() >= end) throw new Error(`Still waiting after ${ms} ms: ${describe(last)}`);
    await new Promise((r) => setTimeout(r, 20));
    last = await fn();
  }
  return last;
}

/** A polled value for a failure message: JSON (a supertest answer gives its status and body), cut short. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = inspect(value, { depth: 2, breakLength: Infinity });
  }
  return `last value ${text.length > 600 ? `${text.slice(0, 600)}…` : text}`;
}

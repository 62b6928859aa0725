import { expect } from 'vitest';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { testConfig, type Config } from '../../server/src/config';
import { closeDb, openDb } from '../../server/src/db/client';
import { createContext, type AppContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { createUser, issueToken } from '../../server/src/auth/service';
import { haltJobRunner } from '../../server/src/engine/jobs';
import type { Socket } from 'socket.io-client';
import type { TestApp, TestUser } from '../helpers';
import { connected, SIM } from '../helpers';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { eventually } from './whatsapp-fixtures';

export interface LiveMsg {
  event: string;
  data: Record<string, unknown>;
  date: string;
}

/** The numbers of a range, as strings, in order. */
export function rangeOf(start: string, size: number): string[] {
  return Array.from({ length: size }, (_, i) => (BigInt(start) + BigInt(i)).toString());
}

/** What the simulated network says about each number (the truth a job must find). */
export function registeredIn(gateway: TestApp['ctx']['gateway'], numbers: string[]): Array<{ number: string; name: string }> {
  const sim = gateway;
  if (!(sim instanceof SimulatorGateway)) throw new Error('tests run on the simulator');
  return numbers.flatMap((number) => {
    const c = sim.contact(number);
    return c.registered ? [{ number, name: c.pushname ?? '' }] : [];
  });
}

/** Records every message a socket receives on a channel. */
export async function record(t: TestApp, user: TestUser, channel: string = String(user.id)): Promise<{ socket: Socket; messages: LiveMsg[] }> {
  const socket = t.socket(user.token);
  await connected(socket);
  const messages: LiveMsg[] = [];
  socket.on(channel, (msg: LiveMsg) => messages.push(msg));
  return { socket, messages };
}

type JobPath = 'generator' | 'validator';

/** Reads a job through the API until `ok` holds (jobs run asynchronously). */
export async function jobUntil(
  http: TestApp['http'],
  auth: { Authorization: string },
  kind: JobPath,
  id: number,
  ok: (job: Record<string, unknown>) => boolean,
  ms = 10_000,
): Promise<Record<string, unknown>> {
  const res = await eventually(
    () => http.get(`/api/admin/${kind}/${id}`).set(auth),
    (r) => r.status === 200 && ok(r.body[kind] as Record<string, unknown>),
    ms,
  );
  return res.body[kind] as Record<string, unknown>;
}

export const finished = (job: Record<string, unknown>) => job.status === 'idle' && job.state === 'finished';

/** Links a connected account for a user through the console's calls and the simulated phone. */
export async function linkAccount(http: TestApp['http'], auth: { Authorization: string }, deviceId: string): Promise<{ id: number; deviceId: string }> {
  await http.post('/api/admin/whatsapp/new-client').set(auth).send({ deviceId }).expect(200);
  const qr = await http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(auth).expect(200);
  await http.post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr }).expect(200);
  const message = await http.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`).set(auth).expect(200);
  const saved = await http.post('/api/admin/whatsapp/save').set(auth).send({ ...message.body.message, user_id: null }).expect(200);
  const account = saved.body.whatsapp as { id: number; deviceId: string; state: string };
  expect(account.state).toBe('connected');
  return account;
}

/** One server process: the real app on a database file, started as main.ts starts it. */
export async function boot(dataDir: string, sim: Partial<Config['sim']> = {}) {
  const config = testConfig({ dataDir, sim: { seed: 'test', latencyMs: 0, failureRate: 0, ...sim } });
  const db = await openDb(path.join(dataDir, 'blast.db'));
  const ctx = createContext(config, db, () => undefined);
  const { server, close } = createServer(ctx);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const http = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  /** The process dies: loops stop where they are and nothing is tidied up in the database. */
  const kill = async () => {
    haltJobRunner(ctx);
    await close();
    await closeDb(db);
  };
  return { ctx, http, kill };
}

export async function staffLogin(ctx: AppContext, email: string) {
  const row = await createUser(ctx.db, { firstname: 'Staf', lastname: 'Satu', email, password: 'password123', role: 'staff', referredBy: null });
  return { id: row.id, auth: { Authorization: `Bearer ${await issueToken(ctx, row, true)}` } };
}

/** POST /admin/validator/create as `user` for one of its accounts: the file, and the form's fields (no waits, no save to list unless given). */
export function uploadValidator(t: TestApp, user: TestUser, accountId: number, content: string | Buffer, fileName: string, fields: Record<string, string> = {}) {
  let req = t.http.post('/api/admin/validator/create').set(user.auth);
  const all = { whatsapp_id: String(accountId), b_insert: '0', interval_min: '0', interval_max: '0', ...fields };
  for (const [k, v] of Object.entries(all)) req = req.field(k, v);
  return req.attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), fileName);
}

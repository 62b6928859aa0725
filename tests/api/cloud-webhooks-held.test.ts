import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/src/config';
import { createContext, type AppContext } from '../../server/src/context';
import { closeDb, createTestDb, transaction, type Db } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { heldStatuses, messageLogs, phoneNumbers, users, whatsapps } from '../../server/src/db/schema';
import { createUser, issueToken } from '../../server/src/auth/service';
import { engineFor } from '../../server/src/engine/engine';
import { createServer } from '../../server/src/server';
import { HOLD_LIMIT, HOLD_MS } from '../../server/src/webhooks/held';
import { closeHeldStatuses, finishHeldStatuses, heldStatusesOf } from '../../server/src/webhooks/service';
import { signBody } from '../../server/src/webhooks/signature';
import { FakeGraph } from '../fakes/graph';
import { addTemplate, invariantViolations, setRules } from './engine-fixtures';
import { eventually } from './whatsapp-fixtures';

/**
 * Held statuses (a status that overtook its send) live in the database: they outlive a restart and any node
 * applies them. Nodes here are apps in this process on one shared database, as in tests/api/cluster-*.
 */

const fake = new FakeGraph();
const WABA = '203948576120';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-held-'));
let db: Db;
const running: Node[] = [];

interface Node {
  ctx: AppContext;
  http: ReturnType<typeof request>;
  logs: string[];
  close: () => Promise<void>;
}

async function startNode(): Promise<Node> {
  const logs: string[] = [];
  const config = testConfig({
    dataDir,
    gateway: 'cloud-api',
    cloud: { baseUrl: fake.url, appSecret: 'test-app-secret', verifyToken: 'test-verify-token', ratePerSecond: 80, publicUrl: null },
  });
  const ctx = createContext(config, db, (msg) => logs.push(msg));
  const { server, close } = createServer(ctx);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed = false;
  const node: Node = {
    ctx,
    http: request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    logs,
    close: async () => {
      if (closed) return;
      closed = true;
      await engineFor(ctx).shutdown();
      await close();
    },
  };
  running.push(node);
  return node;
}

beforeAll(async () => {
  fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
  await fake.start();
  db = await createTestDb(path.join(dataDir, 'shared.db'));
  await setRules(db, { intervalMin: 0, intervalMax: 0, price: 40, referralPercent: 0, sendFrom: '00:00', sendTo: '00:00' });
  await addTemplate(db, { textWa: 'Promo {name}', waTemplateName: 'promo_blast', waTemplateLanguage: 'id', waTemplateParams: '[]' });
});

afterAll(async () => {
  for (const n of running) await n.close();
  await closeDb(db);
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let seq = 0;

/** A member with a Cloud API number of its own linked through `node`, and `targets` fresh numbers to blast. */
async function memberWithNumber(node: Node, targets: number) {
  seq += 1;
  const n = fake.addNumber({
    phoneNumberId: `13000000000000${seq}`,
    token: `EAAGheldtoken000${seq}`,
    display_phone_number: `+62 812-3470-000${seq}`,
    verified_name: `Toko Tahan ${seq}`,
  });
  const row = await createUser(db, { firstname: `Tahan${seq}`, lastname: 'Test', email: `held${seq}-${Date.now()}@test.local`, password: 'password123', role: 'member', referredBy: null });
  const auth = { Authorization: `Bearer ${await issueToken(node.ctx, row, false)}` };
  const linked = await node.http.post('/api/admin/whatsapp/cloud-link').set(auth).send({ phoneNumberId: n.phoneNumberId, wabaId: WABA, accessToken: n.token });
  expect(linked.status).toBe(200);
  await transaction(db, async (tx) => {
    for (let i = 0; i < targets; i++) await tx.insert(phoneNumbers).values({ number: `628129${seq}${String(i).padStart(6, '0')}`, name: `Pelanggan ${seq}-${i}` });
  });
  return { userId: row.id, auth, accountId: linked.body.whatsapp.id as number, phoneNumberId: n.phoneNumberId };
}

function postStatuses(node: Node, phoneNumberId: string, statuses: Array<Record<string, unknown>>) {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phoneNumberId }, statuses } }] }],
  });
  return node.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signBody('test-app-secret', raw)).send(raw);
}

/** Blasts the member's number through `node` until it is idle; `onSend` runs before Graph answers each send. */
async function blast(node: Node, m: { auth: Record<string, string>; accountId: number }, onSend: (send: { phoneNumberId: string; to: string; messageId: string }) => Promise<void>) {
  fake.beforeAnswer = onSend;
  try {
    const started = await node.http.post('/api/admin/whatsapp/start-blasting').set(m.auth).send({ whatsappClientId: m.accountId, socketClientId: 'test', loop: true });
    expect(started.status).toBe(200);
    await eventually(
      () => node.http.get(`/api/admin/whatsapp/${m.accountId}`).set(m.auth),
      (r) => r.body.whatsapp?.status === 'idle',
      20_000,
    );
  } finally {
    fake.beforeAnswer = null;
  }
}

const now = () => String(Math.floor(Date.now() / 1000));
const logsOf = (accountId: number) => db.select().from(messageLogs).where(eq(messageLogs.whatsappId, accountId));
const incomeOf = async (userId: number) => (await one(db.select({ income: users.income }).from(users).where(eq(users.id, userId)).limit(1)))!.income;
const accountIncome = async (id: number) => (await one(db.select({ income: whatsapps.income }).from(whatsapps).where(eq(whatsapps.id, id)).limit(1)))!.income;
const heldRows = async () => Number((await one(db.select({ n: sql<number>`count(*)` }).from(heldStatuses)))?.n ?? 0);

describe('held Cloud API statuses are kept in the database', () => {
  it('a status held before a restart is applied after it: the member is paid for the delivered message', async () => {
    const first = await startNode();
    const m = await memberWithNumber(first, 1);
    // Meta's 'delivered' overtakes the send's answer, and the node goes down before its sweep could apply it.
    await blast(first, m, async ({ phoneNumberId, to, messageId }) => {
      expect((await postStatuses(first, phoneNumberId, [{ id: messageId, status: 'delivered', recipient_id: to, timestamp: now() }])).status).toBe(200);
      closeHeldStatuses(first.ctx);
    });
    await first.close();
    const [sent] = await logsOf(m.accountId);
    expect(sent).toMatchObject({ success: true, income: 0, deliveryStatus: 'sent' });
    expect(await heldRows()).toBe(1);

    // The next start (on the same database) finds the held status and applies it.
    await startNode();
    const [delivered] = await eventually(
      () => logsOf(m.accountId),
      (rows) => rows[0]?.deliveryStatus === 'delivered',
      5_000,
    );
    expect(delivered).toMatchObject({ success: true, income: 40, deliveryStatus: 'delivered' });
    expect(await incomeOf(m.userId)).toBe(40);
    expect(await accountIncome(m.accountId)).toBe(40);
    await eventually(heldRows, (n) => n === 0);
    expect(await invariantViolations(db)).toEqual([]);
  });

  it('two nodes sweeping at once apply each status in arrival order and pay the member once', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const m = await memberWithNumber(a, 3);
    // Per message, 'delivered' then 'failed' (which cannot undo a delivery): applied the other way round, the
    // send would turn into an unpaid failure.
    await blast(a, m, async ({ phoneNumberId, to, messageId }) => {
      const statuses = [
        { id: messageId, status: 'delivered', recipient_id: to, timestamp: now() },
        { id: messageId, status: 'failed', recipient_id: to, timestamp: now(), errors: [{ code: 131026, title: 'Message undeliverable' }] },
      ];
      expect((await postStatuses(a, phoneNumberId, statuses)).status).toBe(200);
      // Only the two sweeps below apply them.
      closeHeldStatuses(a.ctx);
    });
    expect(await heldRows()).toBe(6);
    expect(heldStatusesOf(b.ctx).active).toBe(false);

    await Promise.all([heldStatusesOf(a.ctx).sweep(), heldStatusesOf(b.ctx).sweep()]);
    const rows = await logsOf(m.accountId);
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r).toMatchObject({ success: true, income: 40, deliveryStatus: 'delivered' });
    expect(await incomeOf(m.userId)).toBe(120);
    expect(await accountIncome(m.accountId)).toBe(120);
    expect(await heldRows()).toBe(0);
    expect(await invariantViolations(db)).toEqual([]);
  });

  it('a held status whose body named another business number than the sender is ignored once its row is there', async () => {
    const node = await startNode();
    const m = await memberWithNumber(node, 1);
    const other = await memberWithNumber(node, 0);
    await blast(node, m, async ({ to, messageId }) => {
      // A body under the other member's number reports this member's message as delivered.
      expect((await postStatuses(node, other.phoneNumberId, [{ id: messageId, status: 'delivered', recipient_id: to, timestamp: now() }])).status).toBe(200);
      closeHeldStatuses(node.ctx);
    });
    expect(await heldRows()).toBe(1);
    await heldStatusesOf(node.ctx).sweep();
    const [sent] = await logsOf(m.accountId);
    expect(sent).toMatchObject({ success: true, income: 0, deliveryStatus: 'sent' });
    expect(await incomeOf(m.userId)).toBe(0);
    expect(await heldRows()).toBe(0);
    expect(node.logs.some((l) => l.includes('another business number'))).toBe(true);
  });

  it('sweeps only while statuses are held, and at start only when some are', async () => {
    const node = await startNode();
    const held = heldStatusesOf(node.ctx);
    const m = await memberWithNumber(node, 0);
    // Nothing held at start: no timer, so an idle install runs no query every second.
    await new Promise((r) => setTimeout(r, 100));
    expect(held.active).toBe(false);
    expect((await postStatuses(node, m.phoneNumberId, [{ id: 'wamid.held-idle', status: 'delivered', timestamp: now() }])).status).toBe(200);
    expect(held.active).toBe(true);
    expect(await held.count()).toBe(1);

    // A node started now finds it and sweeps too.
    const other = await startNode();
    await eventually(() => heldStatusesOf(other.ctx).active, (x) => x);

    // Expired, and no row ever came for it: deleted, and both nodes stop sweeping once they see none left.
    await held.sweep(Date.now() + HOLD_MS + 1);
    expect(await heldRows()).toBe(0);
    expect(held.active).toBe(false);
    await eventually(() => heldStatusesOf(other.ctx).active, (x) => !x, 5_000);
  });

  it(`holds at most ${HOLD_LIMIT} statuses, logging the drop once`, async () => {
    const node = await startNode();
    const m = await memberWithNumber(node, 0);
    const until = new Date(Date.now() + HOLD_MS);
    for (let i = 0; i < HOLD_LIMIT; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, HOLD_LIMIT - i) }, (_, j) => ({
        waMessageId: `wamid.filler-${i + j}`,
        status: JSON.stringify({ id: `wamid.filler-${i + j}`, status: 'delivered' }),
        expiresAt: until,
      }));
      await db.insert(heldStatuses).values(batch);
    }
    for (const id of ['wamid.over-1', 'wamid.over-2']) {
      expect((await postStatuses(node, m.phoneNumberId, [{ id, status: 'delivered', timestamp: now() }])).status).toBe(200);
    }
    expect(await heldRows()).toBe(HOLD_LIMIT);
    expect(node.logs.filter((l) => l.includes('Cloud API statuses wait for their message; newer ones are dropped'))).toHaveLength(1);
    expect(await db.select().from(heldStatuses).where(eq(heldStatuses.waMessageId, 'wamid.over-1'))).toEqual([]);

    await heldStatusesOf(node.ctx).sweep(Date.now() + HOLD_MS + 1);
    expect(await heldRows()).toBe(0);
  });

  it('a shutdown applies the held statuses whose sends are recorded and leaves the others for the next start', async () => {
    const node = await startNode();
    const m = await memberWithNumber(node, 1);
    await blast(node, m, async ({ phoneNumberId, to, messageId }) => {
      const statuses = [
        { id: messageId, status: 'read', recipient_id: to, timestamp: now() },
        { id: 'wamid.not-yet-recorded', status: 'delivered', timestamp: now() },
      ];
      expect((await postStatuses(node, phoneNumberId, statuses)).status).toBe(200);
    });
    await finishHeldStatuses(node.ctx);
    const [read] = await logsOf(m.accountId);
    expect(read).toMatchObject({ success: true, income: 40, deliveryStatus: 'read' });
    expect(heldStatusesOf(node.ctx).active).toBe(false);
    expect((await db.select({ id: heldStatuses.waMessageId }).from(heldStatuses)).map((r) => r.id)).toEqual(['wamid.not-yet-recorded']);
    await node.close();

    const next = await startNode();
    await eventually(() => heldStatusesOf(next.ctx).active, (x) => x);
    await heldStatusesOf(next.ctx).sweep(Date.now() + HOLD_MS + 1);
    expect(await heldRows()).toBe(0);
  });
});

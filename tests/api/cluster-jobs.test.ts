import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { isPostgres } from '../../server/src/db/postgres';
import { leases } from '../../server/src/db/schema';
import { createContext, type AppContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { leaseKeeper } from '../../server/src/cluster/keeper';
import { generatorJob, haltJobRunner, jobRunner } from '../../server/src/engine/jobs';
import { finished, jobUntil, linkAccount, staffLogin } from './generator-fixtures';
import { eventually } from './whatsapp-fixtures';

/**
 * Generator and validator jobs are leased like account loops: on PostgreSQL a job runs on the node that
 * holds its lease, another node leaves it alone, and takes it over (from the number it had reached)
 * once the lease expires because its node died. On SQLite there is one process: nothing to share.
 */
const db: Db = await createTestDb();
const shared = isPostgres(db);
if (!shared) await closeDb(db);

interface Node {
  ctx: AppContext;
  http: ReturnType<typeof request>;
  close: () => Promise<void>;
  /** What the node logged. */
  logged: string[];
}

describe.skipIf(!shared)('generator jobs on two nodes', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-cluster-jobs-'));
  const nodes: Node[] = [];

  async function startNode(): Promise<Node> {
    // Each check takes 20–60 ms, so a 200-number range runs for several seconds.
    const logged: string[] = [];
    const ctx = createContext(testConfig({ dataDir, sim: { seed: 'test', latencyMs: 40, failureRate: 0 } }), db, (msg) => void logged.push(msg));
    const { server, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { ctx, http: request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), close, logged };
  }

  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    nodes.push(await startNode(), await startNode());
  });
  afterAll(async () => {
    for (const n of nodes) {
      haltJobRunner(n.ctx);
      await n.close().catch(() => undefined);
    }
    await closeDb(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a job on the node holding its lease only, and the other node resumes it after the holder dies', async () => {
    const [a, b] = nodes as [Node, Node];
    const staff = await staffLogin(a.ctx, `staf-cluster-${Date.now()}@test.local`);
    const account = await linkAccount(a.http, staff.auth, `id-${Date.now()}-4242`);
    const created = await a.http
      .post('/api/admin/generator/create')
      .set(staff.auth)
      .send({ start_number: '6281300000000', end_number: '6281300000199', whatsapp_id: account.id, b_insert: 0, interval_min: 0, interval_max: 0 });
    expect(created.status).toBe(201);
    const id = created.body.generator.id as number;
    expect((await a.http.post('/api/admin/generator/start').set(staff.auth).send({ id })).status).toBe(200);

    const holder = async () => (await db.select().from(leases).where(eq(leases.workId, id)))[0]?.node;
    // Whichever node took the lease first runs the job (A, which started it, unless B's sweep came first).
    const first = await eventually(holder, (n) => n !== undefined);
    const owner = nodes.find((n) => leaseKeeper(n.ctx).node === first)!;
    const other = owner === a ? b : a;
    expect(owner).toBeDefined();
    // The other node looks for work: the job is held, so it runs nothing.
    await leaseKeeper(other.ctx).sweep();
    await jobRunner(other.ctx).resume();
    expect(await eventually(() => jobRunner(other.ctx).isRunning(generatorJob, id), (running) => !running)).toBe(false);
    expect(await holder()).toBe(first);

    // The owner dies mid-job: its loops stop where they are, its leases stay until they expire.
    haltJobRunner(owner.ctx);
    await leaseKeeper(owner.ctx).stop(false);
    await owner.close();
    const checked = await jobUntil(other.http, staff.auth, 'generator', id, () => true);
    expect(Number(checked.count_success) + Number(checked.count_fail)).toBeLessThan(200);
    await db.update(leases).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(leases.node, first!));

    // The other node's next sweep takes the job over, re-opens the account's session if it must, and
    // finishes the range: every number counted once.
    await leaseKeeper(other.ctx).sweep();
    // The sweep starts the job's loop, which takes the lease as its first step.
    expect(await eventually(holder, (n) => n === leaseKeeper(other.ctx).node)).toBe(leaseKeeper(other.ctx).node);
    // The operator can read in the log where the job went (written just after the lease is won).
    const line = `Took over generator ${id}, which no node held`;
    expect(await eventually(() => other.logged, (logged) => logged.includes(line))).toContain(line);
    const done = await jobUntil(other.http, staff.auth, 'generator', id, finished, 60_000);
    expect(Number(done.count_success) + Number(done.count_fail)).toBe(200);
    expect(done).toMatchObject({ progress: 100, current_number: '6281300000199' });
    // Its lease is given back when the job ends.
    expect(await eventually(holder, (n) => n === undefined)).toBeUndefined();
  });
});

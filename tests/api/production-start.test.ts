import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { bootstrapData, FIRST_ADMIN_HINT } from '../../server/src/bootstrap';
import { startFailure } from '../../server/src/lib/errors';
import { underStartLock, type PgDb } from '../../server/src/db/postgres';
import { configNotices, loadConfig } from '../../server/src/config';
import { closeDb, connectDb, createTestDb, openDb, type Db } from '../../server/src/db/client';
import { connectRedis } from '../../server/src/cluster/redis';
import { auditLog, bonuses, users, withdrawals } from '../../server/src/db/schema';
import { createUser } from '../../server/src/auth/service';
import { verifyPassword } from '../../server/src/auth/password';
import { DEMO_LOGINS } from '../../seed/demo';

let dataDir: string;
let db: Db;
const logged: string[] = [];
const log = (msg: string) => logged.push(msg);
/** The configuration a start with these variables gets (nothing else from this process's environment). */
const configFor = (env: Record<string, string | undefined> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });
const everyone = async () => await db.select({ email: users.email, role: users.role, passwordHash: users.passwordHash }).from(users);

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-start-'));
  db = await createTestDb();
  logged.length = 0;
});
afterEach(async () => {
  await closeDb(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('what a start puts in the database', () => {
  it('seeds the demo on the embedded default (no NODE_ENV, no DATABASE_URL)', async () => {
    const config = configFor();
    expect(config.production).toBe(false);
    expect(config.demo).toBe(true);
    const result = await bootstrapData(db, config, log);
    expect(result.demoSeeded).toBe(true);
    const emails = (await everyone()).map((u) => u.email);
    for (const l of DEMO_LOGINS) expect(emails).toContain(l.email);
    expect(result.notices).toEqual([]);
    // The demo's bonuses and withdrawals are in the audit log, as the console would have written them.
    const audited = await db.select().from(auditLog);
    const actions = (action: string) => audited.filter((a) => a.action === action);
    expect(actions('bonus.create')).toHaveLength((await db.select().from(bonuses)).length);
    const requests = await db.select().from(withdrawals);
    expect(actions('withdraw.request').map((a) => a.details.withdrawId).sort()).toEqual(requests.map((w) => w.id).sort());
    const decided = requests.filter((w) => w.status !== 'requested');
    expect(decided.length).toBeGreaterThan(0);
    expect(actions('withdraw.status').map((a) => [a.details.withdrawId, a.details.to, a.actorId])).toEqual(
      expect.arrayContaining(decided.map((w) => [w.id, w.status, w.updatedBy])),
    );
    expect(actions('withdraw.status')).toHaveLength(decided.length);
  });

  it.each([{ NODE_ENV: 'production' }, { DATABASE_URL: 'postgres://blast@127.0.0.1:5432/blast' }])('seeds nothing in production (%o) and says how to make the first admin', async (env) => {
    const config = configFor(env);
    expect(config.production).toBe(true);
    expect(config.demo).toBe(false);
    const result = await bootstrapData(db, config, log);
    expect(result.demoSeeded).toBeNull();
    expect(await everyone()).toEqual([]);
    expect(result.notices).toEqual(FIRST_ADMIN_HINT);
    expect(result.notices.join('\n')).toContain('npm run user:create -- --email');
    expect(result.notices.join('\n')).toContain('ADMIN_EMAIL and ADMIN_PASSWORD');
  });

  it('says how to make the first admin on any start without one', async () => {
    const config = configFor({ DEMO: 'false' });
    expect(config.production).toBe(false);
    const result = await bootstrapData(db, config, log);
    expect(result.demoSeeded).toBeNull();
    expect(result.notices).toEqual(FIRST_ADMIN_HINT);
  });

  it('seeds the demo in production only when DEMO=true is asked for', async () => {
    const config = configFor({ NODE_ENV: 'production', DEMO: 'true' });
    expect(config.demo).toBe(true);
    expect((await bootstrapData(db, config, log)).demoSeeded).toBe(true);
    expect((await everyone()).some((u) => u.email === 'admin@demo.test')).toBe(true);
  });

  it('creates exactly one admin from ADMIN_EMAIL/ADMIN_PASSWORD, once, and logs it without the password', async () => {
    const env = { NODE_ENV: 'production', ADMIN_EMAIL: 'Owner@Example.com', ADMIN_PASSWORD: 'first-secret-1' };
    const first = await bootstrapData(db, configFor(env), log);
    expect(first.adminCreated).toBe('owner@example.com');
    expect(first.notices).toEqual([]);
    const [admin, ...others] = (await everyone());
    expect(others).toEqual([]);
    expect(admin).toMatchObject({ email: 'owner@example.com', role: 'admin' });
    expect(await verifyPassword('first-secret-1', admin!.passwordHash)).toBe(true);
    expect(logged.join('\n')).toContain('owner@example.com');
    expect(logged.join('\n')).not.toContain('first-secret-1');

    // A restart, even with another password or email in the environment, changes nothing.
    const again = await bootstrapData(db, configFor({ ...env, ADMIN_PASSWORD: 'another-secret-2' }), log);
    const other = await bootstrapData(db, configFor({ ...env, ADMIN_EMAIL: 'second@example.com' }), log);
    expect(again.adminCreated).toBeNull();
    expect(other.adminCreated).toBeNull();
    expect(await everyone()).toEqual([admin]);
  });

  it('never changes an existing account that holds ADMIN_EMAIL', async () => {
    const member = await createUser(db, { firstname: 'Ana', lastname: 'M', email: 'owner@example.com', password: 'member-pass-1', role: 'member' });
    const result = await bootstrapData(db, configFor({ NODE_ENV: 'production', ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'first-secret-1' }), log);
    expect(result.adminCreated).toBeNull();
    const [row] = await db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ role: 'member', passwordHash: member.passwordHash });
    expect(await everyone()).toHaveLength(1);
    expect(result.notices[0]).toContain('already belongs to a member account');
    expect(result.notices).toEqual(expect.arrayContaining(FIRST_ADMIN_HINT));
  });

  it('refuses ADMIN_EMAIL/ADMIN_PASSWORD that user:create would refuse', () => {
    expect(() => configFor({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'short' })).toThrow('ADMIN_PASSWORD must be at least 8 characters');
    expect(() => configFor({ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long-enough-1' })).toThrow('ADMIN_EMAIL must be an email address');
    expect(() => configFor({ ADMIN_EMAIL: 'owner@example.com' })).toThrow('set both ADMIN_EMAIL and ADMIN_PASSWORD');
  });

  it('warns when demo accounts sit in a production database', async () => {
    await bootstrapData(db, configFor(), log);
    const result = await bootstrapData(db, configFor({ NODE_ENV: 'production' }), log);
    expect(result.notices.join('\n')).toContain('admin@demo.test');
    expect(result.notices.join('\n')).toMatch(/demo accounts/);
  });
});

describe('settings for several nodes', () => {
  it('warns when nodes share a database or Redis but JWT_SECRET is not set', () => {
    const secret = 'x'.repeat(40);
    expect(configNotices(configFor())).toEqual([]);
    for (const env of [{ DATABASE_URL: 'postgres://blast@127.0.0.1:5432/blast' }, { REDIS_URL: 'redis://127.0.0.1:6379' }]) {
      expect(configNotices(configFor(env)).join('\n')).toContain('JWT_SECRET is not set');
      expect(configNotices(configFor({ ...env, JWT_SECRET: secret }))).toEqual([]);
    }
  });

  it('keeps each install in its own REDIS_PREFIX (default blast:)', () => {
    expect(configFor().redisPrefix).toBe('blast:');
    expect(configFor({ REDIS_PREFIX: 'staging:' }).redisPrefix).toBe('staging:');
    expect(() => configFor({ REDIS_PREFIX: 'two words' })).toThrow('REDIS_PREFIX may hold only');
  });
});

describe('nodes starting together', () => {
  it('put the demo and the first admin in place once, however many start at the same moment', async () => {
    const config = configFor({ NODE_ENV: 'production', DEMO: 'true', ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'longsecret1' });
    const starts = await Promise.all([bootstrapData(db, config, log), bootstrapData(db, config, log), bootstrapData(db, config, log)]);
    expect(starts.filter((s) => s.demoSeeded === true)).toHaveLength(1);
    const emails = (await everyone()).map((u) => u.email);
    expect(new Set(emails).size).toBe(emails.length);
    for (const l of DEMO_LOGINS) expect(emails).toContain(l.email);
    // The demo's admin is there, so ADMIN_EMAIL creates nothing, and the start says so.
    expect(emails).not.toContain('ops@example.com');
    expect(starts[0]!.notices.join(' ')).toContain('ADMIN_EMAIL ops@example.com was not used');
  });

  it.skipIf(!/^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? ''))('on PostgreSQL the start lock holds off another connection (another node) until it is released', async () => {
    const spans: Array<[number, number]> = [];
    const hold = async () => {
      const from = Date.now();
      await new Promise((r) => setTimeout(r, 150));
      spans.push([from, Date.now()]);
    };
    // Two connections of the pool, as two nodes would hold two.
    await Promise.all([underStartLock(db as unknown as PgDb, hold), underStartLock(db as unknown as PgDb, hold)]);
    spans.sort((x, y) => x[0] - y[0]);
    expect(spans[1]![0]).toBeGreaterThanOrEqual(spans[0]![1]);
  });

  it('a failed query at start is printed without its parameters (a password hash)', () => {
    const failed = new DrizzleQueryError('insert into "users" ("email", "password_hash") values ($1, $2)', ['ops@example.com', 'scrypt$16384$8$1$c2VjcmV0'], new Error('duplicate key value violates unique constraint "users_email_uq"'));
    const text = String(startFailure(failed));
    expect(text).toContain('Failed query: insert into "users"');
    expect(text).toContain('duplicate key value');
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain('ops@example.com');
  });
});

describe('a start that cannot go on', () => {
  // An address nothing listens on: a port just closed again.
  const closedPort = async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  it('says which DATA_DIR cannot be made or written, without a stack trace', () => {
    const file = path.join(dataDir, 'not-a-folder');
    fs.writeFileSync(file, '');
    let failed: unknown;
    try {
      loadConfig({ DATA_DIR: file });
    } catch (err) {
      failed = err;
    }
    expect(String(startFailure(failed))).toMatch(new RegExp(`^Invalid configuration: DATA_DIR ${file}: EEXIST.* It must be a folder this user .*can write`));
  });

  it('says which SQLite file cannot be opened', async () => {
    const folder = path.join(dataDir, 'blast.db');
    fs.mkdirSync(folder);
    let failed: unknown;
    try {
      openDb(folder);
    } catch (err) {
      failed = err;
    }
    expect(String(startFailure(failed))).toMatch(new RegExp(`^Cannot open the database file ${folder}: EISDIR`));
  });

  it('says PostgreSQL does not answer at DATABASE_URL, with its password masked', async () => {
    const url = `postgres://blast:s3cret-pw@127.0.0.1:${await closedPort()}/blast`;
    const failed = await connectDb(url).then(() => null, (err: unknown) => err);
    const text = String(startFailure(failed));
    expect(text).toMatch(/^Cannot connect to PostgreSQL at postgres:\/\/blast:\*\*\*@127\.0\.0\.1:\d+\/blast: connect ECONNREFUSED/);
    expect(text).not.toContain('s3cret-pw');
  });

  it('gives up on a Redis that does not answer instead of waiting for ever', async () => {
    const url = `redis://:s3cret-pw@127.0.0.1:${await closedPort()}`;
    const failed = await connectRedis(url, 'probe:', 500).then(() => null, (err: unknown) => err);
    const text = String(startFailure(failed));
    expect(text).toMatch(/^Cannot connect to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ within 0.5 s \(connect ECONNREFUSED .*\)\. Check REDIS_URL/);
    expect(text).not.toContain('s3cret-pw');
  }, 5_000);
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { projectRoot } from '../../server/src/lib/paths';
import { closeDb, openDb } from '../../server/src/db/client';
import { auditLog, users } from '../../server/src/db/schema';
import { verifyPassword } from '../../server/src/auth/password';

const run = promisify(execFile);
const root = projectRoot();
let dataDir: string;
let server: ChildProcess | null = null;
let output = '';
let baseUrl = '';

/** The environment of an embedded install in a temp folder, whatever this process was started with. */
function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO: 'false', SIM_LATENCY_MS: '0' };
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'CLIENT_DIST']) delete e[k];
  return e;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-compiled-'));
  await run(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { cwd: root });
}, 60_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is built into dist/server as ESM with source maps', () => {
    for (const name of ['main.js', 'user-create.js', 'import-worker.js']) {
      expect(fs.existsSync(path.join(root, 'dist/server', name)), name).toBe(true);
      expect(fs.existsSync(path.join(root, 'dist/server', `${name}.map`)), `${name}.map`).toBe(true);
    }
    expect(fs.readFileSync(path.join(root, 'dist/server/main.js'), 'utf8')).toMatch(/^import .* from "express";$/m);
  });

  it('creates an operator with the compiled user:create', async () => {
    const { stdout } = await run(process.execPath, ['dist/server/user-create.js', '--email', 'ops@example.com', '--password', 'secret123', '--role', 'admin'], { cwd: root, env: env() });
    expect(stdout).toMatch(/Created admin ops@example.com/);
    const refused = await run(process.execPath, ['dist/server/user-create.js', '--email', 'ops@example.com', '--password', 'short'], { cwd: root, env: env() }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in refused && refused.code).toBe(2);
    expect('stderr' in refused && refused.stderr).toContain('--password must be at least 8 characters');
  }, 30_000);

  it('sets a new password on an existing account with --reset-password (the way back for a locked-out admin)', async () => {
    const { stdout } = await run(process.execPath, ['dist/server/user-create.js', '--email', 'OPS@example.com', '--password', 'another secret', '--reset-password'], { cwd: root, env: env() });
    expect(stdout).toMatch(/^New password set for admin ops@example.com \(id \d+\); its sessions have ended\.$/m);
    const db = openDb(path.join(dataDir, 'blast.db'));
    try {
      const [row] = await db.select().from(users).where(eq(users.email, 'ops@example.com'));
      expect(row!.role).toBe('admin');
      expect(await verifyPassword('another secret', row!.passwordHash)).toBe(true);
      expect(await db.select({ actorId: auditLog.actorId, action: auditLog.action, targetUserId: auditLog.targetUserId }).from(auditLog)).toEqual([{ actorId: null, action: 'user.password', targetUserId: row!.id }]);
    } finally {
      await closeDb(db);
    }
    const unknown = await run(process.execPath, ['dist/server/user-create.js', '--email', 'nobody@example.com', '--password', 'another secret', '--reset-password'], { cwd: root, env: env() }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in unknown && unknown.code).toBe(1);
    expect('stderr' in unknown && unknown.stderr).toContain('No account has the email nobody@example.com.');
    // Back to the password the next test signs in with.
    await run(process.execPath, ['dist/server/user-create.js', '--email', 'ops@example.com', '--password', 'secret123', '--reset-password'], { cwd: root, env: env() });
  }, 30_000);

  it('says in one line why user:create cannot reach its database', async () => {
    const failed = await run(process.execPath, ['dist/server/user-create.js', '--email', 'ops2@example.com', '--password', 'secret123', '--role', 'admin'], {
      cwd: root,
      env: { ...env(), DATABASE_URL: 'postgres://blast:s3cret-pw@127.0.0.1:1/blast' },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in failed && failed.code).toBe(1);
    const stderr = 'stderr' in failed ? failed.stderr : '';
    expect(stderr).toMatch(/^Cannot connect to PostgreSQL at postgres:\/\/blast:\*\*\*@127\.0\.0\.1:1\/blast: connect ECONNREFUSED/);
    expect(stderr).not.toContain('s3cret-pw');
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 30_000);

  it('starts with node, answers the API, imports through the compiled worker and stops on SIGTERM', async () => {
    server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line in: ${output}`)), 30_000);
      const check = () => {
        const m = /Blast console on (http:\/\/localhost:\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!.replace('localhost', '127.0.0.1'));
        }
      };
      server!.stdout!.on('data', check);
      server!.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });

    const config = await fetch(`${baseUrl}/api/config`);
    expect(config.status).toBe(200);
    expect(await config.json()).toMatchObject({ gateway: 'simulator', demo: false });

    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: 'secret123' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const form = new FormData();
    form.append('file', new Blob(['name,number\nAni,081234567801\nBudi,081234567802\n']), 'numbers.csv');
    const imported = await fetch(`${baseUrl}/api/admin/phonenumber/import`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ createdCount: 2, skippedCount: 0 });

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: shutting down');
  }, 60_000);
});

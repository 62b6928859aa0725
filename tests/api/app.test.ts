import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { startTestApp, type TestApp } from '../helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the app', () => {
  it('sends security headers with a CSP limited to its own origin', async () => {
    const res = await t.http.get('/api/config');
    expect(res.status).toBe(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('refuses a JSON body over the limit with 413 and a msg', async () => {
    const res = await t.http
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024), password: 'y' }));
    expect(res.status).toBe(413);
    expect(res.body.msg).toBeTruthy();
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const res = await t.http.post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg: 'Invalid JSON body', code: 'invalid_json_body' });
  });

  it('serves uploads so they cannot run script', async () => {
    fs.writeFileSync(path.join(t.ctx.config.dataDir, 'uploads', 'x.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res = await t.http.get('/uploads/x.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    // A file that is not there is a 404, not the console's page.
    const missing = await t.http.get('/uploads/nope.png');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ msg: 'Not found', code: 'not_found' });
  });
});

describe('configuration', () => {
  it('generates the JWT secret once into DATA_DIR with mode 0600', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-cfg-'));
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'jwt-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dir });
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    expect(first.port).toBe(3000);
    expect(first.demo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, PORT: '4123', DEMO: 'false' })).toMatchObject({ port: 4123, demo: false });
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'abc' })).toThrow(/PORT/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

/**
 * The environment of a first start with the demo, whatever this process was started with: the embedded
 * SQLite file under DATA_DIR, or, when the tests run on PostgreSQL, a fresh database of its own on that
 * server (a DATABASE_URL start is a production install, so the demo is asked for with DEMO=true).
 */
function startEnv(dataDir: string, databaseUrl: string | null): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SIM_LATENCY_MS: '0' };
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'DEMO', 'JWT_SECRET']) delete e[k];
  return databaseUrl ? { ...e, DATABASE_URL: databaseUrl, DEMO: 'true' } : e;
}

const PG_URL = process.env.DATABASE_URL && /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

/** A new, empty database on the tests' PostgreSQL server; `drop` removes it again. */
async function freshDatabase(url: string): Promise<{ url: string; query: (text: string) => Promise<unknown[]>; drop: () => Promise<void> }> {
  const name = `blast_app_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async query(text) {
      const c = new pg.Client({ connectionString: target.toString() });
      await c.connect();
      try {
        return (await c.query(text)).rows;
      } finally {
        await c.end();
      }
    },
    async drop() {
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

describe('process', () => {
  it('starts with a migrated, seeded database and stops cleanly on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-main-'));
    const database = PG_URL ? await freshDatabase(PG_URL) : null;
    let child: ReturnType<typeof spawn> | null = null;
    try {
      child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        env: startEnv(dir, database?.url ?? null),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const deadline = Date.now() + 45_000;
      while (!/member2@demo\.test/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(/Blast console on http:\/\/localhost:\d+/);
      expect(out).toMatch(/member2@demo\.test/);
      const port = Number(/localhost:(\d+)/.exec(out)![1]);
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.test', password: 'demo12345' }),
      });
      expect(login.status).toBe(200);
      const running = child;
      const code = await new Promise<number | null>((resolve) => {
        running.once('exit', (c) => resolve(c));
        running.kill('SIGTERM');
      });
      expect(code).toBe(0);
      if (database) {
        // The start migrated and seeded its own database, and kept no SQLite file beside it.
        expect(fs.existsSync(path.join(dir, 'blast.db'))).toBe(false);
        expect(await database.query("SELECT email FROM users WHERE email = 'admin@demo.test'")).toEqual([{ email: 'admin@demo.test' }]);
      } else {
        expect(fs.existsSync(path.join(dir, 'blast.db'))).toBe(true);
      }
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await database?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000); // a tsx start compiles the server first: tens of seconds on a busy machine
});

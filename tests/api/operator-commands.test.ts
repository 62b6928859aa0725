import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/src/lib/paths';
import { buildInfo } from '../../scripts/build-lib.mjs';

/**
 * The operator's commands of dist/server/cli.js, the same entry the single executable runs (its binary is
 * tested by `npm run test:package`): --version, --help, user:create --help, migrate, backup, restore.
 */
const run = promisify(execFile);
const root = projectRoot();
let dir: string;
let server: ChildProcess | null = null;

function env(dataDir: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO: 'false', SIM_LATENCY_MS: '0' };
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'CLIENT_DIST', 'LOG_LEVEL', 'VITEST']) delete e[k];
  return e;
}
const cli = (args: string[], dataDir: string) => run(process.execPath, ['dist/server/cli.js', ...args], { cwd: root, env: env(dataDir) });
const failed = (p: Promise<unknown>) => p.then(() => ({ code: 0, stdout: '', stderr: '' }), (e: { code: number; stdout: string; stderr: string }) => e);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-cli-'));
  await run(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { cwd: root });
}, 60_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('one entry for every job', () => {
  it('prints the version with the commit it was built from, the same string /api/health reports', async () => {
    const { version, commit } = buildInfo(root);
    const { stdout } = await cli(['--version'], path.join(dir, 'v'));
    expect(stdout.trim()).toBe(`${version}+${commit}`);
    expect(commit).toMatch(/^([0-9a-f]{12}(\.dirty)?|unknown)$/);

    const dataDir = path.join(dir, 'served');
    server = spawn(process.execPath, ['dist/server/cli.js'], { cwd: root, env: env(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line:\n${out}`)), 20_000);
      server!.stdout!.on('data', () => {
        const m = /Blast console on (http:\/\/localhost:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const health = (await (await fetch(`${url}/api/health`)).json()) as { version: string };
    expect(health.version).toBe(stdout.trim());
    // A start names each migration it applied.
    expect(out).toMatch(/migration applied migration=0000_init/);

    // While it runs: a backup is made, a restore over it is refused.
    const file = path.join(dir, 'online.db');
    const backup = await cli(['backup', file], dataDir);
    expect(backup.stdout).toMatch(/^Backed up .*blast\.db to .*online\.db \(\d+ bytes, with secret-key and jwt-secret and 0 uploaded file\(s\)\)\.$/m);
    const refused = await failed(cli(['restore', file], dataDir));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The server is running on .*stop it, then restore\./);
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));

    const restored = await cli(['restore', file], path.join(dir, 'restored'));
    expect(restored.stdout).toMatch(/^Restored .*blast\.db from .*online\.db \(a backup of \d+\.\d+\.\d+\+.*\), with secret-key and jwt-secret and 0 uploaded file\(s\)\.$/m);
  }, 60_000);

  it('lists its commands and variables with --help, and refuses an unknown command with them', async () => {
    const { stdout } = await cli(['--help'], path.join(dir, 'h'));
    for (const line of ['backup FILE', 'restore FILE', 'migrate', 'user:create', '--version', 'DATA_DIR', 'DATABASE_URL']) expect(stdout).toContain(line);
    const unknown = await failed(cli(['serve-please'], path.join(dir, 'h')));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown command "serve-please"\./);
  });

  it('prints user:create usage for --help and for an unknown option, not a stack trace', async () => {
    const help = await cli(['user:create', '--help'], path.join(dir, 'u'));
    expect(help.stdout).toMatch(/^Usage: .*--email .*--password/);
    expect(help.stdout).toContain('--reset-password');
    const bad = await failed(cli(['user:create', '--emial', 'x@y.z'], path.join(dir, 'u')));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--emial'/);
    expect(bad.stderr).toMatch(/Usage: /);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const made = await cli(['user:create', '--email', 'ops@example.com', '--password', 'secret123', '--role', 'admin'], path.join(dir, 'u'));
    expect(made.stdout).toMatch(/Created admin ops@example.com/);
  }, 30_000);

  it('applies the migrations with migrate, naming each, then finds nothing to apply', async () => {
    const first = await cli(['migrate'], path.join(dir, 'm'));
    expect(first.stdout).toMatch(/^Applied 0000_init$/m);
    expect(first.stdout).toMatch(/^\d+ migration\(s\) applied; the database is at \d{4}_\w+\.$/m);
    const again = await cli(['migrate'], path.join(dir, 'm'));
    expect(again.stdout.trim()).toMatch(/^No migration to apply: the database is at \d{4}_\w+\.$/);
  }, 30_000);

  it('sends a PostgreSQL install to pg_dump for its backup, with the command', async () => {
    const res = await failed(run(process.execPath, ['dist/server/cli.js', 'backup', 'nightly.dump'], { cwd: root, env: { ...env(path.join(dir, 'p')), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('pg_dump --format=custom --file="nightly.dump" "$DATABASE_URL"');
  });
});

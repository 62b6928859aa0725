import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/**
 * Starts `server/src/main.ts` (or, with `entry` 'built', the compiled `dist/server/main.js` as
 * `npm start` runs it) as its own process on SQLite in `dir` (no demo, simulator without latency, JSON
 * logs, no client build), with `env` on top; answers once it listens. Children are collected in
 * `children` so the caller can kill what is left.
 */
export function startServerProcess(
  dir: string,
  env: Record<string, string>,
  children: ChildProcess[],
  timeoutMs = 30_000,
  entry: 'source' | 'built' = 'source',
): Promise<ServerProcess> {
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO: '0',
    SIM_LATENCY_MS: '0',
    CLIENT_DIST: path.join(dir, 'no-client'),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...env,
  };
  delete full.DATABASE_URL;
  delete full.REDIS_URL;
  const args = entry === 'built' ? ['--enable-source-maps', 'dist/server/main.js'] : ['--import', 'tsx', 'server/src/main.ts'];
  const child = spawn(process.execPath, args, { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), timeoutMs);
    const check = () => {
      const m = /Blast console on http:\/\/localhost:(\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      const port = Number(m[1]);
      resolve({ child, port, base: `http://127.0.0.1:${port}`, output: () => out, exited });
    };
    child.stdout!.on('data', check);
    void exited.then(({ code }) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

/** Stops the collected server processes (SIGTERM) and waits until each has exited. */
export async function stopServerProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
  }
}

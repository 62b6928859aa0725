// The two-node test (tests/cluster): two server processes on one PostgreSQL database and one Redis.
// Without DATABASE_URL / REDIS_URL, or when they do not answer outside CI, it says so loudly and skips;
// on CI an unreachable server fails.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';

const banner = (why) => console.warn(`\n${'!'.repeat(78)}\n!!! Two-node run SKIPPED: ${why}\n${'!'.repeat(78)}\n`);
const skip = (why, fail) => {
  banner(why);
  process.exit(fail && process.env.CI ? 1 : 0);
};

const dbUrl = process.env.DATABASE_URL ?? '';
const redisUrl = process.env.REDIS_URL ?? '';
if (!/^postgres(ql)?:\/\//i.test(dbUrl)) skip('DATABASE_URL is not set to a postgres:// URL', false);
if (!/^rediss?:\/\//i.test(redisUrl)) skip('REDIS_URL is not set to a redis:// URL', false);

const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  await client.end();
} catch (err) {
  skip(`PostgreSQL ${dbUrl.replace(/:[^:@/]*@/, ':***@')} does not answer (${err.message})`, true);
}
const redis = new URL(redisUrl);
const reachable = await new Promise((resolve) => {
  const socket = net.connect(Number(redis.port || 6379), redis.hostname, () => {
    socket.end();
    resolve(true);
  });
  socket.setTimeout(3000, () => {
    socket.destroy();
    resolve(false);
  });
  socket.on('error', () => resolve(false));
});
if (!reachable) skip(`Redis ${redis.host} does not answer`, true);

const build = spawnSync('node', ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync('npx', ['playwright', 'test', '-c', 'playwright.cluster.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
process.exit(run.status ?? 1);

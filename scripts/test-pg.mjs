// The API suite again on PostgreSQL when DATABASE_URL names one (CI sets it). Without it, or when the
// server does not answer outside CI, it says so loudly and skips; on CI an unreachable server fails.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.DATABASE_URL ?? '';
const banner = (why) => console.warn(`\n${'!'.repeat(78)}\n!!! PostgreSQL run SKIPPED: ${why}\n${'!'.repeat(78)}\n`);

if (!/^postgres(ql)?:\/\//i.test(url)) {
  banner('DATABASE_URL is not set to a postgres:// URL (e.g. DATABASE_URL=postgres://root@127.0.0.1:5432/test npm test)');
  process.exit(0);
}

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  await client.end();
} catch (err) {
  banner(`${url.replace(/:[^:@/]*@/, ':***@')} does not answer (${err.message})`);
  process.exit(process.env.CI ? 1 : 0);
}

console.log(`API suite on PostgreSQL (${url.replace(/:[^:@/]*@/, ':***@')})`);
const run = spawnSync('npx', ['vitest', 'run', 'tests/api', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
process.exit(run.status ?? 1);

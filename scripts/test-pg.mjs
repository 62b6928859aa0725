// The API suite again on PostgreSQL when DATABASE_URL names one (CI sets it). Without it, or when the
// server does not answer outside CI, it says so loudly and skips; on CI an unreachable server fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
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

// Files not yet run on PostgreSQL, each with its reason (tests/pg-pending.json), are listed loudly.
const { pending } = JSON.parse(fs.readFileSync('tests/pg-pending.json', 'utf8'));
const all = fs.readdirSync('tests/api').filter((f) => f.endsWith('.test.ts')).map((f) => `tests/api/${f}`);
const files = all.filter((f) => !(f in pending));
console.warn(`\n${'!'.repeat(78)}\n!!! ${Object.keys(pending).length} of ${all.length} API test files are NOT yet run on PostgreSQL:`);
for (const [file, why] of Object.entries(pending)) console.warn(`!!!   ${file}: ${why}`);
console.warn(`${'!'.repeat(78)}\n`);
console.log(`API suite on PostgreSQL (${url.replace(/:[^:@/]*@/, ':***@')}): ${files.length} files`);
const run = spawnSync('npx', ['vitest', 'run', ...files, ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
process.exit(run.status ?? 1);

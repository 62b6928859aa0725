import path from 'node:path';
import { loadConfig } from './config';
import { closeDb, connectDb, openDb } from './db/client';
import { connectRedis } from './cluster/redis';
import { createContext } from './context';
import { createServer } from './server';
import { engineFor } from './engine/engine';
import { renormalizeStoredNumbers, reportLine, scheduleClassification } from './phonenumbers/renormalize';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../seed/demo';
import { bootstrapData } from './bootstrap';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = config.databaseUrl ? await connectDb(config.databaseUrl) : openDb(path.join(config.dataDir, 'blast.db'));
  const ctx = createContext(config, db);
  if (config.redisUrl) ctx.redis = await connectRedis(config.redisUrl);
  const renormalized = await renormalizeStoredNumbers(db);
  if (renormalized.checked) ctx.log(reportLine(renormalized));
  const stopClassifying = scheduleClassification(db, ctx.log);
  const boot = await bootstrapData(db, config, ctx.log);
  const { server, close } = createServer(ctx);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: unknown) => {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
    console.error(code === 'EADDRINUSE' ? `Port ${config.port} is already in use. Set PORT to a free port.` : `Cannot listen on port ${config.port}: ${String(err)}`);
    await closeDb(db);
    process.exit(1);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Blast console on http://localhost:${port}`);
  if (config.demo) {
    console.log(boot.demoSeeded ? 'Demo data seeded.' : 'Demo data already present.');
    console.log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const l of DEMO_LOGINS) console.log(`  ${l.role.padEnd(7)} ${l.email}`);
  }
  for (const line of boot.notices) console.log(line);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    stopClassifying();
    await engineFor(ctx).shutdown();
    await close();
    await ctx.redis?.close();
    await closeDb(db);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  // A configuration mistake is the operator's to fix: its message says what, a stack trace would not help.
  console.error(err instanceof Error && err.message.startsWith('Invalid configuration') ? err.message : err);
  process.exit(1);
});

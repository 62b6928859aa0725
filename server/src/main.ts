import path from 'node:path';
import { configNotices, loadConfig } from './config';
import { closeDb, connectDb, oneStartAtATime, openDb } from './db/client';
import { connectRedis } from './cluster/redis';
import { createContext } from './context';
import { createServer } from './server';
import { engineFor } from './engine/engine';
import { finishHeldStatuses } from './webhooks/service';
import { renormalizeStoredNumbers, reportLine, scheduleClassification } from './phonenumbers/renormalize';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../seed/demo';
import { bootstrapData } from './bootstrap';
import { startFailure } from './lib/errors';
import { holdStartup } from './whatsapp/events';
import { getLogger, markServerProcess } from './lib/logger';
import type { Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Server as IoServer } from 'socket.io';

async function main(): Promise<void> {
  markServerProcess();
  const config = loadConfig();
  const db = config.databaseUrl ? await connectDb(config.databaseUrl) : openDb(path.join(config.dataDir, 'blast.db'));
  const ctx = createContext(config, db);
  if (config.redisUrl) ctx.redis = await connectRedis(config.redisUrl, config.redisPrefix);
  // Nodes starting together take turns, as with migrations: the first rewrites, the others find it done.
  const renormalized = await oneStartAtATime(db, () => renormalizeStoredNumbers(db));
  if (renormalized.checked) ctx.log(reportLine(renormalized));
  const stopClassifying = scheduleClassification(db, ctx.log);
  const boot = await bootstrapData(db, config, ctx.log);
  // Saved sessions are re-opened and blasts resumed in the background once the server listens.
  const releaseStartup = holdStartup(ctx);
  const { server, io } = createServer(ctx);
  const drain = trackConnections(server);

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
  releaseStartup();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Blast console on http://localhost:${port}`);
  if (config.demo) {
    console.log(boot.demoSeeded ? 'Demo data seeded.' : 'Demo data already present.');
    console.log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const l of DEMO_LOGINS) console.log(`  ${l.role.padEnd(7)} ${l.email}`);
  }
  for (const line of [...configNotices(config), ...boot.notices]) console.log(line);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const log = getLogger();
    log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, `${signal}: shutting down`);
    // A backstop: whatever hangs after the drain (a store that never answers), the process still ends.
    const force = setTimeout(() => {
      log.error('shutdown did not finish: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000);
    force.unref();
    stopClassifying();
    // Live messages still waiting for their window go out before the sockets close.
    await drain(io, config.shutdownTimeoutMs, () => ctx.realtime.flush());
    await engineFor(ctx).shutdown();
    await finishHeldStatuses(ctx);
    await ctx.redis?.close();
    await closeDb(db);
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

// Held (not unref'd) timers: the process must not run out of work halfway through its shutdown.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Follows the server's connections and HTTP requests (socket.io's own excepted) and answers the drain a
 * shutdown runs: stop accepting connections, let the requests in flight finish (up to `timeoutMs`, answering
 * them with `Connection: close`), then close the sockets and cut whatever connection is left.
 */
function trackConnections(server: HttpServer) {
  const connections = new Set<Socket>();
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let settled: (() => void) | null = null;
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/socket.io/')) return;
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) server.closeIdleConnections();
      if (inFlight.size === 0) settled?.();
    });
  });

  return async (io: IoServer, timeoutMs: number, beforeClose: () => void): Promise<void> => {
    const log = getLogger();
    const deadline = Date.now() + timeoutMs;
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    if (inFlight.size > 0) {
      log.info({ requests: inFlight.size }, 'waiting for requests in flight');
      await Promise.race([new Promise<void>((resolve) => (settled = resolve)), sleep(timeoutMs)]);
      if (inFlight.size > 0) {
        log.warn({ requests: inFlight.size, timeoutMs }, 'requests still in flight after the timeout: closing them');
        server.closeAllConnections();
      }
    }
    beforeClose();
    const ioClosed = io.close();
    server.closeIdleConnections();
    const ended = await Promise.race([closed.then(() => true), sleep(Math.max(deadline - Date.now(), 1000)).then(() => false)]);
    if (!ended) {
      for (const socket of connections) socket.destroy();
      await closed;
    }
    await Promise.race([ioClosed, sleep(500)]);
    log.info('connections closed');
  };
}

main().catch((err: unknown) => {
  console.error(startFailure(err));
  process.exit(1);
});

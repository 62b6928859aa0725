import http from 'node:http';
import type { AppContext } from './context';
import { createApp } from './app';
import { attachSocket } from './realtime/socket';
import { closeHeldStatuses } from './webhooks/service';
import { closeScheduler } from './engine/schedule';

/** The HTTP server with the app and socket.io on one port; `listen` is the caller's. */
export function createServer(ctx: AppContext) {
  const app = createApp(ctx);
  const server = http.createServer(app);
  const io = attachSocket(ctx, server);
  const close = () =>
    new Promise<void>((resolve) => {
      ctx.realtime.flush();
      closeHeldStatuses(ctx);
      closeScheduler(ctx);
      void io.close();
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  return { app, server, io, close };
}

import type { Server as HttpServer } from 'node:http';
import express from 'express';
import { Server as IoServer, type Socket } from 'socket.io';
import type { AppContext } from '../context';
import { userFromToken } from '../auth/middleware';
import { roomsFor, type SocketIdentity } from './hub';
import { socketConnections } from '../metrics/registry';

/** setTimeout holds at most about 24.8 days; a 30-day token's timer is re-armed until it is due. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function closeAtExpiry(socket: Socket, expiresAt: number): void {
  let timer: NodeJS.Timeout;
  const arm = () => {
    const wait = expiresAt - Date.now();
    if (wait <= 0) {
      socket.disconnect(true);
      return;
    }
    timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  socket.once('disconnect', () => clearTimeout(timer));
}

/**
 * socket.io on the API origin. The handshake must carry a valid token (auth.token) and come from
 * the app's own origin (or a configured one); sockets join only the rooms their role allows, follow
 * role and password changes (RealtimeHub.recheckUser) and close when their token expires.
 */
export function attachSocket(ctx: AppContext, http: HttpServer): IoServer {
  // Express's own evaluation of TRUST_PROXY: is the peer a proxy whose X-Forwarded-Host we believe?
  const trusted = express().set('trust proxy', ctx.config.trustProxy).get('trust proxy fn') as (addr: string, i: number) => boolean;
  const io = new IoServer(http, {
    serveClient: false,
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      if (!origin) return callback(null, true); // non-browser clients send no Origin
      const hosts = [req.headers.host];
      const forwarded = req.headers['x-forwarded-host'];
      if (forwarded && trusted(req.socket.remoteAddress ?? '', 0)) {
        hosts.push(String(forwarded).split(',')[0]!.trim());
      }
      let sameOrigin = false;
      try {
        const originHost = new URL(origin).host;
        sameOrigin = hosts.some((h) => h !== undefined && h !== '' && h.toLowerCase() === originHost);
      } catch {
        sameOrigin = false;
      }
      callback(null, sameOrigin || ctx.config.allowedOrigins.includes(origin));
    },
  });

  io.use(async (socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const token = typeof auth.token === 'string' ? auth.token : '';
    const user = token ? await userFromToken(ctx, token) : null;
    if (!user) return next(new Error('Authorization token is missing or invalid'));
    const identity: SocketIdentity = { userId: user.id, role: user.role, token, expiresAt: user.expiresAt };
    socket.data = identity;
    next();
  });

  io.on('connection', (socket) => {
    const who = socket.data as SocketIdentity;
    for (const room of roomsFor(who.userId, who.role)) void socket.join(room);
    closeAtExpiry(socket, who.expiresAt);
    socketConnections.inc();
    socket.once('disconnect', () => socketConnections.dec());
  });

  if (ctx.redis) io.adapter(ctx.redis.socketAdapter());
  ctx.realtime.attach(
    io,
    async (token) => {
      const user = await userFromToken(ctx, token);
      return user ? { role: user.role } : null;
    },
    Boolean(ctx.redis),
    ctx.log,
  );
  return io;
}

import type { Server as HttpServer } from 'node:http';
import { Server as IoServer } from 'socket.io';
import type { AppContext } from '../context';
import { userFromToken } from '../auth/middleware';
import { rooms, type SocketIdentity } from './hub';

/**
 * socket.io on the API origin. The handshake must carry a valid token (auth.token) and come from
 * the app's own origin (or a configured one); sockets join only the rooms their role allows.
 */
export function attachSocket(ctx: AppContext, http: HttpServer): IoServer {
  const io = new IoServer(http, {
    serveClient: false,
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      if (!origin) return callback(null, true); // non-browser clients send no Origin
      const host = req.headers.host;
      let sameOrigin = false;
      try {
        sameOrigin = new URL(origin).host === host;
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
    const identity: SocketIdentity = { userId: user.id, role: user.role, token };
    socket.data = identity;
    next();
  });

  io.on('connection', (socket) => {
    const who = socket.data as SocketIdentity;
    void socket.join(rooms.user(who.userId));
    if (who.role === 'admin' || who.role === 'dev') {
      void socket.join(rooms.admin);
      void socket.join(rooms.clientAdmin);
    }
  });

  ctx.realtime.attach(io);
  return io;
}

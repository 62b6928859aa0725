import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb } from '../../server/src/db/client';
import { phoneNumbers } from '../../server/src/db/schema';
import { createContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { createUser, issueToken } from '../../server/src/auth/service';
import { publicUser } from '../../server/src/users/view';

/**
 * The real app (built client included) on its own in-memory database in the test's process, with
 * one admin and one phone number, so a test can emit live events through the server's realtime hub.
 */
export async function startLiveServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contacts-live-'));
  fs.mkdirSync(path.join(dataDir, 'uploads'));
  const db = await createTestDb();
  const ctx = createContext(testConfig({ dataDir, clientDist: path.resolve(process.env.CLIENT_DIST ?? 'dist/client') }), db, () => undefined);
  const { server, close } = createServer(ctx);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const admin = await createUser(db, { firstname: 'Live', lastname: 'Admin', email: 'live@admin.test', password: 'password123', role: 'admin', referredBy: null });
  const token = await issueToken(ctx, admin, false);
  const number = '6281299990001';
  const [row] = await db.insert(phoneNumbers).values({ number, name: 'Live Row' }).returning({ id: phoneNumbers.id });
  const id = row!.id;
  return {
    baseUrl: `http://localhost:${port}`,
    token,
    user: publicUser(admin),
    number,
    id,
    adminConnected: async () => (await ctx.realtime.connectedUserIds('admin')).has(admin.id),
    emit: (event: string, data: unknown) => ctx.realtime.toClientAdmin(event, data),
    close: async () => {
      await close();
      await closeDb(db);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

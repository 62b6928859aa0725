import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app';
import { testConfig } from '../../server/src/config';
import { createContext } from '../../server/src/context';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { createUser, issueToken } from '../../server/src/auth/service';
import { createLogger } from '../../server/src/lib/logger';

describe("the request log's client address and user id", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-request-log-'));
  let db: Db;
  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    db = await createTestDb();
  });
  afterAll(async () => {
    await closeDb(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function appWith(trustProxy: string | boolean) {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', format: 'json', destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } });
    const ctx = createContext(testConfig({ dataDir, trustProxy }), db, () => undefined);
    return { ctx, lines, app: createApp(ctx, { logger }) };
  }

  it('carries the address TRUST_PROXY resolves and the signed-in user id', async () => {
    const { ctx, lines, app } = appWith(true);
    const user = await createUser(db, { firstname: 'Log', lastname: 'Line', email: 'log@request-log.test', password: 'password123', role: 'member', referredBy: null });
    const token = await issueToken(ctx, user, false);
    await request(app).get(`/api/admin/users/${user.id}`).set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', '203.0.113.7').expect(200);
    await request(app).get('/api/admin/setting/get').set('X-Forwarded-For', '198.51.100.9').expect(401);
    const done = lines.filter((l) => l.msg === 'request completed');
    expect(done[0]).toMatchObject({ url: `/api/admin/users/${user.id}`, status: 200, ip: '203.0.113.7', userId: user.id });
    expect(done[1]).toMatchObject({ url: '/api/admin/setting/get', status: 401, ip: '198.51.100.9', userId: null });
  });

  it('ignores X-Forwarded-For from a peer TRUST_PROXY does not name', async () => {
    const { lines, app } = appWith(false);
    await request(app).get('/api/health').set('X-Forwarded-For', '203.0.113.7');
    await request(app).get('/api/config').set('X-Forwarded-For', '203.0.113.7').expect(200);
    const line = lines.find((l) => l.url === '/api/config');
    expect(line).toMatchObject({ status: 200, userId: null });
    expect(String(line!.ip)).toMatch(/127\.0\.0\.1|::1/);
  });
});

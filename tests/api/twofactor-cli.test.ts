import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/src/lib/paths';
import { closeDb, openDb } from '../../server/src/db/client';
import { auditLog, recoveryCodes, users } from '../../server/src/db/schema';

/**
 * The compiled `user:create --reset-2fa` on an embedded install (the service it calls is tested on both
 * stores in twofactor.test.ts): it needs no password, and it is refused without a valid email.
 */
const run = promisify(execFile);
const root = projectRoot();
let dataDir: string;

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DEMO: 'false' };
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD']) delete e[k];
  return e;
}
const cli = (...args: string[]) => run(process.execPath, ['dist/server/user-create.js', ...args], { cwd: root, env: env() });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-2fa-cli-'));
  await run(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { cwd: root });
}, 60_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('user:create --reset-2fa', () => {
  it('removes an account\'s two-factor without its password, audited, and says which account', async () => {
    await cli('--email', 'ops@example.com', '--password', 'secret123', '--role', 'admin');
    const db = openDb(path.join(dataDir, 'blast.db'));
    try {
      const [row] = await db.update(users).set({ totpSecret: 'v1:x:y:z', totpEnabledAt: new Date(), sessionEpoch: 3 }).where(eq(users.email, 'ops@example.com')).returning();
      await db.insert(recoveryCodes).values({ userId: row!.id, codeHash: 'h' });
      const { stdout } = await cli('--email', 'OPS@example.com', '--reset-2fa');
      expect(stdout).toMatch(/^Two-factor sign-in removed for admin ops@example.com \(id \d+\); its sessions have ended\.$/m);
      const [after] = await db.select().from(users).where(eq(users.id, row!.id));
      expect(after).toMatchObject({ totpSecret: null, totpEnabledAt: null, sessionEpoch: 4 });
      expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, row!.id))).toHaveLength(0);
      expect(await db.select({ actorId: auditLog.actorId }).from(auditLog).where(and(eq(auditLog.targetUserId, row!.id), eq(auditLog.action, '2fa.reset')))).toEqual([{ actorId: null }]);
    } finally {
      await closeDb(db);
    }
    const unknown = await cli('--email', 'nobody@example.com', '--reset-2fa').catch((e: { code: number; stderr: string }) => e);
    expect('code' in unknown && unknown.code).toBe(1);
    expect('stderr' in unknown && unknown.stderr).toContain('No account has the email nobody@example.com.');
    const bad = await cli('--email', 'not-an-email', '--reset-2fa').catch((e: { code: number; stderr: string }) => e);
    expect('code' in bad && bad.code).toBe(2);
    expect('stderr' in bad && bad.stderr).toContain('--email must be an email address');
  }, 60_000);
});

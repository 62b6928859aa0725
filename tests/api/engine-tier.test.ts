import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { messageLogs, whatsapps } from '../../server/src/db/schema';
import { RecipientWindow, TierGuard } from '../../server/src/engine/tier';

const HOUR = 3_600_000;

let t: TestApp;
let member: TestUser;
let account: number;

beforeAll(async () => {
  t = await startTestApp();
  member = await t.user('member');
  const [row] = await t.ctx.db.insert(whatsapps).values({ deviceId: 'tier-1', clientid: 'tier-1', userId: member.id, state: 'connected' }).returning({ id: whatsapps.id });
  account = row!.id;
});
afterAll(() => t.close());

const log = (number: string, hoursAgo: number, success = true, whatsappId = account) => ({
  whatsappId,
  userId: member.id,
  number,
  success,
  createdAt: new Date(Date.now() - hoursAgo * HOUR),
});

describe('the messaging-tier window', () => {
  it('reads the different numbers an account reached in the last 24 hours, then counts its own sends and lets old ones go', async () => {
    await t.ctx.db.insert(messageLogs).values([
      log('628111000001', 30), // older than 24 h
      log('628111000002', 20),
      log('628111000002', 2), // the same person twice: one recipient
      log('628111000003', 23.5),
      log('628111000004', 1, false), // not accepted
      log('628111000005', 1, true, account + 1000), // another account
    ]);
    const now = Date.now();
    const w = await RecipientWindow.read(t.ctx.db, account, now);
    expect(w.size(now)).toBe(2);
    w.add('628111000006', now);
    w.add('628111000002', now); // again: still one recipient
    expect(w.size(now)).toBe(3);
    // 1 h later the send of 23.5 h ago has left the window; 628111000002 stays (sent again since).
    expect(w.size(now + HOUR)).toBe(2);
    expect(w.size(now + 25 * HOUR)).toBe(0);
  });

  it('refuses at the limit without reading the log per send, reads it again when asked fresh or after forget', async () => {
    const guard = new TierGuard(t.ctx.db);
    expect(await guard.allows(account, 'TIER_UNLIMITED')).toBe(true);
    // Two recipients in the log (see above); TIER_50 allows 48 more.
    expect(await guard.allows(account, 'TIER_50')).toBe(true);
    for (let i = 0; i < 47; i++) guard.sent(account, `62822000${String(i).padStart(4, '0')}`);
    expect(await guard.allows(account, 'TIER_50')).toBe(true);
    guard.sent(account, '628229999999');
    expect(await guard.allows(account, 'TIER_50')).toBe(false);
    // These sends were never logged: a fresh read (a new start) or a forgotten window sees only the log.
    expect(await guard.allows(account, 'TIER_50', true)).toBe(true);
    guard.sent(account, '628229999998');
    guard.forget(account);
    expect(await guard.allows(account, 'TIER_50')).toBe(true);
    // A send the log holds counts after a fresh read.
    await t.ctx.db.insert(messageLogs).values(Array.from({ length: 48 }, (_, i) => log(`62833000${String(i).padStart(4, '0')}`, 0.5)));
    expect(await guard.allows(account, 'TIER_50')).toBe(true); // the window read before the inserts
    expect(await guard.allows(account, 'TIER_50', true)).toBe(false);
  });
});

import { afterAll, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { FakeGraph } from '../fakes/graph';
import { transaction } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { phoneNumbers, whatsapps } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { setRules } from './engine-fixtures';

/** Shared setup of the Cloud API gateway tests (cloud-gateway-linking and cloud-gateway-sending). */
export const fake = new FakeGraph();
export const WABA = '102938475610';
export const NUMBERS = {
  link: { phoneNumberId: '110000000000001', token: 'EAAGlinktoken0001', display_phone_number: '+62 812-3450-0001', verified_name: 'Toko Maju' },
  mix: { phoneNumberId: '110000000000002', token: 'EAAGmixtoken0002', display_phone_number: '+62 812-3450-0002', verified_name: 'Toko Campur' },
  slow: { phoneNumberId: '110000000000003', token: 'EAAGslowtoken003', display_phone_number: '+62 812-3450-0003', verified_name: 'Toko Pelan' },
  expire: { phoneNumberId: '110000000000004', token: 'EAAGexpiretoken4', display_phone_number: '+62 812-3450-0004', verified_name: 'Toko Habis' },
  jobs: { phoneNumberId: '110000000000005', token: 'EAAGjobstoken005', display_phone_number: '+62 812-3450-0005', verified_name: 'Toko Cek' },
  tier: { phoneNumberId: '110000000000006', token: 'EAAGtiertoken006', display_phone_number: '+62 812-3450-0006', verified_name: 'Toko Kecil', messaging_limit_tier: 'TIER_50' },
};

// Live bindings: set by useCloudApp's beforeAll, read by the tests when they run.
export let t: TestApp;
export let member: TestUser;
export let admin: TestUser;

/**
 * The app with the Cloud API gateway against a fake Graph API holding the numbers above, a member and an
 * admin, and blasting rules without pauses; registered as the file's beforeAll/afterAll.
 */
export function useCloudApp(): void {
  beforeAll(async () => {
    await fake.start();
    for (const n of Object.values(NUMBERS)) fake.addNumber(n);
    fake.numbers.get(NUMBERS.link.phoneNumberId)!.quality_rating = 'YELLOW';
    t = await startTestApp({
      gateway: 'cloud-api',
      cloud: { baseUrl: fake.url, appSecret: 'test-app-secret', verifyToken: 'test-verify-token', ratePerSecond: 80, publicUrl: 'https://blast.example.com' },
    });
    member = await t.user('member');
    admin = await t.user('admin');
    await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 40, referralPercent: 0 });
  });
  afterAll(async () => {
    await engineFor(t.ctx).shutdown();
    await t.close();
    await fake.close();
  });
}

export function link(user: TestUser, n: { phoneNumberId: string; token: string }, over: Record<string, unknown> = {}) {
  return t.http
    .post('/api/admin/whatsapp/cloud-link')
    .set(user.auth)
    .send({ phoneNumberId: n.phoneNumberId, wabaId: WABA, accessToken: n.token, ...over });
}

let targetSeq = 0;
/** Fresh blast targets (never messaged, so claimed before anything else, in id order). */
export async function addTargets(n: number): Promise<Array<{ id: number; number: string; name: string }>> {
  return transaction(t.ctx.db, async (tx) => {
    const out: Array<{ id: number; number: string; name: string }> = [];
    for (let i = 0; i < n; i++) {
      targetSeq += 1;
      const [row] = await tx
        .insert(phoneNumbers)
        .values({ number: `6281290${String(targetSeq).padStart(6, '0')}`, name: `Pelanggan ${targetSeq}` })
        .returning({ id: phoneNumbers.id, number: phoneNumbers.number, name: phoneNumbers.name });
      out.push(row!);
    }
    return out;
  });
}

export const accountRow = async (id: number) => (await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, id)).limit(1)))!;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAllCountries } from 'countries-and-timezones';
import { messageLogs, phoneNumbers } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { closeDb, createTestDb } from '../../server/src/db/client';
import { getSettings, settingsView } from '../../server/src/settings/service';
import { engineStore } from '../../server/src/engine/store';
import { insideAt, MOST_POPULOUS, nextOpening, windowFilter, zoneOfNumber, type SendWindow } from '../../server/src/engine/window';
import { connected, startTestApp, type TestApp, type TestUser } from '../helpers';
import { linkByQr, eventually, type LinkedAccount } from './whatsapp-fixtures';
import { addTemplate, setRules, startBlast, untilIdle } from './engine-fixtures';

/**
 * 'Jam Kirim' read in each recipient's local time, on the real engine with a fake clock: Indonesia
 * (+62, Asia/Jakarta, UTC+7) and the United Kingdom (+44, Europe/London, UTC+0 in December).
 */
const at = (iso: string) => Date.parse(iso);
const DAY: SendWindow = { from: '08:00', to: '20:00', zone: 'Asia/Jakarta' };
const ID_NUMBERS = ['6281298760001', '6281298760002'];
const UK_NUMBERS = ['447700900001', '447700900002'];

describe('the window itself', () => {
  it('is inclusive at its start and exclusive at its end, wraps past midnight, and never closes when from equals to', () => {
    const m = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    expect(insideAt(DAY, m('07:59'))).toBe(false);
    expect(insideAt(DAY, m('08:00'))).toBe(true);
    expect(insideAt(DAY, m('19:59'))).toBe(true);
    expect(insideAt(DAY, m('20:00'))).toBe(false);
    const night = { from: '22:00', to: '06:00' };
    expect([m('21:59'), m('22:00'), m('00:00'), m('05:59'), m('06:00')].map((x) => insideAt(night, x))).toEqual([false, true, true, true, false]);
    expect([0, 720, 1439].every((x) => insideAt({ from: '00:00', to: '00:00' }, x))).toBe(true);
  });

  it("reads a number in its country's most populous zone, and a number of no country in the install's", () => {
    expect(zoneOfNumber('6281298760001', 'Asia/Jakarta')).toBe('Asia/Jakarta');
    expect(zoneOfNumber('447700900001', 'Asia/Jakarta')).toBe('Europe/London');
    expect(zoneOfNumber('12025550123', 'Asia/Jakarta')).toBe('America/New_York');
    expect(zoneOfNumber('79161234567', 'Asia/Jakarta')).toBe('Europe/Moscow');
    expect(zoneOfNumber('80012345678', 'Asia/Makassar')).toBe('Asia/Makassar');
    // Every country the package lists with several zones has its most populous one chosen here.
    const multi = Object.values(getAllCountries()).filter((c) => c.timezones.length > 1);
    for (const c of multi) expect(c.timezones, c.id).toContain(MOST_POPULOUS[c.id]);
  });

  it('lets through numbers of no country exactly when the install zone is inside', () => {
    const open = windowFilter(DAY, at('2026-12-03T03:00:00Z'));
    expect(open.match).toBe(false);
    expect(open.codes).toContain('44');
    expect(open.codes).not.toContain('62');
    const closed = windowFilter(DAY, at('2026-12-03T14:00:00Z'));
    expect(closed.match).toBe(true);
    expect(closed.codes).toContain('44');
    expect(closed.codes).not.toContain('62');
  });

  it('names the next opening among the zones waited for', () => {
    const now = at('2026-12-03T00:30:20Z');
    expect(nextOpening(DAY, ['Asia/Jakarta', 'Europe/London'], now)).toBe(at('2026-12-03T01:00:00Z'));
    expect(nextOpening(DAY, ['Europe/London'], now)).toBe(at('2026-12-03T08:00:00Z'));
    expect(nextOpening({ ...DAY, to: '08:00' }, ['Europe/London'], now)).toBeNull();
  });
});

let t: TestApp;
let admin: TestUser;
let member: TestUser;
let account: LinkedAccount;
let fakeNow = at('2026-12-03T00:59:00Z');

const SETTINGS = { interval_min: 0, interval_max: 0, price: 0, bank_names: 'BCA', colors: '#2C2C2C', referral_percent: 0, info: 'x', recipient_cooldown: 24 };
/** The window wait of the account's row in the WhatsApp list, as the list loads it. */
const listedWait = async (who: TestUser) => {
  const res = await t.http.get('/api/admin/whatsapp/list-per-page').query({ page: 1, user_id: member.id }).set(who.auth).expect(200);
  const listed = (res.body.data as Array<{ id: number; windowOpensAt: string | null }>).find((r) => r.id === account.id);
  expect(listed, 'the account is listed').toBeDefined();
  return listed!.windowOpensAt;
};
const saveWindow = (fields: Record<string, unknown>) => t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...SETTINGS, ...fields });

beforeAll(async () => {
  t = await startTestApp({ sim: { seed: 'window', latencyMs: 0, failureRate: 0 } });
  admin = await t.user('admin');
  member = await t.user('member');
  account = await linkByQr(t, member, { phonenumber: '6281299990091', pushname: 'Jendela' });
  await addTemplate(t.ctx.db);
  const engine = engineFor(t.ctx);
  engine.setClock(() => fakeNow);
  engine.options.windowPollMs = 40;
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe("'Jam Kirim' in settings", () => {
  it('is 08:00–20:00 Asia/Jakarta on a new install, is saved, and refuses a bad time or zone with a clear message', async () => {
    const fresh = await createTestDb();
    expect(settingsView(await getSettings(fresh))).toMatchObject({ send_from: '08:00', send_to: '20:00', time_zone: 'Asia/Jakarta' });
    await closeDb(fresh);
    await setRules(t.ctx.db, { sendFrom: '08:00', sendTo: '20:00' });
    const before = await t.http.get('/api/admin/setting/get').set(admin.auth).expect(200);
    expect(before.body.setting).toMatchObject({ send_from: '08:00', send_to: '20:00', time_zone: 'Asia/Jakarta' });

    const badTime = await saveWindow({ send_from: '8:00', send_to: '24:00' });
    expect(badTime.status).toBe(422);
    expect(badTime.body.errors.send_from).toBe('Jam Kirim harus berformat JJ:MM (00:00–23:59), mis. 08:00.');
    expect(badTime.body.errors.send_to).toBe('Jam Kirim harus berformat JJ:MM (00:00–23:59), mis. 08:00.');
    const badZone = await saveWindow({ time_zone: 'Asia/Atlantis' });
    expect(badZone.status).toBe(422);
    expect(badZone.body.errors.time_zone).toBe('Zona Waktu harus nama zona waktu IANA yang dikenal, mis. Asia/Jakarta.');
    // Nothing was lost.
    const still = await t.http.get('/api/admin/setting/get').set(admin.auth);
    expect(still.body.setting).toMatchObject({ send_from: '08:00', send_to: '20:00', time_zone: 'Asia/Jakarta' });

    const saved = await saveWindow({ send_from: '22:00', send_to: '06:00', time_zone: 'asia/makassar' });
    expect(saved.status).toBe(200);
    expect(saved.body.setting).toMatchObject({ send_from: '22:00', send_to: '06:00', time_zone: 'Asia/Makassar' });
    await saveWindow({ send_from: '08:00', send_to: '20:00', time_zone: 'Asia/Jakarta' }).expect(200);
  });
});

describe('a blast across two countries in different zones', () => {
  it('sends to each country only inside its local window, says until when it waits, and resumes by itself', async () => {
    await t.ctx.db.insert(phoneNumbers).values([...ID_NUMBERS, ...UK_NUMBERS].map((number) => ({ number, name: number })));
    const sentTo = async () => (await t.ctx.db.select({ number: messageLogs.number }).from(messageLogs)).map((r) => r.number).sort();
    const s = t.socket(member.token);
    await connected(s);
    const waits: string[] = [];
    s.on(String(member.id), (m: { event: string; data: { id: number; windowOpensAt?: string } }) => {
      if (m.event === 'window_wait' && m.data.id === account.id) waits.push(m.data.windowOpensAt!);
    });

    // 07:59 in Jakarta, 00:59 in London: nobody is inside; the blast starts and waits for Jakarta's 08:00.
    fakeNow = at('2026-12-03T00:59:00Z');
    expect((await startBlast(t, member, account.id)).status).toBe(200);
    await eventually(() => waits, (w) => w.includes('08:00'), 5000);
    expect(await sentTo()).toEqual([]);
    const row = await t.http.get(`/api/admin/whatsapp/${account.id}`).set(member.auth);
    expect(row.body.whatsapp.status).toBe('sending');
    // A list loaded now says so at once, for the member and for an admin, without waiting for the next `window_wait`.
    expect(row.body.whatsapp.windowOpensAt).toBe('08:00');
    expect(await listedWait(member)).toBe('08:00');
    expect(await listedWait(admin)).toBe('08:00');

    // 08:00 in Jakarta: the Indonesian numbers go, the British ones wait for London's 08:00 (15:00 in Jakarta).
    fakeNow = at('2026-12-03T01:00:00Z');
    await eventually(sentTo, (n) => n.length === 2, 5000, (n) => `sent to ${n.join(', ')}`);
    expect(await sentTo()).toEqual(ID_NUMBERS);
    await eventually(() => waits, (w) => w.includes('15:00'), 5000);
    expect(await listedWait(member)).toBe('15:00');

    // 07:59 in London: still nothing for the United Kingdom.
    fakeNow = at('2026-12-03T07:59:00Z');
    await new Promise((r) => setTimeout(r, 300));
    expect(await sentTo()).toEqual(ID_NUMBERS);

    // 08:00 in London: the rest goes, and the blast ends with nothing left.
    fakeNow = at('2026-12-03T08:00:00Z');
    const idle = await untilIdle(t, member, account.id, 10_000);
    // Unregistered numbers of the simulated network fail; each was attempted once, all inside their window.
    expect(Number(idle.count_success) + Number(idle.count_fail)).toBe(4);
    expect(await sentTo()).toEqual([...ID_NUMBERS, ...UK_NUMBERS].sort());
    // Idle, the row waits for nothing.
    expect(await listedWait(member)).toBeNull();
  });

  it('claims at the closing edge: 19:59 local is inside, 20:00 is not', async () => {
    const store = engineStore(t.ctx.db);
    await t.ctx.db.insert(phoneNumbers).values([{ number: '6281298760003', name: 'late' }]);
    const claim = (now: number) =>
      store.tick({
        now,
        cutoff: now - 86_400_000,
        records: [],
        releases: [],
        claims: [account.id],
        window: windowFilter(DAY, now),
        rules: { fee: () => 0, referral: () => 0, interval: () => 0 },
      });
    // 20:00 in Jakarta: closed.
    expect((await claim(at('2026-12-03T13:00:00Z'))).claims[0]).toBeNull();
    // 19:59 in Jakarta: open.
    const got = (await claim(at('2026-12-03T12:59:00Z'))).claims[0];
    expect(got?.number).toBe('6281298760003');
    await store.tick({ now: fakeNow, cutoff: 0, records: [], releases: [got!.id], claims: [], window: windowFilter(DAY, fakeNow), rules: { fee: () => 0, referral: () => 0, interval: () => 0 } });
  });
});

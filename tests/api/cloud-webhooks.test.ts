import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { transaction } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { levels, messageLogs, optOuts, phoneNumbers, referralCredits, settings, users, whatsapps } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { STOP_BUTTON_PREFIX } from '../../server/src/engine/templates';
import { signBody } from '../../server/src/webhooks/signature';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { invariantViolations } from './engine-fixtures';

const SECRET = 'test-app-secret';
const PHONE_NUMBER_ID = '109876543210';
const PRICE = 150;
const PERCENT = 10;

let t: TestApp;
let referrer: TestUser;
let member: TestUser;
let accountId: number;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp();
  referrer = await t.user('member');
  member = await t.user('member', { referredBy: referrer.id });
  await t.ctx.db.update(settings).set({ price: PRICE, referralPercent: PERCENT }).where(eq(settings.id, 1));
  const [row] = await t.ctx.db
    .insert(whatsapps)
    .values({
      deviceId: `cloud-${PHONE_NUMBER_ID}`,
      clientid: `cloud-${PHONE_NUMBER_ID}`,
      phonenumber: '6281300001111',
      pushname: 'Toko Uji',
      server: 'c.us',
      serialized: '6281300001111@c.us',
      userId: member.id,
      state: 'connected',
      gateway: 'cloud-api',
      cloudPhoneNumberId: PHONE_NUMBER_ID,
      cloudWabaId: '2000000000001',
      cloudToken: 'v1:aXY=:dGFn:Y2lwaGVy',
    })
    .returning({ id: whatsapps.id });
  accountId = row!.id;
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

/**
 * Sends accepted by the Cloud API as the engine records them: success, income 0, a wamid and
 * delivery_status 'sent', with the account's, member's and number's counters to match.
 */
async function acceptedSends(n: number): Promise<Array<{ id: number; wamid: string; number: string; phoneNumberId: number }>> {
  return transaction(t.ctx.db, async (tx) => {
    const out: Array<{ id: number; wamid: string; number: string; phoneNumberId: number }> = [];
    for (let i = 0; i < n; i += 1) {
      seq += 1;
      const number = `62812${String(70000000 + seq)}`;
      const wamid = `wamid.HBgN${seq}${Date.now()}`;
      const [target] = await tx
        .insert(phoneNumbers)
        .values({ number, name: `Target ${seq}`, countSuccess: 1, lastSent: new Date() })
        .returning({ id: phoneNumbers.id });
      const [log] = await tx
        .insert(messageLogs)
        .values({
          whatsappId: accountId,
          userId: member.id,
          phoneNumberId: target!.id,
          number,
          success: true,
          income: 0,
          waMessageId: wamid,
          deliveryStatus: 'sent',
        })
        .returning({ id: messageLogs.id });
      out.push({ id: log!.id, wamid, number, phoneNumberId: target!.id });
    }
    await tx.update(whatsapps).set({ countSuccess: sql`${whatsapps.countSuccess} + ${n}` }).where(eq(whatsapps.id, accountId));
    await tx.update(users).set({ totalSuccess: sql`${users.totalSuccess} + ${n}` }).where(eq(users.id, member.id));
    return out;
  });
}

interface StatusItem {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  errors?: Array<{ code: number; title: string; message?: string }>;
}

function statusBody(statuses: StatusItem[], phoneNumberId = PHONE_NUMBER_ID) {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '2000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '6281300001111', phone_number_id: phoneNumberId },
              statuses: statuses.map((s) => ({ recipient_id: '6281200000000', timestamp: ts, ...s })),
            },
          },
        ],
      },
    ],
  };
}

function messageBody(messages: Array<Record<string, unknown>>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '2000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '6281300001111', phone_number_id: PHONE_NUMBER_ID },
              contacts: [{ profile: { name: 'Budi' }, wa_id: '6281200000000' }],
              messages: messages.map((m, i) => ({ id: `wamid.IN${Date.now()}${i}`, timestamp: String(Math.floor(Date.now() / 1000)), ...m })),
            },
          },
        ],
      },
    ],
  };
}

/** Posts the exact bytes Meta would, signed with the app secret (or the given signature). */
function post(body: unknown, signature?: string | null) {
  const raw = JSON.stringify(body);
  const req = t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json');
  const sig = signature === undefined ? signBody(SECRET, raw) : signature;
  return (sig === null ? req : req.set('X-Hub-Signature-256', sig)).send(raw);
}

const logRow = async (id: number) => (await one(t.ctx.db.select().from(messageLogs).where(eq(messageLogs.id, id)).limit(1)))!;
const account = async () => (await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, accountId)).limit(1)))!;
const user = async (id: number) => (await one(t.ctx.db.select().from(users).where(eq(users.id, id)).limit(1)))!;
const credits = async (logId: number) => t.ctx.db.select().from(referralCredits).where(eq(referralCredits.messageLogId, logId));

let before: { account: { countSuccess: number; countFail: number; income: number }; member: { totalSuccess: number; totalFail: number; income: number } };
beforeEach(async () => {
  const a = await account();
  const m = await user(member.id);
  before = {
    account: { countSuccess: a.countSuccess, countFail: a.countFail, income: a.income },
    member: { totalSuccess: m.totalSuccess, totalFail: m.totalFail, income: m.income },
  };
});

describe('webhook verification', () => {
  it("answers Meta's challenge as text when the verify token is ours, and refuses otherwise", async () => {
    const ok = await t.http.get('/api/webhooks/whatsapp').query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'test-verify-token', 'hub.challenge': '1158201444' });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    expect(ok.text).toBe('1158201444');

    const wrong = await t.http.get('/api/webhooks/whatsapp').query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' });
    expect(wrong.status).toBe(403);
    const mode = await t.http.get('/api/webhooks/whatsapp').query({ 'hub.mode': 'unsubscribe', 'hub.verify_token': 'test-verify-token', 'hub.challenge': '1' });
    expect(mode.status).toBe(403);
    expect((await t.http.get('/api/webhooks/whatsapp')).status).toBe(403);
  });

  it('refuses a body without a signature, or signed with another secret or over other bytes, and records nothing', async () => {
    const [send] = await acceptedSends(1);
    const body = statusBody([{ id: send!.wamid, status: 'delivered' }]);
    expect((await post(body, null)).status).toBe(401);
    expect((await post(body, signBody('another-secret', JSON.stringify(body)))).status).toBe(401);
    expect((await post(body, signBody(SECRET, JSON.stringify(statusBody([]))))).status).toBe(401);
    expect((await post(body, 'sha256=nothex')).status).toBe(401);
    const row = await logRow(send!.id);
    expect(row.deliveryStatus).toBe('sent');
    expect(row.income).toBe(0);
    expect((await user(member.id)).income).toBe(before.member.income);
  });
});

describe('delivery statuses', () => {
  it('pays the fee once on delivered, credits the referrer, and a duplicate or a later read pays nothing more', async () => {
    const [send] = await acceptedSends(1);
    const referrerBefore = (await user(referrer.id)).income;
    const res = await post(statusBody([{ id: send!.wamid, status: 'delivered' }]));
    expect(res.status).toBe(200);

    const row = await logRow(send!.id);
    expect(row).toMatchObject({ success: true, income: PRICE, deliveryStatus: 'delivered' });
    expect(row.statusAt).toBeInstanceOf(Date);
    expect((await account()).income).toBe(before.account.income + PRICE);
    expect((await user(member.id)).income).toBe(before.member.income + PRICE);
    const credit = await credits(send!.id);
    expect(credit).toHaveLength(1);
    expect(credit[0]).toMatchObject({ referrerId: referrer.id, referredId: member.id, amount: Math.floor((PRICE * PERCENT) / 100) });
    // A referral credit is not income of the referrer.
    expect((await user(referrer.id)).income).toBe(referrerBefore);

    expect((await post(statusBody([{ id: send!.wamid, status: 'delivered' }]))).status).toBe(200);
    expect((await post(statusBody([{ id: send!.wamid, status: 'read' }]))).status).toBe(200);
    expect((await post(statusBody([{ id: send!.wamid, status: 'sent' }]))).status).toBe(200);
    expect((await post(statusBody([{ id: send!.wamid, status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] }]))).status).toBe(200);

    expect(await logRow(send!.id)).toMatchObject({ success: true, income: PRICE, deliveryStatus: 'read' });
    expect((await user(member.id)).income).toBe(before.member.income + PRICE);
    expect((await account()).income).toBe(before.account.income + PRICE);
    expect(await credits(send!.id)).toHaveLength(1);
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
  });

  it("pays on 'read' when 'delivered' never came, and uses the member's own fee when set", async () => {
    await t.ctx.db.update(users).set({ blastFee: 275 }).where(eq(users.id, member.id));
    try {
      const [send] = await acceptedSends(1);
      expect((await post(statusBody([{ id: send!.wamid, status: 'read' }, { id: send!.wamid, status: 'delivered' }]))).status).toBe(200);
      expect(await logRow(send!.id)).toMatchObject({ income: 275, deliveryStatus: 'read' });
      expect((await user(member.id)).income).toBe(before.member.income + 275);
      expect((await credits(send!.id))[0]?.amount).toBe(27);
    } finally {
      await t.ctx.db.update(users).set({ blastFee: null }).where(eq(users.id, member.id));
    }
  });

  it("turns an accepted send into a failure on 'failed': the row, the account's, member's and number's counters", async () => {
    const [send] = await acceptedSends(1);
    const a = await account();
    const m = await user(member.id);
    const res = await post(
      statusBody([{ id: send!.wamid, status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message', message: 'More than 24 hours have passed' }] }]),
    );
    expect(res.status).toBe(200);
    const row = await logRow(send!.id);
    expect(row).toMatchObject({ success: false, income: 0, deliveryStatus: 'failed', errorCode: 'reengagement' });
    expect(row.deliveryError).toContain('131047');
    expect(await account()).toMatchObject({ countSuccess: a.countSuccess - 1, countFail: a.countFail + 1, income: a.income });
    expect(await user(member.id)).toMatchObject({ totalSuccess: m.totalSuccess - 1, totalFail: m.totalFail + 1, income: m.income });
    const target = await one(t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, send!.phoneNumberId)).limit(1));
    expect(target).toMatchObject({ countSuccess: 0, countFail: 1 });

    // Meta's retry, and a late 'delivered', change nothing.
    await post(statusBody([{ id: send!.wamid, status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message' }] }]));
    await post(statusBody([{ id: send!.wamid, status: 'delivered' }]));
    expect(await logRow(send!.id)).toMatchObject({ success: false, income: 0, deliveryStatus: 'failed' });
    expect(await account()).toMatchObject({ countSuccess: a.countSuccess - 1, countFail: a.countFail + 1 });
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
  });

  it("names a failure by the template's or the number's refusal, as the gateway does", async () => {
    const [paused, locked] = await acceptedSends(2);
    await post(
      statusBody([
        { id: paused!.wamid, status: 'failed', errors: [{ code: 132015, title: 'Template is Paused' }] },
        { id: locked!.wamid, status: 'failed', errors: [{ code: 131031, title: 'Business Account locked' }] },
      ]),
    );
    expect(await logRow(paused!.id)).toMatchObject({ success: false, errorCode: 'no_template' });
    expect(await logRow(locked!.id)).toMatchObject({ success: false, errorCode: 'account_restricted' });
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
  });

  it('checks the signature over the exact bytes sent: a pretty-printed body of a few hundred KB with escapes is applied', async () => {
    const [send] = await acceptedSends(1);
    const padding: StatusItem[] = Array.from({ length: 1500 }, (_, i) => ({ id: `wamid.other-app-${i}`, status: 'read' }));
    const body = statusBody([...padding, { id: send!.wamid, status: 'delivered' }]);
    const raw = JSON.stringify(body, null, 2).replace('"messaging_product"', '"messaging\\u005fproduct"');
    expect(Buffer.byteLength(raw)).toBeGreaterThan(200_000);
    const res = await t.http
      .post('/api/webhooks/whatsapp')
      .set('Content-Type', 'application/json; charset=utf-8')
      .set('X-Hub-Signature-256', signBody(SECRET, raw))
      .send(raw);
    expect(res.status).toBe(200);
    expect(await logRow(send!.id)).toMatchObject({ income: PRICE, deliveryStatus: 'delivered' });
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
  });

  it("applies a signed body of 2.5 MB (Meta's payloads reach 3 MB) and refuses one above 3 MB", async () => {
    const [send] = await acceptedSends(1);
    const raw = JSON.stringify(statusBody([{ id: send!.wamid, status: 'delivered' }]));
    // Whitespace between JSON tokens is part of the signed bytes like any other.
    const padded = raw.replace('"object"', `${' '.repeat(2_500_000 - Buffer.byteLength(raw))}"object"`);
    expect(Buffer.byteLength(padded)).toBe(2_500_000);
    const res = await t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signBody(SECRET, padded)).send(padded);
    expect(res.status).toBe(200);
    expect(await logRow(send!.id)).toMatchObject({ income: PRICE, deliveryStatus: 'delivered' });

    const huge = ' '.repeat(3 * 1024 * 1024 + 1);
    const refused = await t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signBody(SECRET, huge)).send(huge);
    expect(refused.status).toBe(413);
  });

  it("ignores and logs a status whose metadata.phone_number_id is not the number that sent the message", async () => {
    const [send] = await acceptedSends(1);
    const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
    const log = t.ctx.log;
    t.ctx.log = (msg, _err, fields) => void lines.push({ msg, fields });
    try {
      // A number linked elsewhere, or none Meta knows here: either way not the sender.
      for (const other of ['109876543299', '']) {
        const res = await post(statusBody([{ id: send!.wamid, status: 'delivered' }], other));
        expect(res.status).toBe(200);
      }
    } finally {
      t.ctx.log = log;
    }
    expect(await logRow(send!.id)).toMatchObject({ success: true, income: 0, deliveryStatus: 'sent' });
    expect((await user(member.id)).income).toBe(before.member.income);
    expect((await account()).income).toBe(before.account.income);
    const ignored = lines.filter((l) => l.msg.startsWith('Cloud API status ignored'));
    expect(ignored).toHaveLength(2);
    expect(ignored[0]!.fields).toMatchObject({ messageId: send!.wamid, status: 'delivered', phoneNumberId: '109876543299', accountId });
    // The sender's own number still applies it.
    expect((await post(statusBody([{ id: send!.wamid, status: 'delivered' }]))).status).toBe(200);
    expect(await logRow(send!.id)).toMatchObject({ success: true, income: PRICE, deliveryStatus: 'delivered' });
  });

  it('ignores unknown message ids with 200', async () => {
    const res = await post(statusBody([{ id: 'wamid.unknown-to-us', status: 'delivered' }]));
    expect(res.status).toBe(200);
    expect((await user(member.id)).income).toBe(before.member.income);
    expect((await account()).income).toBe(before.account.income);
  });

  it('applies 50 mixed statuses in one body so the counters and income equal the log afterwards, and again the same body changes nothing', async () => {
    const sends = await acceptedSends(50);
    const statuses: StatusItem[] = [];
    sends.forEach((s, i) => {
      if (i % 5 === 0) statuses.push({ id: s.wamid, status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] });
      else if (i % 5 === 1) statuses.push({ id: s.wamid, status: 'sent' });
      else if (i % 5 === 2) statuses.push({ id: s.wamid, status: 'delivered' }, { id: s.wamid, status: 'read' });
      else statuses.push({ id: s.wamid, status: 'delivered' });
    });
    statuses.push({ id: 'wamid.not-ours', status: 'delivered' });
    const body = statusBody(statuses);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(100 * 50);
    expect((await post(body)).status).toBe(200);

    const failed = sends.filter((_, i) => i % 5 === 0).length;
    const paid = sends.filter((_, i) => i % 5 >= 2).length;
    expect(await account()).toMatchObject({
      countSuccess: before.account.countSuccess + 50 - failed,
      countFail: before.account.countFail + failed,
      income: before.account.income + paid * PRICE,
    });
    expect(await user(member.id)).toMatchObject({ income: before.member.income + paid * PRICE });
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);

    expect((await post(body)).status).toBe(200);
    expect(await account()).toMatchObject({ countFail: before.account.countFail + failed, income: before.account.income + paid * PRICE });
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
  });

  it('pays the level of the member\'s successful messages before the send, even when later sends moved them up a level', async () => {
    await t.ctx.db.update(users).set({ blastFee: null }).where(eq(users.id, member.id));
    const reached = (await user(member.id)).totalSuccess + 2;
    const made = await t.ctx.db
      .insert(levels)
      .values([
        { name: 'Dasar', blastFee: 100, requirementBlast: 0 },
        { name: 'Naik', blastFee: 200, requirementBlast: reached },
      ])
      .returning({ id: levels.id });
    try {
      // Five sends accepted one after the other: the first two before the member reached 'Naik', the other three after.
      const sends = await acceptedSends(5);
      // Their deliveries come later, in reverse order.
      for (const s of [...sends].reverse()) expect((await post(statusBody([{ id: s.wamid, status: 'delivered' }]))).status).toBe(200);
      const incomes = [];
      for (const s of sends) incomes.push((await logRow(s.id)).income);
      expect(incomes).toEqual([100, 100, 200, 200, 200]);
      expect((await user(member.id)).income).toBe(before.member.income + 800);
      expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
    } finally {
      for (const l of made) await t.ctx.db.delete(levels).where(eq(levels.id, l.id));
    }
  });

  it('statuses of one member posted at once, each twice and out of order, pay every message once and are all answered 200', async () => {
    const sends = await acceptedSends(15);
    // Meta posts each status on its own and retries it; 'read' may overtake 'delivered'.
    const posts = sends.flatMap((s) => [statusBody([{ id: s.wamid, status: 'read' }]), statusBody([{ id: s.wamid, status: 'delivered' }]), statusBody([{ id: s.wamid, status: 'delivered' }])]);
    const answers = await Promise.all(posts.map((b) => post(b)));
    expect(answers.map((r) => r.status)).toEqual(posts.map(() => 200));
    for (const s of sends) expect(await logRow(s.id)).toMatchObject({ success: true, income: PRICE, deliveryStatus: 'read' });
    expect((await user(member.id)).income).toBe(before.member.income + 15 * PRICE);
    expect((await account()).income).toBe(before.account.income + 15 * PRICE);
    for (const s of sends) expect(await credits(s.id)).toHaveLength(1);
    expect(await invariantViolations(t.ctx.db, PERCENT)).toEqual([]);
  });
});

describe('inbound messages', () => {
  const optedOut = async (number: string) => {
    const target = await one(t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.number, number)).limit(1));
    const suppressed = await one(t.ctx.db.select().from(optOuts).where(eq(optOuts.number, number)).limit(1));
    return { status: target?.status, suppressed: suppressed ?? null };
  };

  it('a STOP reply opts the number out once; other text does not', async () => {
    const [a, b] = await acceptedSends(2);
    expect((await post(messageBody([{ from: a!.number, type: 'text', text: { body: '  berhenti ' } }]))).status).toBe(200);
    expect((await post(messageBody([{ from: b!.number, type: 'text', text: { body: 'stop please' } }]))).status).toBe(200);
    const first = await optedOut(a!.number);
    expect(first.status).toBe('nonactive');
    expect(first.suppressed).toMatchObject({ number: a!.number, whatsappId: accountId });
    expect(await optedOut(b!.number)).toEqual({ status: 'active', suppressed: null });

    // Meta's retry of the same message changes nothing.
    expect((await post(messageBody([{ from: a!.number, type: 'text', text: { body: 'STOP' } }]))).status).toBe(200);
    const rows = await t.ctx.db.select().from(optOuts).where(eq(optOuts.number, a!.number));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.reason).toBe(first.suppressed!.reason);
  });

  it('a stop quick-reply (template button payload, or an interactive reply titled STOP) opts the number out', async () => {
    const [a, b, c] = await acceptedSends(3);
    await post(messageBody([{ from: a!.number, type: 'button', button: { payload: `${STOP_BUTTON_PREFIX}1`, text: 'Berhenti langganan' } }]));
    await post(messageBody([{ from: b!.number, type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'btn-9', title: 'Unsubscribe' } } }]));
    await post(messageBody([{ from: c!.number, type: 'button', button: { payload: 'promo-yes', text: 'Mau' } }]));
    expect((await optedOut(a!.number)).status).toBe('nonactive');
    expect((await optedOut(a!.number)).suppressed).not.toBeNull();
    expect((await optedOut(b!.number)).status).toBe('nonactive');
    expect((await optedOut(c!.number)).status).toBe('active');
  });
});

describe('without an app secret', () => {
  it('answers 503 and records nothing', async () => {
    const other = await startTestApp({ cloud: { ...t.ctx.config.cloud, appSecret: null } });
    try {
      const raw = JSON.stringify(statusBody([]));
      const res = await other.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signBody(SECRET, raw)).send(raw);
      expect(res.status).toBe(503);
    } finally {
      await other.close();
    }
  });
});

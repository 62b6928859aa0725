import { and, eq, inArray, isNull, notExists, or, sql } from 'drizzle-orm';
import { INVALID_NUMBER, phoneOrNull } from '../../../common/phone';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { optOuts, phoneNumbers, whatsapps } from '../db/schema';
import { HttpError } from '../lib/errors';
import { one } from '../db/raw';
import { optOutReasons } from '../phonenumbers/optout';
import type { SendBody } from './schema';
import { SUSPENDED_MSG } from './service';
import { defaultCountry } from '../settings/service';
import { renderText } from './templates';
import { liveStateOf } from '../whatsapp/events';

export const BLASTER_SENT_MSG = 'Pesan blaster berhasil dikirim ke target.';
/** Sends in flight at once for one Blaster call. */
const CONCURRENCY = 16;

type Skip = { number: string; reason: 'opted out' | typeof INVALID_NUMBER | 'repeated' };

/** `loggedOut` → `LOGGED_OUT`, the words the client-state call uses. */
const stateWord = (state: string) => state.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

async function senderOf(ctx: AppContext, ref: string) {
  const id = /^[0-9]{1,9}$/.test(ref) ? Number(ref) : -1;
  const phone = phoneOrNull(ref, await defaultCountry(ctx.db)) ?? ref;
  const row = await one(
    ctx.db
      .select()
      .from(whatsapps)
      .where(or(eq(whatsapps.id, id), eq(whatsapps.clientid, ref), eq(whatsapps.deviceId, ref), phone ? eq(whatsapps.phonenumber, phone) : undefined))
      .orderBy(sql`${whatsapps.id} = ${id} DESC`, sql`${whatsapps.clientid} = ${ref} DESC`, whatsapps.id)
      .limit(1),
  );
  if (!row) throw new HttpError(404, 'Sender tidak ditemukan');
  return row;
}

/**
 * Targets written exactly as a number of the list stands (the receivers picker sends those): taken as
 * they are, since the stored form of a foreign number need not read back under the default country.
 * Rows the re-normalisation marked invalid or duplicate are not taken as they are.
 */
async function listedNumbers(ctx: AppContext, targets: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const digits = targets.filter((t) => /^\d{1,17}$/.test(t));
  for (let i = 0; i < digits.length; i += 500) {
    const chunk = digits.slice(i, i + 500);
    const rows = await ctx.db
      .select({ number: phoneNumbers.number })
      .from(phoneNumbers)
      .where(and(inArray(phoneNumbers.number, chunk), or(isNull(phoneNumbers.lineType), inArray(phoneNumbers.lineType, ['mobile', 'fixed_line', 'other']))));
    for (const r of rows) found.add(r.number);
  }
  return found;
}

/** The receivers to message: every active, not opted-out number for 'All', else the listed ones minus skips. */
async function receivers(ctx: AppContext, targets: string[]): Promise<{ list: Array<{ number: string; name: string }>; skipped: Skip[] }> {
  const notOptedOut = notExists(ctx.db.select({ n: sql`1` }).from(optOuts).where(eq(optOuts.number, phoneNumbers.number)));
  if (targets.some((x) => x.toLowerCase() === 'all')) {
    const list = await ctx.db
      .select({ number: phoneNumbers.number, name: phoneNumbers.name })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.status, 'active'), notOptedOut))
      .orderBy(phoneNumbers.id);
    return { list, skipped: [] };
  }
  const skipped: Skip[] = [];
  const seen = new Set<string>();
  const wanted: string[] = [];
  const country = await defaultCountry(ctx.db);
  const listed = await listedNumbers(ctx, targets);
  for (const raw of targets) {
    if (!raw) continue;
    const number = listed.has(raw) ? raw : phoneOrNull(raw, country);
    if (!number) skipped.push({ number: raw, reason: INVALID_NUMBER });
    else if (seen.has(number)) skipped.push({ number, reason: 'repeated' });
    else {
      seen.add(number);
      wanted.push(number);
    }
  }
  const opted = new Set<string>();
  const names = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    for (const n of (await optOutReasons(ctx.db, chunk)).keys()) opted.add(n);
    for (const p of await ctx.db.select({ number: phoneNumbers.number, name: phoneNumbers.name }).from(phoneNumbers).where(inArray(phoneNumbers.number, chunk))) {
      names.set(p.number, p.name);
    }
  }
  const list: Array<{ number: string; name: string }> = [];
  for (const number of wanted) {
    if (opted.has(number)) skipped.push({ number, reason: 'opted out' });
    else list.push({ number, name: names.get(number) ?? '' });
  }
  return { list, skipped };
}

/**
 * POST send-message/1 (the Blaster): one message from one connected account to the chosen
 * receivers, `{name}` and `{phoneNumber}` filled in. Opted-out receivers are skipped and counted.
 * These are the admin's own messages, not blasts: they earn nothing and are not in the message
 * log, but a number that received one is treated as messaged (last_sent) for the blast cooldown.
 */
export async function sendBlasterMessage(ctx: AppContext, body: z.infer<typeof SendBody>) {
  const sender = await senderOf(ctx, body.senders);
  if (sender.suspended) throw new HttpError(403, SUSPENDED_MSG);
  const state = liveStateOf(ctx, sender) ?? sender.state ?? 'unknown';
  if (state !== 'connected') throw new HttpError(409, `${sender.phonenumber ?? sender.clientid} is ${stateWord(state)}`);

  const { list, skipped } = await receivers(ctx, body.targets);
  const optedOut = skipped.filter((s) => s.reason === 'opted out').length;
  if (!list.length) {
    throw new HttpError(422, `Tidak ada target yang bisa dikirimi (${skipped.length} nomor dilewatkan)`, {
      errors: { targets: 'Semua target dilewatkan' },
    });
  }

  const sent: string[] = [];
  const failed: Array<{ number: string; error: string }> = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const target = list[next++]!;
      const result = await ctx.gateway
        .send(sender.deviceId, { to: target.number, text: renderText(body.message, target) })
        .catch(() => ({ ok: false as const, error: 'failed' as const }));
      if (result.ok) sent.push(target.number);
      else failed.push({ number: target.number, error: result.error });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, list.length) }, worker));

  const now = new Date();
  for (let i = 0; i < sent.length; i += 500) {
    await ctx.db.update(phoneNumbers).set({ lastSent: now }).where(inArray(phoneNumbers.number, sent.slice(i, i + 500)));
  }
  if (!sent.length) throw new HttpError(502, `Pesan gagal dikirim (${failed[0]?.error ?? 'failed'})`);
  return {
    msg: BLASTER_SENT_MSG,
    sent: sent.length,
    failed,
    skipped,
    skippedCount: skipped.length,
    optedOutCount: optedOut,
  };
}

import { count, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { transaction } from '../db/client';
import { one } from '../db/raw';
import { optOuts, whatsapps } from '../db/schema';
import { writeAudit } from '../audit/service';
import { announceOptOut } from '../engine/optout';
import { HttpError } from '../lib/errors';
import { likeEscaped, paged, pageWindow } from '../lib/paging';
import { defaultCountry } from '../settings/service';
import { normalizePhone, phoneSearchText } from '../../../common/phone';
import { optOut, optOutReason } from './optout';
import type { OptOutSaveInput } from './schema';

/** The reason recorded for a number an admin puts on the list by hand. */
export const MANUAL_REASON = 'Ditambahkan manual';

export interface OptOutView {
  id: number;
  number: string;
  reason: string;
  /** The WhatsApp account the opt-out came through; null when added by hand or the account is gone. */
  whatsapp: { id: number; pushname: string | null; phonenumber: string | null } | null;
  created_at: string;
}

/** Opt-outs with the account each came through, as the list shows them. */
function viewQuery(ctx: AppContext) {
  return ctx.db
    .select({
      id: optOuts.id,
      number: optOuts.number,
      reason: optOuts.reason,
      createdAt: optOuts.createdAt,
      accountId: whatsapps.id,
      pushname: whatsapps.pushname,
      phonenumber: whatsapps.phonenumber,
    })
    .from(optOuts)
    .leftJoin(whatsapps, eq(whatsapps.id, optOuts.whatsappId));
}

type ViewRow = Awaited<ReturnType<typeof viewQuery>>[number];

const toView = (r: ViewRow): OptOutView => ({
  id: r.id,
  number: r.number,
  reason: r.reason,
  whatsapp: r.accountId === null ? null : { id: r.accountId, pushname: r.pushname, phonenumber: r.phonenumber },
  created_at: r.createdAt.toISOString(),
});

/**
 * The suppression list, newest first, ten a page; `search` matches the number (a local form such as
 * `0812…` is read as the stored one). Ordered by id, the order the opt-outs were recorded.
 */
export async function optOutsPerPage(ctx: AppContext, page: number, search: string) {
  const text = search ? phoneSearchText(search, await defaultCountry(ctx.db)) : '';
  const where = text ? likeEscaped(optOuts.number, text) : undefined;
  const total = Number((await one(ctx.db.select({ n: count() }).from(optOuts).where(where)))?.n ?? 0);
  const { limit, offset } = pageWindow(page);
  const rows = await viewQuery(ctx).where(where).orderBy(desc(optOuts.id)).limit(limit).offset(offset);
  return paged(rows.map(toView), total, page);
}

/**
 * An admin puts a number on the suppression list by hand: normalised like every number, recorded with
 * MANUAL_REASON, its phone-number row made nonactive, and the audit log names who did it, all in one
 * transaction. A number already on the list answers 409 and changes nothing.
 */
export async function addOptOut(ctx: AppContext, actorId: number, input: OptOutSaveInput) {
  const phone = normalizePhone(input.number, await defaultCountry(ctx.db));
  if (!phone.ok) throw new HttpError(422, phone.message, { errors: { number: phone.message } });
  const number = phone.number;
  const refuse = (reason: string) => {
    const msg = `Nomor ${number} sudah ada di daftar berhenti (${reason}).`;
    return new HttpError(409, msg, { errors: { number: msg } });
  };
  await transaction(ctx.db, async (tx) => {
    const existing = await optOutReason(tx, number);
    if (existing) throw refuse(existing);
    // `+` marks the stored digits as international, whatever the default country.
    const result = await optOut(tx, `+${number}`, MANUAL_REASON);
    // Another request added it first (PostgreSQL runs both at once): this one changes nothing.
    if (!result.added) throw refuse((await optOutReason(tx, number)) ?? MANUAL_REASON);
    await writeAudit(tx, actorId, null, 'optout.create', { number, reason: MANUAL_REASON });
  });
  await announceOptOut(ctx, number, MANUAL_REASON);
  const row = await one(viewQuery(ctx).where(eq(optOuts.number, number)).limit(1));
  return { optOut: toView(row!), msg: `Nomor ${number} ditambahkan ke daftar berhenti.` };
}

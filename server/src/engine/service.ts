import { ensureSessionOfRow } from '../whatsapp/events';
import { TIER_REACHED } from './tier';
import { and, eq, isNotNull, ne, or } from 'drizzle-orm';
import type { AppContext } from '../context';
import { messageTemplates, whatsapps } from '../db/schema';
import type { AuthUser } from '../auth/middleware';
import { HttpError } from '../lib/errors';
import { accountFor, ACCOUNT_NOT_FOUND } from '../whatsapp/access';
import { refreshedTier } from '../whatsapp/cloud-link';
import { whatsappView, type WhatsappRow } from '../whatsapp/view';
import { one } from '../db/raw';
import { engineFor } from './engine';
import { accountRow } from './view';
import { NO_ACTIVE_TEMPLATE_MSG, NO_MAPPED_TEMPLATE_MSG } from './loop';

/** The spec's refusal when the account is not connected (the console then offers to reconnect). */
export const DISCONNECTED_MSG = 'Sambungan terputus, silahkan sambungkan ulang!';
export const SUSPENDED_MSG = 'Aturan #1 Jangan hapus pesan terkirim. Silahkan hubungi Admin/CS';
/** `code` of the 403 answers, so the console can tell a lost connection from the rest. */
export const BLAST_CODES = { disconnected: 2, suspended: 3 } as const;

const BLASTABLE_STATES = new Set(['connected', 'sending']);

/** The account a blast call names (its id or its WhatsApp ID), if the caller may act on it. */
export async function accountOf(ctx: AppContext, caller: AuthUser, ref: number | string): Promise<WhatsappRow> {
  if (typeof ref === 'number') return await accountFor(ctx, caller, ref);
  const row = await one(
    ctx.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(or(eq(whatsapps.clientid, ref), eq(whatsapps.deviceId, ref)))
      .orderBy(whatsapps.id)
      .limit(1),
  );
  if (!row) throw new HttpError(404, ACCOUNT_NOT_FOUND);
  return await accountFor(ctx, caller, row.id);
}

async function rawOf(ctx: AppContext, id: number) {
  const raw = await engineFor(ctx).store.account(id);
  if (!raw) throw new HttpError(404, ACCOUNT_NOT_FOUND);
  return raw;
}

/** Start and stop are refused unless the account is connected (by its row and by the gateway) and not suspended. */
function assertBlastable(ctx: AppContext, row: WhatsappRow): void {
  if (row.suspended) throw new HttpError(403, SUSPENDED_MSG, { code: BLAST_CODES.suspended });
  // Linked on another node since this one started: its saved session is re-opened here.
  ensureSessionOfRow(ctx, row);
  const live = ctx.gateway.state(row.deviceId);
  if (!row.state || !BLASTABLE_STATES.has(row.state) || live !== 'connected') {
    throw new HttpError(403, DISCONNECTED_MSG, { code: BLAST_CODES.disconnected });
  }
}

/** A Cloud API account sends approved templates only: one active template must map to one. */
async function assertMappedTemplate(ctx: AppContext): Promise<void> {
  const mapped = await one(
    ctx.db
      .select({ id: messageTemplates.id })
      .from(messageTemplates)
      .where(and(eq(messageTemplates.status, 'active'), isNotNull(messageTemplates.waTemplateName), ne(messageTemplates.waTemplateName, '')))
      .limit(1),
  );
  if (!mapped) throw new HttpError(409, NO_MAPPED_TEMPLATE_MSG);
}

/** Any other account sends the active templates: one must be active. */
async function assertActiveTemplate(ctx: AppContext): Promise<void> {
  const active = await one(ctx.db.select({ id: messageTemplates.id }).from(messageTemplates).where(eq(messageTemplates.status, 'active')).limit(1));
  if (!active) throw new HttpError(409, NO_ACTIVE_TEMPLATE_MSG);
}

export const NO_TARGETS_MSG = 'Tidak ada nomor tujuan yang bisa dikirimi saat ini: semua nomor aktif sudah dikirimi dalam masa jeda penerima';

/** POST start-blasting: starts the account's loop (or keeps the one already running). */
export async function startBlasting(ctx: AppContext, caller: AuthUser, ref: number | string, loop: boolean) {
  const started = await startAccount(ctx, await accountOf(ctx, caller, ref), loop);
  return { msg: 'Blast dimulai', data: whatsappView(accountRow(started)) };
}

/** Starts an account's blast under the rules of Start (a press of Start, or a scheduled start that is due). */
export async function startAccount(ctx: AppContext, row: WhatsappRow, loop: boolean) {
  assertBlastable(ctx, row);
  const engine = engineFor(ctx);
  if (row.gateway === 'cloud-api') {
    await assertMappedTemplate(ctx);
    const allowed = (await engine.tiers.allows(row.id, row.messagingTier, true)) || (await engine.tiers.allows(row.id, await refreshedTier(ctx, row)));
    if (!allowed) throw new HttpError(409, TIER_REACHED);
  } else if (!engine.loopOf(row.id)) await assertActiveTemplate(ctx);
  // Nothing to send: say so now rather than start a run that ends at once without a word.
  if (!engine.loopOf(row.id) && !(await engine.hasTargets())) throw new HttpError(409, NO_TARGETS_MSG);
  return await engine.start(await rawOf(ctx, row.id), !loop);
}

/** POST stop-blasting: the loop ends after the send in flight; answers once it has. */
export async function stopBlasting(ctx: AppContext, caller: AuthUser, ref: number | string) {
  const row = await accountOf(ctx, caller, ref);
  const engine = engineFor(ctx);
  // A running loop can always be stopped; an idle one is refused like a start when it cannot blast.
  if (!engine.loopOf(row.id) && row.status === 'idle') assertBlastable(ctx, row);
  const stopped = await engine.stop(await rawOf(ctx, row.id));
  return { msg: 'Blast dihentikan', data: whatsappView(accountRow(stopped)) };
}

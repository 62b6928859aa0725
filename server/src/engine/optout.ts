import type { AppContext } from '../context';
import type { GatewayEvent } from '../gateway/types';
import { engineFor } from './engine';
import { STOP_BUTTON_PREFIX } from './templates';
import { receiverData } from './view';
import { optOut } from '../phonenumbers/optout';
import { accountByDevice } from '../whatsapp/access';

/** Replies that opt a number out, in any case, with any punctuation or spaces around the words. */
export const STOP_WORDS = new Set(['STOP', 'BERHENTI', 'UNSUBSCRIBE', 'BERHENTI BERLANGGANAN', 'STOP BERLANGGANAN']);

/** Why an inbound message opts its sender out, or null when it does not ('stop!', 'Berhenti.' do). */
export function optOutReason(text: string, buttonId: string | null): string | null {
  if (buttonId && buttonId.startsWith(STOP_BUTTON_PREFIX)) return 'Tombol Berhenti';
  // Letters and digits only, one space between words: punctuation and emoji around the word do not count.
  const words = text.normalize('NFKC').toUpperCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return STOP_WORDS.has(words) ? `Balasan ${words}` : null;
}

/**
 * An inbound message (reply or button press): STOP / BERHENTI / UNSUBSCRIBE or a stop_button
 * press makes the number nonactive and puts it on the suppression list at once. Never rejects: a
 * failure is logged.
 */
export async function handleInbound(ctx: AppContext, event: Extract<GatewayEvent, { type: 'message' }>): Promise<void> {
  const reason = optOutReason(event.text, event.buttonId);
  if (!reason) return;
  try {
    const account = await accountByDevice(ctx, event.deviceId);
    const { number } = await optOut(ctx.db, event.from, reason, account?.id ?? null);
    await announceOptOut(ctx, number, reason);
  } catch (err) {
    ctx.log('Recording an opt-out failed', err);
  }
}

/** Tells open phone-number lists (`client-admin`) that the number's row is now nonactive and opted out. */
export async function announceOptOut(ctx: AppContext, number: string, reason: string): Promise<void> {
  const engine = engineFor(ctx);
  const row = await engine.store.targetByNumber(number);
  if (row) engine.live.target(row.id, 'opt_out', { ...receiverData(row), status: 'nonactive', opt_out_reason: reason });
}

import type { AppContext } from '../context';
import type { GatewayEvent } from '../gateway/types';
import { engineFor } from './engine';
import { STOP_BUTTON_PREFIX } from './templates';
import { receiverData } from './view';
import { optOut } from '../phonenumbers/optout';
import { accountByDevice } from '../whatsapp/access';

/** Replies that opt a number out, compared trimmed and in any case. */
export const STOP_WORDS = new Set(['STOP', 'BERHENTI', 'UNSUBSCRIBE']);

/** Why an inbound message opts its sender out, or null when it does not. */
export function optOutReason(text: string, buttonId: string | null): string | null {
  if (buttonId && buttonId.startsWith(STOP_BUTTON_PREFIX)) return 'Tombol Berhenti';
  const word = text.trim().toUpperCase();
  return STOP_WORDS.has(word) ? `Balasan ${word}` : null;
}

/**
 * An inbound message (reply or button press): STOP / BERHENTI / UNSUBSCRIBE or a stop_button
 * press makes the number nonactive and puts it on the suppression list at once.
 */
export async function handleInbound(ctx: AppContext, event: Extract<GatewayEvent, { type: 'message' }>): Promise<void> {
  const reason = optOutReason(event.text, event.buttonId);
  if (!reason) return;
  try {
    const { number } = await optOut(ctx.db, event.from, reason, accountByDevice(ctx, event.deviceId)?.id ?? null);
    const engine = engineFor(ctx);
    const row = engine.statements.targetByNumber.get(number);
    if (row) engine.live.target(row.id, 'opt_out', { ...receiverData(row), status: 'nonactive', opt_out_reason: reason });
  } catch (err) {
    ctx.log('Recording an opt-out failed', err);
  }
}

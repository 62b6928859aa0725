import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { one } from '../db/raw';
import { whatsapps } from '../db/schema';
import { handleInbound } from '../engine/optout';
import type { GatewayEvent } from '../gateway/types';
import type { CloudMessage } from './schema';

type InboundEvent = Extract<GatewayEvent, { type: 'message' }>;

/** What a person sent, as text and the id of a pressed button; null for kinds that cannot opt out (media, reactions…). */
function replyOf(message: CloudMessage): { text: string; buttonId: string | null } | null {
  switch (message.type) {
    case 'text':
      return { text: message.text?.body ?? '', buttonId: null };
    case 'button':
      return { text: message.button?.text ?? '', buttonId: message.button?.payload || null };
    case 'interactive':
      return { text: message.interactive?.button_reply?.title ?? '', buttonId: message.interactive?.button_reply?.id || null };
    default:
      return null;
  }
}

/** The device id of the business number a message came to: its account row's, else the contract's `cloud-{id}`. */
async function deviceIdOf(ctx: AppContext, phoneNumberId: string | null): Promise<string> {
  if (!phoneNumberId) return '';
  const row = await one(
    ctx.db.select({ deviceId: whatsapps.deviceId }).from(whatsapps).where(eq(whatsapps.cloudPhoneNumberId, phoneNumberId)).limit(1),
  );
  return row?.deviceId ?? `cloud-${phoneNumberId}`;
}

/**
 * Inbound Cloud API messages go through the same opt-out as the simulator's replies (engine/optout.ts):
 * a STOP word or a stop quick-reply makes the number nonactive and puts it on the suppression list.
 * Opting out twice changes nothing, so Meta's retries are harmless.
 */
export async function handleCloudMessages(ctx: AppContext, phoneNumberId: string | null, messages: CloudMessage[]): Promise<void> {
  let deviceId: string | null = null;
  for (const message of messages) {
    const reply = replyOf(message);
    if (!reply) continue;
    deviceId ??= await deviceIdOf(ctx, phoneNumberId);
    const seconds = Number(message.timestamp);
    const event: InboundEvent = {
      type: 'message',
      deviceId,
      messageId: message.id,
      // Meta sends international digits without '+': read them as international, whatever the default country.
      from: `+${message.from.replace(/^\+/, '')}`,
      text: reply.text,
      buttonId: reply.buttonId,
      date: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
    };
    await handleInbound(ctx, event);
  }
}

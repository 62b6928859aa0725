import type { WhatsappRow } from '../whatsapp/view';
import { accountEventData } from '../whatsapp/view';
import type { RawAccount, RawTarget } from './store';

/** A raw account row in the shape the rest of the server uses. */
export function accountRow(raw: RawAccount): WhatsappRow {
  return {
    id: raw.id,
    deviceId: raw.device_id,
    clientid: raw.clientid,
    pushname: raw.pushname,
    phonenumber: raw.phonenumber,
    server: raw.server,
    serialized: raw.serialized,
    proxyId: raw.proxy_id,
    userId: raw.user_id,
    state: raw.state,
    status: raw.status,
    interval: raw.interval,
    ownInterval: raw.own_interval === 1,
    countSuccess: raw.count_success,
    countFail: raw.count_fail,
    income: raw.income,
    suspended: raw.suspended === 1,
    suspendedCount: raw.suspended_count,
    reconnectCount: raw.reconnect_count,
    gateway: raw.gateway ?? 'simulator',
    cloudPhoneNumberId: raw.cloud_phone_number_id ?? null,
    cloudWabaId: raw.cloud_waba_id ?? null,
    cloudToken: raw.cloud_token ?? null,
    qualityRating: raw.quality_rating ?? null,
    messagingTier: raw.messaging_tier ?? null,
    createdAt: new Date(raw.created_at),
    updatedAt: raw.updated_at === null ? null : new Date(raw.updated_at),
  };
}

/** The data of an account-row event: the row's absolute values plus the event's own fields. */
export function accountData(raw: RawAccount, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return accountEventData(accountRow(raw), extra);
}

/** The `receiver` block of a phone-number row event. */
export function receiverData(t: RawTarget): Record<string, unknown> {
  return {
    id: t.id,
    number: t.number,
    name: t.name,
    status: t.status,
    in_use: t.in_use,
    count_success: t.count_success,
    count_fail: t.count_fail,
    last_sent: t.last_sent === null ? null : new Date(t.last_sent).toISOString(),
  };
}

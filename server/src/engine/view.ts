import type { WhatsappRow } from '../whatsapp/view';
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

/**
 * The data of an account-row event: the row's absolute values plus the event's own fields. The same
 * object as `accountEventData(accountRow(raw), extra)`, built straight from the raw row (the engine
 * builds several per message; a test keeps the two equal).
 */
export function accountData(raw: RawAccount, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const gateway = raw.gateway ?? 'simulator';
  const suspended = raw.suspended === 1;
  return {
    id: raw.id,
    deviceId: raw.device_id,
    clientid: raw.clientid,
    user_id: raw.user_id,
    gateway,
    state: raw.state,
    status: raw.status,
    count_success: raw.count_success,
    count_fail: raw.count_fail,
    income: raw.income,
    suspended,
    suspended_count: raw.suspended_count,
    reconnectTime: raw.reconnect_count,
    sender: { id: raw.id, user_id: raw.user_id, clientid: raw.clientid, state: raw.state, status: raw.status },
    ...extra,
  };
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
    ...(t.send_attempts === undefined
      ? {}
      : {
          send_attempts: t.send_attempts,
          last_error: t.last_error ?? null,
          last_failed_at: iso(t.last_failed_at),
          next_attempt_at: iso(t.next_attempt_at),
          failed_at: iso(t.failed_at),
        }),
  };
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

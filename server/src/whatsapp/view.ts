import { whatsapps } from '../db/schema';

export type WhatsappRow = typeof whatsapps.$inferSelect;

/** An account as the API shows it (spec 3 field names). */
export function whatsappView(row: WhatsappRow) {
  return {
    id: row.id,
    deviceId: row.deviceId,
    clientid: row.clientid,
    pushname: row.pushname,
    phonenumber: row.phonenumber,
    server: row.server,
    serialized: row.serialized,
    proxyId: row.proxyId,
    user_id: row.userId,
    // simulator | cloud-api: a Cloud API account cannot check numbers (generator, validator).
    gateway: row.gateway,
    state: row.state,
    status: row.status,
    interval: row.interval,
    count_success: row.countSuccess,
    count_fail: row.countFail,
    income: row.income,
    suspended: row.suspended,
    suspended_count: row.suspendedCount,
    quality_rating: row.qualityRating,
    messaging_tier: row.messagingTier,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type WhatsappView = ReturnType<typeof whatsappView>;

/**
 * The data of every account-row live event: absolute values of the row (never deltas), plus the
 * `sender` block the developer's realtime monitor filters on.
 */
export function accountEventData(row: WhatsappRow, extra: Record<string, unknown> = {}) {
  return {
    id: row.id,
    deviceId: row.deviceId,
    clientid: row.clientid,
    user_id: row.userId,
    // simulator | cloud-api: a Cloud API account cannot check numbers (generator, validator).
    gateway: row.gateway,
    state: row.state,
    status: row.status,
    count_success: row.countSuccess,
    count_fail: row.countFail,
    income: row.income,
    suspended: row.suspended,
    suspended_count: row.suspendedCount,
    // The realtime monitor shows this as the reconnect count ("N times").
    reconnectTime: row.reconnectCount,
    sender: { id: row.id, user_id: row.userId, clientid: row.clientid, state: row.state, status: row.status },
    ...extra,
  };
}

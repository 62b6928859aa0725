import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { AuthUser } from '../auth/middleware';
import { whatsapps } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { cloudGatewayOf } from '../gateway';
import { cloudDeviceId } from '../gateway/cloud/cloud';
import { HttpError } from '../lib/errors';
import { encryptSecret } from '../lib/secrets';
import { accountByDevice, emitAccount, mayReach } from './access';
import { whatsappView, type WhatsappRow } from './view';
import { FIELD_LABELS } from '../../../common/errors';

export const CLOUD_INACTIVE_MSG = 'Cloud API tidak aktif di server ini';
export const TOKEN_INVALID_MSG = 'Token akses tidak valid atau kedaluwarsa';
export const PHONE_NUMBER_ID_NOT_FOUND_MSG = 'Phone Number ID tidak ditemukan';
export const WABA_NOT_FOUND_MSG = 'WABA ID tidak ditemukan';
export const NOT_IN_WABA_MSG = 'Phone Number ID tidak terdaftar di WABA ID ini';
const TAKEN_MSG = 'WhatsApp ID sudah dipakai';

const graphId = (label: string) =>
  z
    .string({ message: `${label} wajib diisi` })
    .trim()
    .min(1, `${label} wajib diisi`)
    .regex(/^\d{1,32}$/, `${label} harus berupa angka`);

export const CloudLinkBody = z.object({
  phoneNumberId: graphId(FIELD_LABELS.phone_number_id[0]),
  wabaId: graphId(FIELD_LABELS.waba_id[0]),
  accessToken: z
    .string({ message: 'Token akses wajib diisi' })
    .trim()
    .min(1, 'Token akses wajib diisi')
    .max(2048, 'Token akses terlalu panjang')
    .regex(/^\S+$/, TOKEN_INVALID_MSG),
});

/**
 * POST cloud-link: saves a WhatsApp Business number as the caller's account once Graph confirms the
 * Phone Number ID and the token. Who the number is (number, verified name, quality) comes from Graph;
 * the token is stored encrypted and never answered.
 */
export async function linkCloudAccount(ctx: AppContext, caller: AuthUser, body: z.infer<typeof CloudLinkBody>) {
  const cloud = cloudGatewayOf(ctx.gateway);
  if (!cloud || ctx.config.gateway !== 'cloud-api') throw new HttpError(409, CLOUD_INACTIVE_MSG);
  const deviceId = cloudDeviceId(body.phoneNumberId);
  const existing = await accountByDevice(ctx, deviceId);
  // A number whose token expired is linked again with a new token, in place.
  const renewing = existing?.gateway === 'cloud-api' && existing.state === 'loggedOut' && mayReach(caller, existing) ? existing : null;
  if (existing && !renewing) throw new HttpError(409, TAKEN_MSG);

  const credentials = { phoneNumberId: body.phoneNumberId, token: body.accessToken };
  const info = await cloud.verifyNumber(credentials);
  if (!info.ok) {
    if (info.reason === 'token') throw new HttpError(422, TOKEN_INVALID_MSG, { errors: { accessToken: TOKEN_INVALID_MSG } });
    if (info.reason === 'not_found') throw new HttpError(422, PHONE_NUMBER_ID_NOT_FOUND_MSG, { errors: { phoneNumberId: PHONE_NUMBER_ID_NOT_FOUND_MSG } });
    throw new HttpError(502, 'Cloud API tidak dapat dihubungi, silahkan coba lagi');
  }
  const inWaba = await cloud.numberInWaba(credentials, body.wabaId);
  if (!inWaba.ok) {
    if (inWaba.reason === 'token') throw new HttpError(422, TOKEN_INVALID_MSG, { errors: { accessToken: TOKEN_INVALID_MSG } });
    if (inWaba.reason === 'waba_not_found') throw new HttpError(422, WABA_NOT_FOUND_MSG, { errors: { wabaId: WABA_NOT_FOUND_MSG } });
    if (inWaba.reason === 'not_in_waba') throw new HttpError(422, NOT_IN_WABA_MSG, { errors: { wabaId: NOT_IN_WABA_MSG } });
    throw new HttpError(502, 'Cloud API tidak dapat dihubungi, silahkan coba lagi');
  }
  const phonenumber = info.displayPhoneNumber.replace(/\D/g, '');
  if (!phonenumber) throw new HttpError(422, PHONE_NUMBER_ID_NOT_FOUND_MSG, { errors: { phoneNumberId: PHONE_NUMBER_ID_NOT_FOUND_MSG } });
  const identity = { phonenumber, pushname: info.verifiedName, server: 'c.us', serialized: `${phonenumber}@c.us` };

  const fields = {
    ...identity,
    state: 'connected',
    gateway: 'cloud-api' as const,
    cloudPhoneNumberId: body.phoneNumberId,
    cloudWabaId: body.wabaId,
    cloudToken: encryptSecret(ctx.config.secretKey, body.accessToken),
    qualityRating: info.qualityRating,
    messagingTier: info.messagingTier,
    updatedAt: new Date(),
  };
  const saved = renewing ? await renewAccount(ctx, renewing.id, fields) : await insertAccount(ctx, { deviceId, clientid: deviceId, userId: caller.id, ...fields });
  cloud.register(deviceId, credentials, identity, 'connected');
  emitAccount(ctx, 'connection.update', saved);
  return { whatsapp: whatsappView(saved), msg: 'Akun WhatsApp berhasil disimpan' };
}

type AccountFields = Omit<typeof whatsapps.$inferInsert, 'deviceId' | 'clientid' | 'userId'>;

async function insertAccount(ctx: AppContext, values: typeof whatsapps.$inferInsert): Promise<WhatsappRow> {
  try {
    const [saved] = await ctx.db.insert(whatsapps).values(values).returning();
    return saved!;
  } catch (err) {
    if (isUniqueViolation(err, 'whatsapps', 'device_id')) throw new HttpError(409, TAKEN_MSG);
    throw err;
  }
}

/** The new token of a logged-out number, in its row (counters kept); counted as a reconnect. */
async function renewAccount(ctx: AppContext, id: number, fields: AccountFields): Promise<WhatsappRow> {
  const [saved] = await ctx.db
    .update(whatsapps)
    .set({ ...fields, status: 'idle', reconnectCount: sql`${whatsapps.reconnectCount} + 1` })
    .where(and(eq(whatsapps.id, id), eq(whatsapps.state, 'loggedOut')))
    .returning();
  if (!saved) throw new HttpError(409, TAKEN_MSG);
  return saved;
}

/**
 * Meta raises a business number's messaging tier as it sends well (1K → 10K → 100K…), but the tier is read
 * when the number is linked. When the known tier has been reached, a start asks Graph again (one call) and
 * keeps what it says, so a raised tier is used at once. Answers the tier now known; Graph not answering
 * leaves the known one.
 */
export async function refreshedTier(ctx: AppContext, row: WhatsappRow): Promise<string | null> {
  const cloud = cloudGatewayOf(ctx.gateway);
  if (!cloud || row.gateway !== 'cloud-api') return row.messagingTier;
  // The number's session is open by now (a start checks that it is connected): its credentials are the gateway's.
  const info = await cloud.registeredNumber(row.deviceId);
  if (!info.ok || !info.messagingTier || info.messagingTier === row.messagingTier) return row.messagingTier;
  await ctx.db
    .update(whatsapps)
    .set({ messagingTier: info.messagingTier, qualityRating: info.qualityRating, updatedAt: new Date() })
    .where(eq(whatsapps.id, row.id));
  ctx.log(`Cloud API number ${row.cloudPhoneNumberId}: messaging tier ${row.messagingTier ?? 'unknown'} → ${info.messagingTier}`);
  return info.messagingTier;
}

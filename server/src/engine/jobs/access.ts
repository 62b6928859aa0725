import type { AuthUser } from '../../auth/middleware';
import { isStaffOrAbove, ownUserId } from '../../auth/middleware';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/errors';
import { accountById, mayReach } from '../../whatsapp/access';
import type { WhatsappRow } from '../../whatsapp/view';
import { accountCanRunJobs, DISCONNECTED_MESSAGE } from '../../../../common/jobs';

/**
 * Who may see and act on generator and validator jobs: staff their own only, admin and dev all.
 * The same rules serve both kinds of job.
 */

/** A list's `user_id`: admin and dev may name anyone or nobody (all jobs); staff only themselves. */
export function jobScope(caller: AuthUser, requested: number | null): number | null {
  if (isStaffOrAbove(caller.role)) return requested;
  return ownUserId(caller, requested);
}

/** The job if the caller may reach it: 404 when missing, 403 when it is someone else's. */
export function reachableJob<R extends { userId: number }>(caller: AuthUser, row: R | undefined, notFound: string): R {
  if (!row) throw new HttpError(404, notFound);
  if (row.userId !== caller.id && !isStaffOrAbove(caller.role)) throw new HttpError(403, 'Forbidden');
  return row;
}

const NO_ACCOUNT = 'Akun WhatsApp tidak ditemukan';

/** The account a job is to use: one of the caller's own (admin and dev: any). */
export async function accountForJob(ctx: AppContext, caller: AuthUser, whatsappId: number): Promise<WhatsappRow> {
  const account = await accountById(ctx, whatsappId);
  if (!account) throw new HttpError(422, NO_ACCOUNT, { errors: { whatsapp_id: NO_ACCOUNT } });
  if (!mayReach(caller, account)) throw new HttpError(403, 'Forbidden');
  return account;
}

/** Generators and validators ask whether numbers have WhatsApp, which the Cloud API cannot answer. */
export const CLOUD_CANNOT_CHECK_MSG = 'Cloud API tidak dapat memeriksa nomor WhatsApp; gunakan akun yang ditautkan dengan QR code atau nomor';

/**
 * Start and stop need the job's account connected; otherwise 403 with the message shown under
 * 'Forbidden' (the console then offers to reconnect the account).
 */
export async function connectedAccountForJob(ctx: AppContext, caller: AuthUser, whatsappId: number | null): Promise<WhatsappRow> {
  const account = whatsappId === null ? undefined : await accountById(ctx, whatsappId);
  if (!account) throw new HttpError(403, DISCONNECTED_MESSAGE);
  if (!mayReach(caller, account)) throw new HttpError(403, 'Forbidden');
  if (account.gateway === 'cloud-api') throw new HttpError(409, CLOUD_CANNOT_CHECK_MSG);
  if (!accountCanRunJobs(account.state)) throw new HttpError(403, DISCONNECTED_MESSAGE);
  return account;
}

/** The accounts of a page of jobs, by id, in one query each. */
export async function accountsById(ctx: AppContext, ids: Array<number | null>): Promise<Map<number, WhatsappRow>> {
  const out = new Map<number, WhatsappRow>();
  for (const id of new Set(ids)) {
    if (id === null) continue;
    const row = await accountById(ctx, id);
    if (row) out.set(id, row);
  }
  return out;
}

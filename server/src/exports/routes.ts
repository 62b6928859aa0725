import type { Request } from 'express';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { attachment, streamDownload } from '../lib/download';
import { badRequest } from '../lib/errors';
import { dayRange, exportAudit, exportMembers, exportMessageLog, exportWithdrawals, type DayRange } from './service';

export const EXPORT_RANGE_REQUIRED = 'Choose a date range: from and to, as YYYY-MM-DD.';
export const EXPORT_RANGE_ORDER = 'The start date must not be after the end date.';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD, or null. */
function day(value: unknown): string | null {
  const s = Array.isArray(value) ? value[0] : value;
  if (typeof s !== 'string') return null;
  const m = DAY.exec(s.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === m[0] ? m[0] : null;
}

/** `from` and `to` (WIB days, inclusive): both required unless `optional`, and in order. */
function rangeOf(req: Request, optional: boolean): DayRange | null {
  const q = req.query as Record<string, unknown>;
  const given = (q.from ?? '') !== '' || (q.to ?? '') !== '';
  if (optional && !given) return null;
  const from = day(q.from);
  const to = day(q.to);
  if (!from || !to) {
    throw badRequest(EXPORT_RANGE_REQUIRED, { ...(from ? {} : { from: EXPORT_RANGE_REQUIRED }), ...(to ? {} : { to: EXPORT_RANGE_REQUIRED }) });
  }
  if (from > to) throw badRequest(EXPORT_RANGE_ORDER, { to: EXPORT_RANGE_ORDER });
  return dayRange(from, to);
}

const named = (base: string, range: DayRange | null) => (range ? `${base}_${range.from}_${range.to}.csv` : `${base}.csv`);

/**
 * The books' CSV downloads (common/api-routes.ts gives the roles: withdrawals with bank details for admins
 * only). The answer starts at once and streams; an error after the first byte cuts the download short.
 */
export function registerExportRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/export/members', async (_req, res) => {
    attachment(res, 'members.csv', 'csv');
    await streamDownload(ctx, res, () => exportMembers(ctx, res));
  });

  api.get('/admin/export/withdrawals', async (req, res) => {
    const range = rangeOf(req, false)!;
    attachment(res, named('withdrawals', range), 'csv');
    await streamDownload(ctx, res, () => exportWithdrawals(ctx, res, range));
  });

  api.get('/admin/export/messagelog', async (req, res) => {
    const range = rangeOf(req, false)!;
    attachment(res, named('message_log', range), 'csv');
    await streamDownload(ctx, res, () => exportMessageLog(ctx, res, range));
  });

  api.get('/admin/export/audit', async (req, res) => {
    const range = rangeOf(req, true);
    attachment(res, named('audit_log', range), 'csv');
    await streamDownload(ctx, res, () => exportAudit(ctx, res, range));
  });
}

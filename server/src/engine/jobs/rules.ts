import { and, eq, isNull, notInArray, or, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Request } from 'express';
import { decimal, wholeNumber } from '../../lib/ids';
import { pageParam, textParam } from '../../lib/paging';
import { userScope } from '../../whatsapp/access';
import { HttpError } from '../../lib/errors';
import { INTERVAL_ORDER_MESSAGE } from '../../../../common/jobs';
import { FIELD_LABELS } from '../../../../common/errors';

/** Form values arrive as JSON or as multipart text: '1', 'true', 'on' and true mean yes. */
export const flagField = z.preprocess(
  (v) => (v === true || v === 1 || ['1', 'true', 'on', 'yes'].includes(String(v ?? '').trim().toLowerCase()) ? 1 : 0),
  z.number(),
);

const MAX_INTERVAL = 3600;

/** An interval in whole seconds, 0…3600, with the default the screens show (1 and 2). */
export const intervalField = (label: string, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? fallback : v),
    wholeNumber(`${label} harus bilangan bulat 0 atau lebih`, { value: MAX_INTERVAL, message: `${label} paling lama ${MAX_INTERVAL} detik` }),
  );

export const whatsappIdField = z.preprocess(
  (v) => (v === 'new' || v === '' ? undefined : decimal(v)),
  z.number({ message: 'Akun WhatsApp wajib dipilih' }).int('Akun WhatsApp wajib dipilih').positive('Akun WhatsApp wajib dipilih'),
);

export const jobFields = {
  whatsapp_id: whatsappIdField,
  b_insert: flagField,
  interval_min: intervalField(FIELD_LABELS.interval_min[0], 1),
  interval_max: intervalField(FIELD_LABELS.interval_max[0], 2),
};

/** Interval Min may not exceed Interval Max (the spec's message). */
export function checkIntervals(min: number, max: number): void {
  if (min > max) throw new HttpError(422, INTERVAL_ORDER_MESSAGE, { errors: { interval_min: INTERVAL_ORDER_MESSAGE } });
}

/** `{id}` of start and stop. */
export const JobIdBody = z.object({
  id: z.preprocess(
    decimal,
    z.number({ message: 'id wajib diisi' }).int('id tidak valid').positive('id tidak valid'),
  ),
});

/** Numbers are normalised exactly as the phone-number list does (numbering plan, E.164 digits), or null. */
export { phoneOrNull as normaliseNumber } from '../../../../common/phone';

/** The list's status filter: running, idle (not finished), finished, error. */
export const STATUS_FILTERS = ['', 'idle', 'sending', 'finished', 'error'] as const;
export type StatusFilterValue = (typeof STATUS_FILTERS)[number];
export const StatusFilter = z
  .union([z.string(), z.undefined(), z.array(z.string())])
  .transform((v): StatusFilterValue => {
    const text = (Array.isArray(v) ? v[0] : v) ?? '';
    return (STATUS_FILTERS as readonly string[]).includes(text) ? (text as StatusFilterValue) : '';
  });

/** SQL for a status filter over a job table's status and state columns. */
export function statusCondition(filter: StatusFilterValue, status: AnyColumn, state: AnyColumn): SQL | undefined {
  switch (filter) {
    case 'sending':
      return eq(status, 'sending');
    case 'idle':
      return and(eq(status, 'idle'), or(isNull(state), notInArray(state, ['finished', 'error'])));
    case 'finished':
      return and(eq(status, 'idle'), eq(state, 'finished'));
    case 'error':
      return and(eq(status, 'idle'), eq(state, 'error'));
    default:
      return undefined;
  }
}

export interface JobListInput {
  page: number;
  userId: number | null;
  search: string;
  status: StatusFilterValue;
}

/** A job list's query: ?page, ?user_id (404 for a malformed one), ?search and ?status. */
export function jobListQuery(query: Request['query']): JobListInput {
  return {
    page: pageParam.parse(query.page),
    userId: userScope(query.user_id),
    search: textParam.parse(query.search),
    status: StatusFilter.parse(query.status),
  };
}

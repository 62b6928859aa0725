import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { AuthUser } from '../auth/middleware';
import { messageLogs } from '../db/schema';
import { accountFor } from '../whatsapp/access';
import { pageParam } from '../lib/paging';

const PAGE_SIZE = 10;

export const RecipientsQuery = z.object({
  // ?page as the lists read it (digits only; anything else is page 1), absent included.
  page: z.unknown().optional().transform((v) => pageParam.parse(v)),
  /** Only the rows with this delivery status. */
  status: z.enum(['sent', 'delivered', 'read', 'failed']).optional(),
});

/**
 * GET delivery/{whatsappId}: a Cloud API account's sends by the status Meta's webhooks reported, so the
 * console can say how many were delivered and read, not only accepted. Same access as the account.
 */
export async function deliveryCounts(ctx: AppContext, caller: AuthUser, whatsappId: number) {
  await accountFor(ctx, caller, whatsappId);
  const rows = await ctx.db
    .select({ status: messageLogs.deliveryStatus, n: count() })
    .from(messageLogs)
    .where(and(eq(messageLogs.whatsappId, whatsappId), isNotNull(messageLogs.deliveryStatus)))
    .groupBy(messageLogs.deliveryStatus);
  const out = { sent: 0, delivered: 0, read: 0, failed: 0 };
  for (const r of rows) if (r.status && r.status in out) out[r.status as keyof typeof out] = Number(r.n);
  return out;
}

/** GET recipients/{whatsappId}?page=&status=: each recipient of the account's Cloud API sends, newest first, with its delivery status. */
export async function recipientStatuses(ctx: AppContext, caller: AuthUser, whatsappId: number, query: z.infer<typeof RecipientsQuery>) {
  await accountFor(ctx, caller, whatsappId);
  const where = and(
    eq(messageLogs.whatsappId, whatsappId),
    query.status ? eq(messageLogs.deliveryStatus, query.status) : isNotNull(messageLogs.deliveryStatus),
  );
  const total = Number((await ctx.db.select({ n: count() }).from(messageLogs).where(where))[0]?.n ?? 0);
  const list = await ctx.db
    .select({
      id: messageLogs.id,
      number: messageLogs.number,
      status: messageLogs.deliveryStatus,
      statusAt: messageLogs.statusAt,
      error: messageLogs.deliveryError,
      income: messageLogs.income,
      createdAt: messageLogs.createdAt,
    })
    .from(messageLogs)
    .where(where)
    .orderBy(desc(messageLogs.id))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  return { data: list, meta: { page: query.page, pageSize: PAGE_SIZE, total, totalPages: Math.max(1, Math.ceil(total / PAGE_SIZE)) } };
}


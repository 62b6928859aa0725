import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import { engineFor } from '../engine/engine';
import { accountEventData } from '../whatsapp/view';
import { handleCloudMessages } from './inbound';
import { batchesOf } from './schema';
import { applyStatus } from './statuses';

export interface WebhookSummary {
  statuses: number;
  applied: number;
  paid: number;
  failed: number;
  messages: number;
}

/**
 * One verified webhook body: every status applied in its own money transaction, in order, then the
 * inbound messages. After the commits, the accounts touched get one absolute row event and the users
 * paid get their balance, as the engine does after a send.
 */
export async function handleWebhook(ctx: AppContext, body: unknown): Promise<WebhookSummary> {
  const summary: WebhookSummary = { statuses: 0, applied: 0, paid: 0, failed: 0, messages: 0 };
  const accounts = new Set<number>();
  const balances = new Set<number>();
  for (const batch of batchesOf(body)) {
    for (const status of batch.statuses) {
      summary.statuses += 1;
      const outcome = await applyStatus(ctx.db, status);
      if (outcome.kind === 'ignored') continue;
      summary.applied += 1;
      if (outcome.kind === 'paid') summary.paid += 1;
      if (outcome.kind === 'failed') summary.failed += 1;
      if ((outcome.kind === 'paid' || outcome.kind === 'failed') && outcome.accountId !== null) accounts.add(outcome.accountId);
      for (const id of outcome.balances) balances.add(id);
    }
    summary.messages += batch.messages.length;
    if (batch.messages.length) await handleCloudMessages(ctx, batch.phoneNumberId, batch.messages);
  }
  if (accounts.size || balances.size) await publish(ctx, [...accounts], [...balances]);
  return summary;
}

async function publish(ctx: AppContext, accountIds: number[], userIds: number[]): Promise<void> {
  const engine = engineFor(ctx);
  if (accountIds.length) {
    const rows = await ctx.db.select().from(whatsapps).where(inArray(whatsapps.id, accountIds));
    for (const row of rows) engine.live.account(row.id, row.userId, 'count_synced', accountEventData(row));
  }
  for (const id of userIds) engine.balanceChanged(id);
}


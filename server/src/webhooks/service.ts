import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import { engineFor } from '../engine/engine';
import { accountEventData } from '../whatsapp/view';
import { HeldStatuses } from './held';
import { handleCloudMessages } from './inbound';
import { batchesOf, type CloudStatus } from './schema';
import { applyStatus } from './statuses';

export interface WebhookSummary {
  statuses: number;
  applied: number;
  paid: number;
  failed: number;
  messages: number;
  /** Statuses of a message not in the log yet, kept to apply when it is (webhooks/held.ts). */
  held: number;
}

const heldByContext = new WeakMap<AppContext, HeldStatuses>();

/** Stops holding statuses (the server is closing). */
export function closeHeldStatuses(ctx: AppContext): void {
  heldByContext.get(ctx)?.close();
}

/**
 * At shutdown, after the engine has recorded its last sends: applies the held statuses whose rows those
 * were, then stops holding.
 */
export async function finishHeldStatuses(ctx: AppContext): Promise<void> {
  const held = heldByContext.get(ctx);
  if (!held) return;
  if (held.size > 0) await held.sweep();
  held.close();
}

/** The context's statuses waiting for their log row. */
export function heldStatusesOf(ctx: AppContext): HeldStatuses {
  let held = heldByContext.get(ctx);
  if (!held) {
    held = new HeldStatuses(ctx, async (statuses) => {
      await applyStatuses(ctx, statuses);
    });
    heldByContext.set(ctx, held);
  }
  return held;
}

/**
 * One verified webhook body: every status applied in its own money transaction, in order, then the
 * inbound messages. After the commits, the accounts touched get one absolute row event and the users
 * paid get their balance, as the engine does after a send. A status whose message is not in the log
 * yet is held for it (see HeldStatuses).
 */
export async function handleWebhook(ctx: AppContext, body: unknown): Promise<WebhookSummary> {
  const summary: WebhookSummary = { statuses: 0, applied: 0, paid: 0, failed: 0, messages: 0, held: 0 };
  for (const batch of batchesOf(body)) {
    summary.statuses += batch.statuses.length;
    const result = await applyStatuses(ctx, batch.statuses);
    summary.applied += result.applied;
    summary.paid += result.paid;
    summary.failed += result.failed;
    if (result.unknown.length) {
      const held = heldStatusesOf(ctx);
      const before = held.size;
      await held.hold(batch.phoneNumberId, result.unknown);
      summary.held += held.size - before;
    }
    summary.messages += batch.messages.length;
    if (batch.messages.length) await handleCloudMessages(ctx, batch.phoneNumberId, batch.messages);
  }
  return summary;
}

/** Applies statuses in order and tells the accounts and balances they changed; answers what it did. */
async function applyStatuses(ctx: AppContext, statuses: CloudStatus[]) {
  const out = { applied: 0, paid: 0, failed: 0, unknown: [] as CloudStatus[] };
  const accounts = new Set<number>();
  const balances = new Set<number>();
  for (const status of statuses) {
    const outcome = await applyStatus(ctx.db, status);
    if (outcome.kind === 'unknown') out.unknown.push(status);
    if (outcome.kind === 'ignored' || outcome.kind === 'unknown') continue;
    out.applied += 1;
    if (outcome.kind === 'paid') out.paid += 1;
    if (outcome.kind === 'failed') out.failed += 1;
    if ((outcome.kind === 'paid' || outcome.kind === 'failed') && outcome.accountId !== null) accounts.add(outcome.accountId);
    for (const id of outcome.balances) balances.add(id);
  }
  if (accounts.size || balances.size) await publish(ctx, [...accounts], [...balances]);
  return out;
}

async function publish(ctx: AppContext, accountIds: number[], userIds: number[]): Promise<void> {
  const engine = engineFor(ctx);
  if (accountIds.length) {
    const rows = await ctx.db.select().from(whatsapps).where(inArray(whatsapps.id, accountIds));
    for (const row of rows) engine.live.account(row.id, row.userId, 'count_synced', accountEventData(row));
  }
  for (const id of userIds) engine.balanceChanged(id);
}

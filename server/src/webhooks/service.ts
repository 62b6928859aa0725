import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import { engineFor } from '../engine/engine';
import { accountEventData } from '../whatsapp/view';
import { HeldStatuses } from './held';
import { handleCloudMessages } from './inbound';
import { batchesOf, type CloudStatus } from './schema';
import { applyStatus } from './statuses';
import { startupReleased } from '../whatsapp/events';
import { webhookStatuses } from '../metrics/registry';

const heldByContext = new WeakMap<AppContext, HeldStatuses>();

/** Stops sweeping held statuses (the server is closing); they stay in the store. */
export function closeHeldStatuses(ctx: AppContext): void {
  heldByContext.get(ctx)?.close();
}

/**
 * At shutdown, after the engine has recorded its last sends: applies the held statuses whose rows those
 * were, then stops sweeping. The others stay held for the next start or another node.
 */
export async function finishHeldStatuses(ctx: AppContext): Promise<void> {
  const held = heldByContext.get(ctx);
  if (!held) return;
  if (held.active) await held.sweep();
  held.close();
}

/** At start, once the start-up work may begin: sweeps if statuses are held (by an earlier run or another node). */
export function resumeHeldStatuses(ctx: AppContext): void {
  void startupReleased(ctx)
    .then(() => heldStatusesOf(ctx).resume())
    .catch((err: unknown) => ctx.log('Looking for held Cloud API statuses failed', err));
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
export async function handleWebhook(ctx: AppContext, body: unknown): Promise<void> {
  for (const batch of batchesOf(body)) {
    const unknown = await applyStatuses(
      ctx,
      batch.statuses.map((status) => ({ status, from: batch.phoneNumberId })),
    );
    if (unknown.length) await heldStatusesOf(ctx).hold(batch.phoneNumberId, unknown);
    if (batch.messages.length) await handleCloudMessages(ctx, batch.phoneNumberId, batch.messages);
  }
}

/**
 * Applies statuses in order and tells the accounts and balances they changed; answers those whose message is
 * not in the log yet. Each status's `from` is its body's business number (kept with a held status too; only
 * rows held before it was kept come without it).
 */
async function applyStatuses(ctx: AppContext, statuses: Array<{ status: CloudStatus; from?: string | null }>): Promise<CloudStatus[]> {
  const unknown: CloudStatus[] = [];
  const accounts = new Set<number>();
  const outcomes = engineFor(ctx).outcomes;
  const balances = new Set<number>();
  for (const { status, from } of statuses) {
    const outcome = await applyStatus(ctx.db, status, from);
    if (outcome.kind === 'unknown') unknown.push(status);
    if (outcome.kind === 'other-number') {
      ctx.log('Cloud API status ignored: the webhook names another business number than the one that sent the message', undefined, {
        messageId: status.id,
        status: status.status,
        phoneNumberId: from ?? null,
        accountId: outcome.accountId,
      });
    }
    webhookStatuses.inc({ status: outcome.kind === 'unknown' || outcome.kind === 'other-number' || outcome.kind === 'ignored' ? outcome.kind : status.status });
    if ((outcome.kind === 'paid' || outcome.kind === 'failed') && outcome.accountId !== null) accounts.add(outcome.accountId);
    // Delivered, read or failed moved the account's figures of the day (told once the window passes).
    if ((outcome.kind === 'paid' || outcome.kind === 'failed' || outcome.kind === 'status') && outcome.accountId !== null && outcome.userId !== null) {
      outcomes.touch(outcome.accountId, outcome.userId);
    }
    for (const id of outcome.balances) balances.add(id);
  }
  if (accounts.size || balances.size) await publish(ctx, [...accounts], [...balances]);
  return unknown;
}

async function publish(ctx: AppContext, accountIds: number[], userIds: number[]): Promise<void> {
  const engine = engineFor(ctx);
  if (accountIds.length) {
    const rows = await ctx.db.select().from(whatsapps).where(inArray(whatsapps.id, accountIds));
    for (const row of rows) engine.live.account(row.id, row.userId, 'count_synced', accountEventData(row));
  }
  for (const id of userIds) engine.balanceChanged(id);
}

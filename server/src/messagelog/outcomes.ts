import type { AppContext } from '../context';
import type { GatewayEvent } from '../gateway/types';
import { applyReport } from '../webhooks/statuses';
import { accountsToday, NO_SENDS } from './service';

/** Accounts whose figures changed are told together, at most once per this window. */
export const OUTCOMES_WINDOW_MS = 500;
/** A delivery report that overtook its send's log row is tried again this often, this many times. */
const REPORT_RETRY_MS = 500;
const REPORT_TRIES = 20;

/**
 * Today's sent / delivered / read / failed of an account row, live: an `outcomes` event with the row's
 * absolute figures of the day (whatsapp_days), on the owner's channel and 'admin'. A send, a status or a
 * report only marks the account; one read of the marked accounts' rows (by primary key) every
 * OUTCOMES_WINDOW_MS follows, after the commits and outside the engine's tick.
 */
export class TodayOutcomes {
  private dirty = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  closed = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'realtime' | 'log'>,
    private readonly windowMs = OUTCOMES_WINDOW_MS,
  ) {}

  /** The account's figures of today may have changed. */
  touch(accountId: number, userId: number): void {
    if (this.closed) return;
    this.dirty.set(accountId, userId);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((err: unknown) => this.ctx.log('Telling the accounts of today failed', err));
    }, this.windowMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    if (!this.dirty.size) return;
    const batch = this.dirty;
    this.dirty = new Map();
    const figures = await accountsToday(this.ctx, [...batch.keys()]);
    const at = Date.now();
    for (const [id, userId] of batch) {
      this.ctx.realtime.toUserAndAdmin(userId, 'outcomes', { id, user_id: userId, sender: { id, user_id: userId }, today: figures.get(id) ?? NO_SENDS }, at);
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * The simulator's delivery report of a sent message: moves its log row (never money) and marks the account.
 * The report may come before the tick that records the send has committed: it is tried again a few times.
 */
export async function applyDeliveryReport(
  ctx: Pick<AppContext, 'db' | 'log'>,
  outcomes: TodayOutcomes,
  event: Extract<GatewayEvent, { type: 'status' }>,
  retryMs = REPORT_RETRY_MS,
): Promise<void> {
  for (let tries = 1; ; tries++) {
    const result = await applyReport(ctx.db, event);
    if (result !== 'unknown') {
      if (result) outcomes.touch(result.accountId, result.userId);
      return;
    }
    if (tries >= REPORT_TRIES || outcomes.closed) return;
    await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
  }
}

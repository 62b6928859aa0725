import type { AuthUser } from '../../auth/middleware';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/errors';
import { connectedAccountForJob } from './access';
import { jobRunner } from './index';
import type { JobKind, JobRecord } from './types';

/**
 * Start: the account must be connected (403 with the Forbidden message otherwise) and numbers must
 * be left; the row turns sending and a loop picks it up from its `checked` position. Starting a
 * running job changes nothing.
 */
export async function startJob<R extends JobRecord>(ctx: AppContext, caller: AuthUser, kind: JobKind<R>, row: R, finishedMessage: string): Promise<R> {
  await connectedAccountForJob(ctx, caller, row.whatsappId);
  if (row.checked >= row.total) throw new HttpError(409, finishedMessage);
  const runner = jobRunner(ctx);
  let current = row;
  if (row.status !== 'sending') {
    current = (await kind.setRun(ctx, row.id, 'sending', kind.runningState)) ?? row;
    runner.emit(kind, current, kind.runningState);
  }
  runner.ensure(kind, row.id);
  return current;
}

/** Stop: the row turns idle at once; the loop records the number in flight, then ends. */
export async function stopJob<R extends JobRecord>(ctx: AppContext, caller: AuthUser, kind: JobKind<R>, row: R): Promise<R> {
  await connectedAccountForJob(ctx, caller, row.whatsappId);
  if (row.status !== 'sending') return row;
  const runner = jobRunner(ctx);
  const current = (await kind.setRun(ctx, row.id, 'idle', 'stopped')) ?? row;
  runner.emit(kind, current, 'stop');
  runner.wake(kind, row.id);
  return current;
}

/** After a row is deleted: its loop finds it gone at once and ends without a word. */
export function forgetJob<R extends JobRecord>(ctx: AppContext, kind: JobKind<R>, id: number): void {
  jobRunner(ctx).wake(kind, id);
}

import type { AppContext } from '../../context';
import { startupReleased, startWhatsappEvents } from '../../whatsapp/events';
import { generatorJob } from './generator-job';
import { JobRunner } from './runner';
import type { JobKind, JobRecord } from './types';
import { validatorJob } from './validator-job';

export { generatorJob } from './generator-job';
export { validatorJob } from './validator-job';
export type { JobKind, JobRecord } from './types';

const runners = new WeakMap<AppContext, JobRunner>();

export const JOB_KINDS: JobKind<JobRecord>[] = [generatorJob, validatorJob];

/** The job runner of one running app (created on first use). */
export function jobRunner(ctx: AppContext): JobRunner {
  let runner = runners.get(ctx);
  if (!runner) {
    runner = new JobRunner(ctx, JOB_KINDS);
    runners.set(ctx, runner);
  }
  return runner;
}

const started = new WeakSet<AppContext>();

/**
 * Once per app: every job an earlier process left running resumes from the last number it recorded.
 * It does not wait for the start-up restore of the saved sessions: a job re-opens its account's
 * session itself when the restore has not reached it yet.
 */
export function startJobRunner(ctx: AppContext): void {
  if (started.has(ctx)) return;
  started.add(ctx);
  void (async () => {
    void startWhatsappEvents(ctx);
    await startupReleased(ctx);
    await new Promise((resolve) => setImmediate(resolve));
    await jobRunner(ctx).resume();
  })().catch((err: unknown) => ctx.log('Resuming generator and validator jobs failed', err));
}

/** Stops every job loop and leaves the rows as they are, so the next start resumes them. */
export function haltJobRunner(ctx: AppContext): void {
  runners.get(ctx)?.halt();
}

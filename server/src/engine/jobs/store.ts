import { and, count, desc, eq, inArray, or, type AnyColumn } from 'drizzle-orm';
import type { AuthUser } from '../../auth/middleware';
import type { AppContext } from '../../context';
import { generators, validators, whatsapps } from '../../db/schema';
import { likePattern, paged, pageWindow } from '../../lib/paging';
import { likeInsensitive, one } from '../../db/raw';
import { accountSearch, textSearch } from '../../db/text-search';
import { accountById } from '../../whatsapp/access';
import type { WhatsappRow } from '../../whatsapp/view';
import { accountForJob, jobScope, reachableJob } from './access';
import { forgetJob, startJob, stopJob } from './control';
import { statusCondition, type JobListInput } from './rules';
import type { JobKind, JobRecord } from './types';

type JobTable = typeof generators | typeof validators;

/** The settings create and edit forms of every job send (already parsed). */
export interface JobSettingsInput {
  whatsapp_id: number;
  b_insert: number;
  interval_min: number;
  interval_max: number;
}

/**
 * The columns an edit saves from the shared settings: a changed account must be one the caller may
 * use (422 / 403 otherwise); the same one stays even if the caller could not pick it now.
 */
export async function editedSettings(ctx: AppContext, caller: AuthUser, row: JobRecord, input: JobSettingsInput) {
  const account = input.whatsapp_id === row.whatsappId ? undefined : await accountForJob(ctx, caller, input.whatsapp_id);
  return {
    whatsappId: account ? account.id : row.whatsappId,
    bInsert: input.b_insert,
    intervalMin: input.interval_min,
    intervalMax: input.interval_max,
  };
}

interface JobStoreSpec<T extends JobTable, V> {
  table: T;
  kind: JobKind<T['$inferSelect']>;
  notFound: string;
  /** The 409 message of Start on a job with no numbers left. */
  finishedMessage: string;
  /** The job's own columns the list search looks in, before the account's push name, number and client id. */
  searchColumns: AnyColumn[];
  view: (row: T['$inferSelect'], account: WhatsappRow | null | undefined) => V;
}

/**
 * What generators and validators do alike: the paged list, reaching one row (404 / 403), its view
 * with its account, Start, Stop and Delete. Each area keeps its own messages and response keys.
 */
export function jobStore<T extends JobTable, V>(spec: JobStoreSpec<T, V>) {
  const { table, kind } = spec;

  /** The job if the caller may reach it: 404 when missing, 403 when it is someone else's. */
  const reachable = async (ctx: AppContext, caller: AuthUser, id: number): Promise<T['$inferSelect']> =>
    reachableJob(caller, await kind.load(ctx, id), spec.notFound);

  /** The row's view with the account it uses (read afresh). */
  const withAccount = async (ctx: AppContext, row: T['$inferSelect']): Promise<V> =>
    spec.view(row, row.whatsappId === null ? undefined : await accountById(ctx, row.whatsappId));

  /** One page of jobs, newest first: staff their own, admin and dev anyone's (or `user_id`'s). */
  const list = async (ctx: AppContext, caller: AuthUser, input: JobListInput) => {
    const scope = jobScope(caller, input.userId);
    const pattern = input.search ? likePattern(input.search) : null;
    // A search looks in the job's own columns and, through the account list's trigram index, in its
    // account's push name, number and client id.
    const matchingAccounts = ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(textSearch(accountSearch, input.search));
    const where = and(
      scope === null ? undefined : eq(table.userId, scope),
      statusCondition(input.status, table.status, table.state),
      pattern ? or(...spec.searchColumns.map((column) => likeInsensitive(column, pattern)), inArray(table.whatsappId, matchingAccounts)) : undefined,
    );
    const joined = eq(table.whatsappId, whatsapps.id);
    // Without a search the page's ids are found on the job table alone; with one, a single scan
    // collects every matching id (total and page at once). Only the page's rows are then joined to
    // their accounts.
    const { limit, offset } = pageWindow(input.page);
    let total: number;
    let ids: number[];
    if (pattern) {
      const all = await ctx.db.select({ id: table.id }).from(table).where(where).orderBy(desc(table.id));
      total = all.length;
      ids = all.slice(offset, offset + limit).map((r) => r.id);
    } else {
      total = Number((await one(ctx.db.select({ n: count() }).from(table).where(where)))?.n ?? 0);
      ids = (await ctx.db.select({ id: table.id }).from(table).where(where).orderBy(desc(table.id)).limit(limit).offset(offset)).map((r) => r.id);
    }
    const rows = ids.length
      ? await ctx.db.select({ job: table, account: whatsapps }).from(table).leftJoin(whatsapps, joined).where(inArray(table.id, ids)).orderBy(desc(table.id))
      : [];
    return paged(rows.map((r) => spec.view(r.job, r.account)), total, input.page);
  };

  /** Start resumes from the next unchecked number; answers the row's view. */
  const start = async (ctx: AppContext, caller: AuthUser, id: number): Promise<V> =>
    withAccount(ctx, await startJob(ctx, caller, kind, await reachable(ctx, caller, id), spec.finishedMessage));

  /** Stop pauses after the number being checked; answers the row's view. */
  const stop = async (ctx: AppContext, caller: AuthUser, id: number): Promise<V> =>
    withAccount(ctx, await stopJob(ctx, caller, kind, await reachable(ctx, caller, id)));

  /** Delete stops the job (its loop finds the row gone) and removes its rows with it; answers the deleted row. */
  const remove = async (ctx: AppContext, caller: AuthUser, id: number): Promise<T['$inferSelect']> => {
    const row = await reachable(ctx, caller, id);
    await ctx.db.delete(table).where(eq(table.id, row.id));
    forgetJob(ctx, kind, row.id);
    return row;
  };

  return { reachable, withAccount, list, start, stop, remove };
}

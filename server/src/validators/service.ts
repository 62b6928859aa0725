import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, count, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { AuthUser } from '../auth/middleware';
import type { AppContext } from '../context';
import { validatorItems, validators, whatsapps } from '../db/schema';
import { HttpError } from '../lib/errors';
import { likePattern, paged, pageWindow } from '../lib/paging';
import { validatorJob } from '../engine/jobs';
import { accountForJob, jobScope, reachableJob } from '../engine/jobs/access';
import { forgetJob, startJob, stopJob } from '../engine/jobs/control';
import { checkIntervals, statusCondition, type StatusFilterValue } from '../engine/jobs/rules';
import { displayFileName, fileKind, parseValidatorFile } from './file';
import type { ValidatorInput } from './schema';
import { validatorView, type ValidatorRow } from './view';

const NOT_FOUND = 'Validator not found';
const FILE_REQUIRED = 'File (.csv atau .json) wajib diunggah';
const UPLOAD_DIR = 'validators';

export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
}

function load(ctx: AppContext, id: number): ValidatorRow | undefined {
  return ctx.db.select().from(validators).where(eq(validators.id, id)).get();
}

function reachable(ctx: AppContext, caller: AuthUser, id: number): ValidatorRow {
  return reachableJob(caller, load(ctx, id), NOT_FOUND);
}

function withAccount(ctx: AppContext, row: ValidatorRow) {
  const account = row.whatsappId === null ? undefined : ctx.db.select().from(whatsapps).where(eq(whatsapps.id, row.whatsappId)).get();
  return validatorView(row, account);
}

export function listValidators(
  ctx: AppContext,
  caller: AuthUser,
  input: { page: number; userId: number | null; search: string; status: StatusFilterValue },
) {
  const scope = jobScope(caller, input.userId);
  const pattern = input.search ? likePattern(input.search) : null;
  const where = and(
    scope === null ? undefined : eq(validators.userId, scope),
    statusCondition(input.status, validators.status, validators.state),
    pattern
      ? or(
          sql`${validators.fileName} LIKE ${pattern} ESCAPE '\\'`,
          sql`${whatsapps.pushname} LIKE ${pattern} ESCAPE '\\'`,
          sql`${whatsapps.phonenumber} LIKE ${pattern} ESCAPE '\\'`,
          sql`${whatsapps.clientid} LIKE ${pattern} ESCAPE '\\'`,
        )
      : undefined,
  );
  const joined = eq(validators.whatsappId, whatsapps.id);
  const total = ctx.db.select({ n: count() }).from(validators).leftJoin(whatsapps, joined).where(where).get()?.n ?? 0;
  const { limit, offset } = pageWindow(input.page);
  const rows = ctx.db
    .select({ job: validators, account: whatsapps })
    .from(validators)
    .leftJoin(whatsapps, joined)
    .where(where)
    .orderBy(desc(validators.id))
    .limit(limit)
    .offset(offset)
    .all();
  return paged(rows.map((r) => validatorView(r.job, r.account)), total, input.page);
}

/** The validator, with how many rows failed for each reason (invalid number, repeated in the file…). */
export function getValidator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = reachable(ctx, caller, id);
  const reasons = ctx.db
    .select({ reason: validatorItems.reason, n: count() })
    .from(validatorItems)
    .where(and(eq(validatorItems.validatorId, row.id), isNotNull(validatorItems.result), sql`${validatorItems.result} <> 'registered'`))
    .groupBy(validatorItems.reason)
    .all();
  const failReasons: Record<string, number> = {};
  for (const r of reasons) failReasons[r.reason ?? 'not registered'] = r.n;
  return { validator: { ...withAccount(ctx, row), failReasons } };
}

/** Keeps the uploaded file under DATA_DIR/uploads/validators with a generated name. */
function storeFile(ctx: AppContext, file: UploadedFile): { diskPath: string; url: string } {
  const dir = path.join(ctx.config.dataDir, 'uploads', UPLOAD_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const name = `${Date.now()}-${crypto.randomBytes(6).toString('hex')}.${fileKind(file.originalname)}`;
  const diskPath = path.join(dir, name);
  fs.writeFileSync(diskPath, file.buffer);
  return { diskPath, url: `/uploads/${UPLOAD_DIR}/${name}` };
}

function removeFile(ctx: AppContext, url: string): void {
  const prefix = `/uploads/${UPLOAD_DIR}/`;
  if (!url.startsWith(prefix)) return;
  const name = path.basename(url);
  fs.rm(path.join(ctx.config.dataDir, 'uploads', UPLOAD_DIR, name), { force: true }, () => undefined);
}

export function createValidator(ctx: AppContext, caller: AuthUser, input: ValidatorInput, file: UploadedFile | undefined) {
  if (!file) throw new HttpError(422, FILE_REQUIRED, { errors: { file: FILE_REQUIRED } });
  checkIntervals(input.interval_min, input.interval_max);
  const account = accountForJob(ctx, caller, input.whatsapp_id);
  const fileName = displayFileName(file.originalname);
  const rows = parseValidatorFile(fileName, file.buffer);
  const stored = storeFile(ctx, file);
  try {
    const row = ctx.db.transaction((tx) => {
      const created = tx
        .insert(validators)
        .values({
          userId: caller.id,
          whatsappId: account.id,
          fileName,
          fileUrl: stored.url,
          bInsert: input.b_insert,
          intervalMin: input.interval_min,
          intervalMax: input.interval_max,
          total: rows.length,
        })
        .returning()
        .get();
      // A prepared statement: the query builder would cost seconds for 100,000 rows.
      const insert = ctx.db.$client.prepare('INSERT INTO validator_items (validator_id, seq, number, name, reason) VALUES (?, ?, ?, ?, ?)');
      rows.forEach((r, i) => insert.run(created.id, i + 1, r.number, r.name, r.invalid ?? null));
      return created;
    });
    return { validator: validatorView(row, account), msg: 'Validator berhasil dibuat' };
  } catch (err) {
    fs.rmSync(stored.diskPath, { force: true });
    throw err;
  }
}

/** Edits intervals, account and b_insert; the file stays the one uploaded at creation. */
export function updateValidator(ctx: AppContext, caller: AuthUser, id: number, input: ValidatorInput) {
  const row = reachable(ctx, caller, id);
  checkIntervals(input.interval_min, input.interval_max);
  const account = input.whatsapp_id === row.whatsappId ? undefined : accountForJob(ctx, caller, input.whatsapp_id);
  const updated = ctx.db
    .update(validators)
    .set({
      whatsappId: account ? account.id : row.whatsappId,
      bInsert: input.b_insert,
      intervalMin: input.interval_min,
      intervalMax: input.interval_max,
    })
    .where(eq(validators.id, row.id))
    .returning()
    .get();
  return { validator: withAccount(ctx, updated), msg: 'Validator berhasil diperbarui' };
}

/** Delete stops the job, removes its rows and results, and its uploaded file. */
export function deleteValidator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = reachable(ctx, caller, id);
  ctx.db.delete(validators).where(eq(validators.id, row.id)).run();
  forgetJob(ctx, validatorJob, row.id);
  removeFile(ctx, row.fileUrl);
  return { msg: 'Validator berhasil dihapus' };
}

export function startValidator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = startJob(ctx, caller, validatorJob, reachable(ctx, caller, id), 'Validator sudah selesai');
  return { validator: withAccount(ctx, row), msg: 'Validator dimulai' };
}

export function stopValidator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = stopJob(ctx, caller, validatorJob, reachable(ctx, caller, id));
  return { validator: withAccount(ctx, row), msg: 'Validator dihentikan' };
}

/** The registered numbers, in file order, with the file's name for them (else their push name). */
export function validatorResultRows(ctx: AppContext, caller: AuthUser, id: number) {
  const row = reachable(ctx, caller, id);
  const items = ctx.db
    .select({ number: validatorItems.number, name: validatorItems.name, resultName: validatorItems.resultName })
    .from(validatorItems)
    .where(and(eq(validatorItems.validatorId, row.id), eq(validatorItems.result, 'registered')))
    .orderBy(asc(validatorItems.seq))
    .all();
  return { list: items.map((i) => ({ number: i.number, name: i.name || i.resultName || '' })) };
}

import crypto from 'node:crypto';
import { privateDir, privateFile } from '../lib/paths';
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { AuthUser } from '../auth/middleware';
import type { AppContext } from '../context';
import { transaction } from '../db/client';
import { validatorItems, validators } from '../db/schema';
import { HttpError } from '../lib/errors';
import { validatorJob } from '../engine/jobs';
import { accountForJob } from '../engine/jobs/access';
import { checkIntervals, type JobListInput } from '../engine/jobs/rules';
import { editedSettings, jobStore } from '../engine/jobs/store';
import { displayFileName, fileKind, parseValidatorFile } from './file';
import type { ValidatorInput } from './schema';
import { validatorView } from './view';
import { defaultCountry } from '../settings/service';

const FILE_REQUIRED = 'File (.csv atau .json) wajib diunggah';
const UPLOAD_DIR = 'validators';

export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
}

const store = jobStore({
  table: validators,
  kind: validatorJob,
  notFound: 'Validator not found',
  finishedMessage: 'Validator sudah selesai',
  searchColumns: [validators.fileName],
  view: validatorView,
});
const { reachable, withAccount } = store;

export async function listValidators(ctx: AppContext, caller: AuthUser, input: JobListInput) {
  return await store.list(ctx, caller, input);
}

/** The validator, with how many rows failed for each reason (invalid number, repeated in the file…). */
export async function getValidator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = await reachable(ctx, caller, id);
  const reasons = await ctx.db
    .select({ reason: validatorItems.reason, n: count() })
    .from(validatorItems)
    .where(and(eq(validatorItems.validatorId, row.id), isNotNull(validatorItems.result), sql`${validatorItems.result} <> 'registered'`))
    .groupBy(validatorItems.reason);
  const failReasons: Record<string, number> = {};
  for (const r of reasons) failReasons[r.reason ?? 'not registered'] = r.n;
  return { validator: { ...(await withAccount(ctx, row)), failReasons } };
}

/** Keeps the uploaded file under DATA_DIR/uploads/validators with a generated name. */
function storeFile(ctx: AppContext, file: UploadedFile): { diskPath: string; url: string } {
  const dir = path.join(ctx.config.dataDir, 'uploads', UPLOAD_DIR);
  privateDir(dir);
  const name = `${Date.now()}-${crypto.randomBytes(6).toString('hex')}.${fileKind(file.originalname)}`;
  const diskPath = path.join(dir, name);
  fs.writeFileSync(diskPath, file.buffer, { mode: 0o600 });
  privateFile(diskPath);
  return { diskPath, url: `/uploads/${UPLOAD_DIR}/${name}` };
}

function removeFile(ctx: AppContext, url: string): void {
  const prefix = `/uploads/${UPLOAD_DIR}/`;
  if (!url.startsWith(prefix)) return;
  const name = path.basename(url);
  fs.rm(path.join(ctx.config.dataDir, 'uploads', UPLOAD_DIR, name), { force: true }, () => undefined);
}

/** Rows per insert statement (5 values each stays far below SQLite's 32,766 variables). */
const ITEM_CHUNK = 2000;

export async function createValidator(ctx: AppContext, caller: AuthUser, input: ValidatorInput, file: UploadedFile | undefined) {
  if (!file) throw new HttpError(422, FILE_REQUIRED, { errors: { file: FILE_REQUIRED } });
  checkIntervals(input.interval_min, input.interval_max);
  const account = await accountForJob(ctx, caller, input.whatsapp_id);
  const fileName = displayFileName(file.originalname);
  const rows = parseValidatorFile(fileName, file.buffer, await defaultCountry(ctx.db));
  const stored = storeFile(ctx, file);
  try {
    const row = await transaction(ctx.db, async (tx) => {
      const [created] = await tx
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
        .returning();
      if (!created) throw new Error('validator insert returned no row');
      // Multi-row inserts: one statement per chunk keeps a 100,000-row file to a few dozen statements.
      for (let start = 0; start < rows.length; start += ITEM_CHUNK) {
        const chunk = rows.slice(start, start + ITEM_CHUNK);
        await tx.insert(validatorItems).values(
          chunk.map((r, i) => ({ validatorId: created.id, seq: start + i + 1, number: r.number, name: r.name, reason: r.invalid ?? null })),
        );
      }
      return created;
    });
    return { validator: validatorView(row, account), msg: 'Validator berhasil dibuat' };
  } catch (err) {
    fs.rmSync(stored.diskPath, { force: true });
    throw err;
  }
}

/** Edits intervals, account and b_insert; the file stays the one uploaded at creation. */
export async function updateValidator(ctx: AppContext, caller: AuthUser, id: number, input: ValidatorInput) {
  const row = await reachable(ctx, caller, id);
  checkIntervals(input.interval_min, input.interval_max);
  const settings = await editedSettings(ctx, caller, row, input);
  const [updated] = await ctx.db.update(validators).set(settings).where(eq(validators.id, row.id)).returning();
  if (!updated) throw new HttpError(404, 'Validator not found');
  return { validator: await withAccount(ctx, updated), msg: 'Validator berhasil diperbarui' };
}

/** Delete stops the job, removes its rows and results, and its uploaded file. */
export async function deleteValidator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = await store.remove(ctx, caller, id);
  removeFile(ctx, row.fileUrl);
  return { msg: 'Validator berhasil dihapus' };
}

export async function startValidator(ctx: AppContext, caller: AuthUser, id: number) {
  return { validator: await store.start(ctx, caller, id), msg: 'Validator dimulai' };
}

export async function stopValidator(ctx: AppContext, caller: AuthUser, id: number) {
  return { validator: await store.stop(ctx, caller, id), msg: 'Validator dihentikan' };
}

/** The registered numbers, in file order, with the file's name for them (else their push name). */
export async function validatorResultRows(ctx: AppContext, caller: AuthUser, id: number) {
  const row = await reachable(ctx, caller, id);
  const items = await ctx.db
    .select({ number: validatorItems.number, name: validatorItems.name, resultName: validatorItems.resultName })
    .from(validatorItems)
    .where(and(eq(validatorItems.validatorId, row.id), eq(validatorItems.result, 'registered')))
    .orderBy(asc(validatorItems.seq));
  return { list: items.map((i) => ({ number: i.number, name: i.name || i.resultName || '' })) };
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { AuthUser } from '../auth/middleware';
import type { AppContext } from '../context';
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
  const reasons = ctx.db
    .select({ reason: validatorItems.reason, n: count() })
    .from(validatorItems)
    .where(and(eq(validatorItems.validatorId, row.id), isNotNull(validatorItems.result), sql`${validatorItems.result} <> 'registered'`))
    .groupBy(validatorItems.reason)
    .all();
  const failReasons: Record<string, number> = {};
  for (const r of reasons) failReasons[r.reason ?? 'not registered'] = r.n;
  return { validator: { ...(await withAccount(ctx, row)), failReasons } };
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

export async function createValidator(ctx: AppContext, caller: AuthUser, input: ValidatorInput, file: UploadedFile | undefined) {
  if (!file) throw new HttpError(422, FILE_REQUIRED, { errors: { file: FILE_REQUIRED } });
  checkIntervals(input.interval_min, input.interval_max);
  const account = await accountForJob(ctx, caller, input.whatsapp_id);
  const fileName = displayFileName(file.originalname);
  const rows = parseValidatorFile(fileName, file.buffer, await defaultCountry(ctx.db));
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
export async function updateValidator(ctx: AppContext, caller: AuthUser, id: number, input: ValidatorInput) {
  const row = await reachable(ctx, caller, id);
  checkIntervals(input.interval_min, input.interval_max);
  const settings = await editedSettings(ctx, caller, row, input);
  const updated = ctx.db
    .update(validators)
    .set(settings)
    .where(eq(validators.id, row.id))
    .returning()
    .get();
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
  const items = ctx.db
    .select({ number: validatorItems.number, name: validatorItems.name, resultName: validatorItems.resultName })
    .from(validatorItems)
    .where(and(eq(validatorItems.validatorId, row.id), eq(validatorItems.result, 'registered')))
    .orderBy(asc(validatorItems.seq))
    .all();
  return { list: items.map((i) => ({ number: i.number, name: i.name || i.resultName || '' })) };
}

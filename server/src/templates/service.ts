import fs from 'node:fs';
import path from 'node:path';
import { asc, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context';
import { transaction, type Db } from '../db/client';
import { messageTemplates } from '../db/schema';
import { one } from '../db/raw';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { JsonArrayScanner } from '../lib/rows';
import { parseButtons, storedButtons, type Button } from './buttons';
import { mediaFile, removeMedia } from './media';
import { captionText, sanitizeCaption } from './sanitize';
import { htmlToWhatsapp } from './text-wa';
import { importedWaTemplate, mergeWaTemplate, NO_WA_TEMPLATE, storedWaParams, WaTemplateLanguage, WaTemplateName, WaTemplateParams, type WaTemplate, type WaTemplateParam } from './cloud';
import { NUL_MSG, nulField } from '../lib/nul';
import { checkWaTemplate } from './meta-check';

interface TemplateRaw {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: string;
  status: 'active' | 'nonactive';
  count_use: number;
  waTemplateName: string | null;
  waTemplateLanguage: string | null;
  waTemplateParams: string;
}

export interface TemplateView {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: Button[];
  status: 'active' | 'nonactive';
  count_use: number;
  /** The approved Cloud API template this one is sent as on a Cloud API account, or null. */
  waTemplateName: string | null;
  waTemplateLanguage: string | null;
  /** What fills the Cloud API template's body parameters, in order. */
  waTemplateParams: WaTemplateParam[];
}

// Sanitised again on the way out, so a row written by any other path still cannot carry script.
const view = (r: TemplateRaw): TemplateView => ({
  ...r,
  text: sanitizeCaption(r.text),
  button: storedButtons(r.button),
  waTemplateParams: storedWaParams(r.waTemplateParams),
});

export const NO_DATA = 'No Data';

/** The multipart fields of create and update (file comes separately). `text_wa` is ignored: derived. */
export const TemplateFields = z.object({
  text: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().max(20_000, 'Caption terlalu panjang (maksimal 20.000 karakter).')),
  button: z.unknown().optional(),
  status: z.preprocess((v) => (v === undefined || v === '' ? 'active' : v), z.enum(['active', 'nonactive'], { message: 'Status harus active atau nonactive.' })),
  /** Set to 'true' on update to drop the current media without sending a new file. */
  removeMedia: z.preprocess((v) => v === 'true' || v === true, z.boolean()).optional(),
  /** The Cloud API mapping; absent on update keeps the stored value, blank clears it. */
  waTemplateName: WaTemplateName,
  waTemplateLanguage: WaTemplateLanguage,
  waTemplateParams: WaTemplateParams,
});
export type TemplateInput = z.infer<typeof TemplateFields>;

interface Prepared {
  text: string;
  textWa: string;
  button: Button[];
  status: 'active' | 'nonactive';
}

/** Sanitises the caption, derives text_wa and checks the buttons; refuses a template with nothing to send. */
export function prepareTemplate(input: { text: string; button?: unknown; status: 'active' | 'nonactive' }, media: string | null): Prepared {
  const text = sanitizeCaption(input.text);
  const button = parseButtons(input.button);
  if (!captionText(text) && !media && button.length === 0) throw new HttpError(422, NO_DATA);
  return { text, textWa: htmlToWhatsapp(text), button, status: input.status };
}

const t = messageTemplates;
const COLUMNS = {
  id: t.id,
  media: t.media,
  text: t.text,
  text_wa: t.textWa,
  button: t.button,
  status: t.status,
  count_use: t.countUse,
  waTemplateName: t.waTemplateName,
  waTemplateLanguage: t.waTemplateLanguage,
  waTemplateParams: t.waTemplateParams,
};

async function rawById(db: Db, id: number): Promise<TemplateRaw> {
  const raw = await one(db.select(COLUMNS).from(t).where(eq(t.id, id)).limit(1));
  if (!raw) throw new HttpError(404, 'Message template not found');
  return raw;
}

export async function templateList(ctx: AppContext) {
  const rows = await ctx.db.select(COLUMNS).from(t).orderBy(asc(t.id));
  return { list: rows.map(view) };
}

export async function templatesPerPage(ctx: AppContext, page: number) {
  const counted = await one(ctx.db.select({ n: count() }).from(t));
  const { limit, offset } = pageWindow(page);
  const rows = await ctx.db.select(COLUMNS).from(t).orderBy(asc(t.id)).limit(limit).offset(offset);
  return paged(rows.map(view), Number(counted?.n ?? 0), page);
}

export async function templateById(ctx: AppContext, id: number) {
  return { message: view(await rawById(ctx.db, id)) };
}

const uploadsDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'uploads');

const stored = (media: string | null, p: Prepared, wa: WaTemplate) => ({
  media,
  text: p.text,
  textWa: p.textWa,
  button: JSON.stringify(p.button),
  status: p.status,
  waTemplateName: wa.waTemplateName,
  waTemplateLanguage: wa.waTemplateLanguage,
  waTemplateParams: JSON.stringify(wa.waTemplateParams),
});

export async function createTemplate(ctx: AppContext, input: TemplateInput, media: string | null) {
  const p = prepareTemplate(input, media);
  const wa = mergeWaTemplate(NO_WA_TEMPLATE, input);
  const [row] = await ctx.db.insert(t).values(stored(media, p, wa)).returning(COLUMNS);
  // Saved whatever Meta says: a mapping may be saved before Meta approves it (docs/decisions.md).
  return { message: view(row!), msg: 'Template pesan berhasil disimpan.', waTemplateCheck: await checkWaTemplate(ctx, wa) };
}

/** Updates a template; a new file replaces the old media, whose file is then removed. */
export async function updateTemplate(ctx: AppContext, id: number, input: TemplateInput, newMedia: string | null) {
  const current = await rawById(ctx.db, id);
  const media = newMedia ?? (input.removeMedia ? null : current.media);
  const p = prepareTemplate(input, media);
  const wa = mergeWaTemplate({ ...current, waTemplateParams: storedWaParams(current.waTemplateParams) }, input);
  await ctx.db.update(t).set(stored(media, p, wa)).where(eq(t.id, id));
  if (current.media && current.media !== media) removeMedia(uploadsDir(ctx), current.media);
  return { ...(await templateById(ctx, id)), msg: 'Template pesan berhasil diperbarui.', waTemplateCheck: await checkWaTemplate(ctx, wa) };
}

export async function deleteTemplate(ctx: AppContext, id: number) {
  const current = await rawById(ctx.db, id);
  await ctx.db.delete(t).where(eq(t.id, id));
  if (current.media) removeMedia(uploadsDir(ctx), current.media);
  return { id, msg: 'Template pesan berhasil dihapus.' };
}

export interface SkippedTemplate {
  index: number;
  text: string;
  reason: string;
}

/**
 * 'Upload JSON': an array of templates ({text, button?, status?, media?, waTemplateName?, waTemplateLanguage?,
 * waTemplateParams?}, e.g. an earlier messages.json). Each is checked like the form; invalid ones are skipped
 * with the reason. Media must be a file already uploaded here (`/uploads/…`). All valid ones are saved in one
 * transaction.
 */
export async function importTemplates(ctx: AppContext, file: string) {
  const items: Array<Record<string, unknown>> = [];
  const scanner = new JsonArrayScanner();
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    for (const element of scanner.feed(items.length === 0 && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk)) {
      let value: unknown;
      try {
        value = JSON.parse(element);
      } catch {
        throw new HttpError(422, 'The JSON file is not valid: it must be an array of templates.');
      }
      items.push(value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
      if (items.length > 1000) throw new HttpError(413, 'Maksimal 1.000 template per file.');
    }
  }
  scanner.finish();
  // Checked (media files included) before the transaction, which then only writes.
  const valid: Array<{ media: string | null; prepared: Prepared; wa: WaTemplate }> = [];
  const skipped: SkippedTemplate[] = [];
  items.forEach((item, index) => {
    const text = typeof item.text === 'string' ? item.text : '';
    const shown = captionText(sanitizeCaption(text)).replaceAll('\u0000', '').slice(0, 100);
    // PostgreSQL cannot store a NUL in text: such an item is skipped on every database alike.
    if (nulField(item) !== null) return void skipped.push({ index: index + 1, text: shown, reason: NUL_MSG });
    try {
      const mediaUrl = typeof item.media === 'string' && item.media.trim() ? item.media.trim() : null;
      const file = mediaFile(uploadsDir(ctx), mediaUrl);
      if (mediaUrl && (!file || !fs.existsSync(file))) throw new HttpError(422, `Media "${mediaUrl}" tidak ditemukan di server.`);
      const status = item.status === 'nonactive' ? 'nonactive' : 'active';
      valid.push({ media: mediaUrl, prepared: prepareTemplate({ text, button: item.button, status }, mediaUrl), wa: importedWaTemplate(item) });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      skipped.push({ index: index + 1, text: shown, reason: err.msg });
    }
  });
  const created = await transaction(ctx.db, async (tx) => {
    const rows: TemplateView[] = [];
    for (const { media, prepared, wa } of valid) {
      const [row] = await tx.insert(t).values(stored(media, prepared, wa)).returning(COLUMNS);
      rows.push(view(row!));
    }
    return rows;
  });
  return { created, skipped };
}

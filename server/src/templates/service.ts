import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { JsonArrayScanner } from '../lib/rows';
import { parseButtons, storedButtons, type Button } from './buttons';
import { mediaFile, removeMedia } from './media';
import { captionText, sanitizeCaption } from './sanitize';
import { htmlToWhatsapp } from './text-wa';

interface TemplateRaw {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: string;
  status: 'active' | 'nonactive';
  count_use: number;
}

export interface TemplateView {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: Button[];
  status: 'active' | 'nonactive';
  count_use: number;
}

// Sanitised again on the way out, so a row written by any other path still cannot carry script.
const view = (r: TemplateRaw): TemplateView => ({ ...r, text: sanitizeCaption(r.text), button: storedButtons(r.button) });

export const NO_DATA = 'No Data';

/** The multipart fields of create and update (file comes separately). `text_wa` is ignored: derived. */
export const TemplateFields = z.object({
  text: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().max(20_000, 'Caption terlalu panjang (maksimal 20.000 karakter).')),
  button: z.unknown().optional(),
  status: z.preprocess((v) => (v === undefined || v === '' ? 'active' : v), z.enum(['active', 'nonactive'], { message: 'Status harus active atau nonactive.' })),
  /** Set to 'true' on update to drop the current media without sending a new file. */
  removeMedia: z.preprocess((v) => v === 'true' || v === true, z.boolean()).optional(),
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

function rawById(db: Db, id: number): TemplateRaw {
  const raw = db.$client.prepare('SELECT id, media, text, text_wa, button, status, count_use FROM message_templates WHERE id = ?').get(id) as TemplateRaw | undefined;
  if (!raw) throw new HttpError(404, 'Message template not found');
  return raw;
}

const COLUMNS = 'id, media, text, text_wa, button, status, count_use';

export function templateList(ctx: AppContext) {
  const rows = ctx.db.$client.prepare(`SELECT ${COLUMNS} FROM message_templates ORDER BY id`).all() as TemplateRaw[];
  return { list: rows.map(view) };
}

export function templatesPerPage(ctx: AppContext, page: number) {
  const c = ctx.db.$client;
  const total = (c.prepare('SELECT count(*) AS n FROM message_templates').get() as { n: number }).n;
  const { limit, offset } = pageWindow(page);
  const rows = c.prepare(`SELECT ${COLUMNS} FROM message_templates ORDER BY id LIMIT ? OFFSET ?`).all(limit, offset) as TemplateRaw[];
  return paged(rows.map(view), total, page);
}

export function templateById(ctx: AppContext, id: number) {
  return { message: view(rawById(ctx.db, id)) };
}

const uploadsDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'uploads');

export function createTemplate(ctx: AppContext, input: TemplateInput, media: string | null) {
  const t = prepareTemplate(input, media);
  const { lastInsertRowid } = ctx.db.$client
    .prepare('INSERT INTO message_templates (media, text, text_wa, button, status) VALUES (?, ?, ?, ?, ?)')
    .run(media, t.text, t.textWa, JSON.stringify(t.button), t.status);
  return { ...templateById(ctx, Number(lastInsertRowid)), msg: 'Template pesan berhasil disimpan.' };
}

/** Updates a template; a new file replaces the old media, whose file is then removed. */
export function updateTemplate(ctx: AppContext, id: number, input: TemplateInput, newMedia: string | null) {
  const current = rawById(ctx.db, id);
  const media = newMedia ?? (input.removeMedia ? null : current.media);
  const t = prepareTemplate(input, media);
  ctx.db.$client
    .prepare('UPDATE message_templates SET media = ?, text = ?, text_wa = ?, button = ?, status = ? WHERE id = ?')
    .run(media, t.text, t.textWa, JSON.stringify(t.button), t.status, id);
  if (current.media && current.media !== media) removeMedia(uploadsDir(ctx), current.media);
  return { ...templateById(ctx, id), msg: 'Template pesan berhasil diperbarui.' };
}

export function deleteTemplate(ctx: AppContext, id: number) {
  const current = rawById(ctx.db, id);
  ctx.db.$client.prepare('DELETE FROM message_templates WHERE id = ?').run(id);
  if (current.media) removeMedia(uploadsDir(ctx), current.media);
  return { id, msg: 'Template pesan berhasil dihapus.' };
}

export interface SkippedTemplate {
  index: number;
  text: string;
  reason: string;
}

/**
 * 'Upload JSON': an array of templates ({text, button?, status?, media?}, e.g. an earlier
 * messages.json). Each is checked like the form; invalid ones are skipped with the reason. Media
 * must be a file already uploaded here (`/uploads/…`). All valid ones are saved in one transaction.
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
  const created: TemplateView[] = [];
  const skipped: SkippedTemplate[] = [];
  const c = ctx.db.$client;
  const insert = c.prepare('INSERT INTO message_templates (media, text, text_wa, button, status) VALUES (?, ?, ?, ?, ?)');
  c.transaction(() => {
    items.forEach((item, index) => {
      const text = typeof item.text === 'string' ? item.text : '';
      const shown = captionText(sanitizeCaption(text)).slice(0, 100);
      try {
        const mediaUrl = typeof item.media === 'string' && item.media.trim() ? item.media.trim() : null;
        const file = mediaFile(uploadsDir(ctx), mediaUrl);
        if (mediaUrl && (!file || !fs.existsSync(file))) throw new HttpError(422, `Media "${mediaUrl}" tidak ditemukan di server.`);
        const status = item.status === 'nonactive' ? 'nonactive' : 'active';
        const t = prepareTemplate({ text, button: item.button, status }, mediaUrl);
        const { lastInsertRowid } = insert.run(mediaUrl, t.text, t.textWa, JSON.stringify(t.button), t.status);
        created.push(view(rawById(ctx.db, Number(lastInsertRowid))));
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        skipped.push({ index: index + 1, text: shown, reason: err.msg });
      }
    });
  })();
  return { created, skipped };
}

import crypto from 'node:crypto';
import { normalizePhone } from '../../../common/phone';
import { HttpError } from '../lib/errors';

export const BUTTON_TYPES = ['reply_button', 'call_button', 'url_button', 'stop_button'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

export interface Button {
  id: string;
  title: string;
  url: string;
  type: ButtonType;
}

export const MAX_BUTTONS = 3;
/** WhatsApp shows at most 20 characters on a button. */
export const MAX_TITLE = 20;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
/** The editor sends at most a few rows; a longer list is not a button set. */
const MAX_ROWS = 10;
const FIELDS = ['id', 'title', 'url', 'type'] as const;

/** Why a set of buttons cannot be saved (the spec's alerts word for word where it has them). */
export class ButtonError extends HttpError {
  constructor(msg: string) {
    super(422, msg, { errors: { button: msg } });
  }
}

/**
 * Buttons from the form (a JSON string) or an import (an array). Rows with neither title nor url
 * (the editor's empty rows) are dropped; a title without a url, a url without a title, an unknown
 * type, a url button without an http(s) address, a call button without a phone number, a title
 * over 20 characters and more than 3 buttons are refused.
 */
export function parseButtons(input: unknown): Button[] {
  let value = input;
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new ButtonError('Button harus berupa JSON array.');
    }
  }
  if (!Array.isArray(value)) throw new ButtonError('Button harus berupa JSON array.');
  if (value.length > MAX_ROWS) throw new ButtonError(`Maksimal ${MAX_BUTTONS} button.`);
  const out: Button[] = [];
  for (const [index, raw] of value.entries()) {
    // Each row is an object whose fields are text (a number is read as text); anything else is refused.
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ButtonError(`Button ke-${index + 1} tidak valid.`);
    const row = raw as Record<string, unknown>;
    for (const field of FIELDS) {
      const v = row[field];
      if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number') {
        throw new ButtonError(`Button ke-${index + 1}: ${field} harus berupa teks.`);
      }
    }
    const title = text(row.title);
    const url = text(row.url);
    if (!title && !url) continue;
    if (title && !url) throw new ButtonError(`Judul button : "${title}" belum mempunyai URL.`);
    if (url && !title) throw new ButtonError(`URL button "${url}" belum punya nama atau judul.`);
    const type = (text(row.type) || 'reply_button') as ButtonType;
    if (!BUTTON_TYPES.includes(type)) throw new ButtonError(`Jenis button "${type}" tidak dikenal.`);
    if (title.length > MAX_TITLE) throw new ButtonError(`Judul button "${title}" maksimal ${MAX_TITLE} karakter.`);
    if (type === 'url_button' && !/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(url)) {
      throw new ButtonError(`URL button "${url}" harus diawali http:// atau https://.`);
    }
    if (type === 'call_button' && !normalizePhone(url).ok) throw new ButtonError(`Nomor telepon button "${title}" tidak valid.`);
    const id = text(row.id).slice(0, 64) || crypto.randomBytes(6).toString('hex');
    out.push({ id, title: title.slice(0, 200), url: url.slice(0, 2000), type });
  }
  if (out.length > MAX_BUTTONS) throw new ButtonError(`Maksimal ${MAX_BUTTONS} button.`);
  return out;
}

/** Stored buttons (JSON text) back to a list; a damaged value reads as none. */
export function storedButtons(json: string): Button[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as Button[]) : [];
  } catch {
    return [];
  }
}

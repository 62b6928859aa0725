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
  const out: Button[] = [];
  for (const raw of value) {
    const row = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
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

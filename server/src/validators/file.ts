import path from 'node:path';
import Papa from 'papaparse';
import { HttpError } from '../lib/errors';
import { normaliseNumber } from '../engine/jobs/rules';
import { MAX_JOB_NUMBERS } from '../../../common/jobs';
import { INVALID_NUMBER } from '../../../common/phone';
import { quoteProblem } from '../lib/rows';

/** One row of an uploaded file: a normalised number, or the raw text with why it cannot be checked. */
export interface FileRow {
  number: string;
  name: string;
  /** Set for rows counted as Gagal without asking WhatsApp. */
  invalid?: string;
}

export const REPEATED = 'repeated in the file';
const NAME_MAX = 100;
const RAW_MAX = 40;

const NUMBER_HEADERS = new Set(['number', 'nomor', 'phone', 'phonenumber', 'phone_number', 'no', 'telepon', 'hp', 'whatsapp']);
const NAME_HEADERS = new Set(['name', 'nama']);

function fileError(msg: string): HttpError {
  return new HttpError(422, msg, { errors: { file: msg } });
}

function tooMany(): HttpError {
  return fileError(`File berisi lebih dari ${MAX_JOB_NUMBERS.toLocaleString('id-ID')} nomor; satu validator paling banyak ${MAX_JOB_NUMBERS.toLocaleString('id-ID')} nomor`);
}

/** `.csv` or `.json`, from the file's name. */
export function fileKind(fileName: string): 'csv' | 'json' {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  throw fileError('File harus berformat .csv atau .json');
}

const cell = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

/** CSV with a `number,name` header or none; comma, semicolon or tab; UTF-8 with or without BOM; CRLF. */
function csvRows(text: string): Array<{ raw: string; name: string }> {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const bad = quoteProblem(parsed.errors);
  if (bad) throw fileError(bad.msg);
  const rows = parsed.data;
  let numberCol = 0;
  let nameCol = 1;
  const head = (rows[0] ?? []).map((c) => cell(c).toLowerCase().replace(/\s+/g, ''));
  const headerNumber = head.findIndex((c) => NUMBER_HEADERS.has(c));
  if (headerNumber >= 0 || head.some((c) => NAME_HEADERS.has(c))) {
    numberCol = Math.max(0, headerNumber);
    const headerName = head.findIndex((c) => NAME_HEADERS.has(c));
    nameCol = headerName >= 0 ? headerName : -1;
    rows.shift();
  }
  if (rows.length > MAX_JOB_NUMBERS) throw tooMany();
  return rows.map((r) => ({ raw: cell(r[numberCol]), name: nameCol >= 0 ? cell(r[nameCol]) : '' }));
}

/** JSON: an array of numbers as strings (or numbers), or of `{number, name}`. */
function jsonRows(text: string): Array<{ raw: string; name: string }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fileError('File JSON tidak valid');
  }
  if (!Array.isArray(value)) throw fileError('File JSON harus berisi array nomor atau {number, name}');
  if (value.length > MAX_JOB_NUMBERS) throw tooMany();
  return value.map((item: unknown) => {
    if (typeof item === 'string' || typeof item === 'number') return { raw: cell(item), name: '' };
    if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      return { raw: cell(o.number ?? o.phonenumber ?? o.phone), name: cell(o.name) };
    }
    return { raw: '', name: '' };
  });
}

/**
 * The rows of an uploaded validator file, in file order. Numbers are normalised like the phone
 * list (numbers without a country code belong to `country`, the default country); a row that is not a valid number, or repeats an earlier one, stays in the job as a row
 * counted Gagal with its reason.
 */
export function parseValidatorFile(fileName: string, content: Buffer, country?: string): FileRow[] {
  const kind = fileKind(fileName);
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  const raw = kind === 'csv' ? csvRows(text) : jsonRows(text);
  if (raw.length === 0) throw fileError('File tidak berisi nomor');
  const seen = new Set<string>();
  // PostgreSQL cannot store a NUL in text; no number or name means one.
  return raw.map(({ raw: withNul, name }) => {
    const value = withNul.replaceAll('\u0000', '');
    const clippedName = name.replaceAll('\u0000', '').slice(0, NAME_MAX);
    const number = normaliseNumber(value, country);
    if (!number) return { number: value.slice(0, RAW_MAX), name: clippedName, invalid: INVALID_NUMBER };
    if (seen.has(number)) return { number, name: clippedName, invalid: REPEATED };
    seen.add(number);
    return { number, name: clippedName };
  });
}

/** The name shown for an uploaded file: its base name without control characters, at most 200 long. */
export function displayFileName(original: string): string {
  let name = original;
  // multer reads multipart file names as latin1; UTF-8 names come back intact this way.
  const utf8 = Buffer.from(original, 'latin1').toString('utf8');
  if (!utf8.includes('\uFFFD')) name = utf8;
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(-200);
}

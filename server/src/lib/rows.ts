import fs from 'node:fs';
import { HttpError } from './errors';

/** One row of an import file, keyed by the canonical column names ('number', 'name', 'value'…). */
export type ImportRecord = Record<string, string>;

export interface RowReaderOptions {
  /** Canonical columns in file order when there is no header ('number', 'name'). */
  columns: string[];
  /** Header labels (lower case) → canonical column; canonical names map to themselves. */
  aliases?: Record<string, string>;
  /** Rows handed over at a time. */
  batchSize?: number;
  /** Bytes of the file read so far. */
  onProgress?: (bytesRead: number) => void;
}

export const INVALID_JSON = 'The JSON file is not valid: it must be an array of strings or of objects.';
const MAX_ELEMENT_CHARS = 1024 * 1024;

function canonical(label: string, options: RowReaderOptions): string | undefined {
  const key = label.trim().toLowerCase();
  if (options.columns.includes(key)) return key;
  return options.aliases?.[key];
}

/** Source of text chunks with the BOM removed, counting the bytes read. */
async function* textChunks(file: string, options: RowReaderOptions): AsyncGenerator<string> {
  const stream = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  const decoder = new TextDecoder('utf-8');
  let read = 0;
  let first = true;
  for await (const buf of stream as AsyncIterable<Buffer>) {
    read += buf.length;
    let text = decoder.decode(buf, { stream: true });
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    options.onProgress?.(read);
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** ';' when the first line has more semicolons than commas (outside quotes), else ','. */
export function detectDelimiter(sample: string): ',' | ';' {
  const end = sample.search(/\r?\n/);
  const line = end === -1 ? sample : sample.slice(0, end);
  let commas = 0;
  let semis = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') commas += 1;
    else if (!quoted && ch === ';') semis += 1;
  }
  return semis > commas ? ';' : ',';
}

/** Splits one CSV record into fields (RFC 4180 quotes: `"a, ""b"""` → `a, "b"`). */
export function splitCsvRecord(record: string, delimiter: string): string[] {
  if (record.indexOf('"') === -1) return record.split(delimiter);
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < record.length; i++) {
    const ch = record[i]!;
    if (quoted) {
      if (ch === '"') {
        if (record[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

/**
 * Cuts streamed CSV text into records: a line break ends a record only when the quotes seen so far
 * are balanced, so quoted fields may hold line breaks. Holds at most one unfinished record.
 */
export class CsvSplitter {
  private buf = '';
  private delimiter: string | null = null;

  feed(chunk: string): string[][] {
    this.buf += chunk;
    this.delimiter ??= detectDelimiter(this.buf);
    const out: string[][] = [];
    let start = 0;
    let from = 0;
    for (;;) {
      const nl = this.buf.indexOf('\n', from);
      if (nl === -1) break;
      const candidate = this.buf.slice(start, nl);
      if (candidate.indexOf('"') !== -1 && (candidate.split('"').length - 1) % 2 === 1) {
        from = nl + 1;
        continue;
      }
      this.emit(candidate, out);
      start = nl + 1;
      from = start;
    }
    this.buf = this.buf.slice(start);
    if (this.buf.length > MAX_ELEMENT_CHARS) throw new HttpError(422, 'A CSV row is too long (an unclosed quote?).');
    return out;
  }

  finish(): string[][] {
    const out: string[][] = [];
    if (this.buf) this.emit(this.buf, out);
    this.buf = '';
    return out;
  }

  private emit(line: string, out: string[][]): void {
    const record = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (record.trim() === '') return;
    out.push(splitCsvRecord(record, this.delimiter ?? ','));
  }
}

async function* csvRecords(file: string, options: RowReaderOptions): AsyncGenerator<ImportRecord[]> {
  const splitter = new CsvSplitter();
  let columns: Array<string | undefined> | null = null;
  const toRecord = (cells: string[]): ImportRecord | null => {
    if (columns === null) {
      const mapped = cells.map((c) => canonical(c, options));
      if (mapped.some((c) => c !== undefined)) {
        columns = mapped;
        return null;
      }
      columns = options.columns;
    }
    const record: ImportRecord = {};
    for (let i = 0; i < cells.length; i++) {
      const col = columns[i];
      if (col && record[col] === undefined) record[col] = cells[i]!.trim();
    }
    return record;
  };
  const records = (rows: string[][]) => rows.map(toRecord).filter((r): r is ImportRecord => r !== null);
  for await (const chunk of textChunks(file, options)) yield records(splitter.feed(chunk));
  yield records(splitter.finish());
}

function jsonRecord(text: string, options: RowReaderOptions): ImportRecord {
  const main = options.columns[0]!;
  // Numbers keep their digits exactly (a 15-digit number is beyond a double's exact range).
  if (/^-?\d+$/.test(text)) return { [main]: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(422, INVALID_JSON);
  }
  if (typeof value === 'string' || typeof value === 'number') return { [main]: String(value).trim() };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record: ImportRecord = {};
    for (const [k, v] of Object.entries(value)) {
      const col = canonical(k, options);
      if (col && record[col] === undefined && (typeof v === 'string' || typeof v === 'number')) record[col] = String(v).trim();
    }
    return record;
  }
  return { [main]: text };
}

/**
 * Cuts a top-level JSON array into its elements as they stream in, holding at most one element,
 * so a file of a million entries is never held whole.
 */
export class JsonArrayScanner {
  private phase: 'start' | 'array' | 'end' = 'start';
  private depth = 0;
  private inString = false;
  private escape = false;
  private pending = '';
  private sawValue = false;

  feed(chunk: string): string[] {
    const out: string[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === '\\') this.escape = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (this.phase === 'start') {
        if (c === '[') {
          this.phase = 'array';
          start = i + 1;
        } else if (!/\s/.test(c)) throw new HttpError(422, INVALID_JSON);
        continue;
      }
      if (this.phase === 'end') {
        if (!/\s/.test(c)) throw new HttpError(422, INVALID_JSON);
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth += 1;
      else if ((c === '}' || c === ']') && this.depth > 0) this.depth -= 1;
      else if (this.depth === 0 && (c === ',' || c === ']')) {
        const text = (this.pending + chunk.slice(start, i)).trim();
        this.pending = '';
        if (text) out.push(text);
        else if (c === ',' || this.sawValue) throw new HttpError(422, INVALID_JSON);
        this.sawValue = true;
        start = i + 1;
        if (c === ']') this.phase = 'end';
      }
    }
    if (this.phase === 'array') {
      this.pending += chunk.slice(start);
      if (this.pending.length > MAX_ELEMENT_CHARS) throw new HttpError(422, INVALID_JSON);
    }
    return out;
  }

  finish(): void {
    if (this.phase !== 'end') throw new HttpError(422, INVALID_JSON);
  }
}

async function* jsonRecords(file: string, options: RowReaderOptions): AsyncGenerator<ImportRecord[]> {
  const scanner = new JsonArrayScanner();
  for await (const chunk of textChunks(file, options)) yield scanner.feed(chunk).map((element) => jsonRecord(element, options));
  scanner.finish();
}

/**
 * The rows of an uploaded `.csv` (header `number,name` or none; comma or semicolon; UTF-8 with or
 * without BOM; CRLF) or `.json` (array of strings or objects), in batches, streamed from disk.
 */
export async function* readImportRows(file: string, kind: 'csv' | 'json', options: RowReaderOptions): AsyncGenerator<ImportRecord[]> {
  const size = options.batchSize ?? 5000;
  let batch: ImportRecord[] = [];
  const source = kind === 'csv' ? csvRecords(file, options) : jsonRecords(file, options);
  for await (const records of source) {
    for (const record of records) {
      batch.push(record);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

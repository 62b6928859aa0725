import fs from 'node:fs';
import Papa from 'papaparse';
import Tokenizer from '@streamparser/json/tokenizer.js';
import TokenParser from '@streamparser/json/tokenparser.js';
import TokenType from '@streamparser/json/utils/types/tokenType.js';
import type { ParsedElementInfo } from '@streamparser/json/utils/types/parsedElementInfo.js';
import type { ParsedTokenInfo } from '@streamparser/json/utils/types/parsedTokenInfo.js';
import { HttpError } from './errors';
import { INVALID_JSON } from './json-array';

export { INVALID_JSON, JsonArrayScanner } from './json-array';

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
  /** Bytes read (and parsed in one synchronous step) at a time; 256 KiB unless told. */
  chunkBytes?: number;
}

/**
 * Longest unfinished row (CSV) or element (JSON) held while waiting for its end. Beyond it the
 * file is refused: this bounds memory and keeps reading linear, since an unfinished row is parsed
 * again with every chunk that extends it.
 */
export const MAX_ELEMENT_CHARS = 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;

export const unclosedQuote = (row: number) =>
  new HttpError(422, `File CSV tidak valid: tanda kutip (") di baris ke-${row} tidak ditutup, atau baris itu terlalu panjang.`);

/** Cells one CSV row may have: an import's rows have a few; a row of a million is not a contact list. */
export const MAX_COLUMNS = 1000; // named in tooManyColumns' message and its catalogue entry

export const tooManyColumns = (row: number) =>
  new HttpError(422, `File CSV tidak valid: baris ke-${row} punya lebih dari 1000 kolom.`);

/** A row longer than MAX_ELEMENT_CHARS with no quote in it: too long, not an unclosed quote. */
export const rowTooLong = (row: number) => new HttpError(422, `File CSV tidak valid: baris ke-${row} lebih panjang dari 1 MB.`);

/** More than MAX_COLUMNS delimiters (',' or ';') in `text`, counted without splitting it. */
function manyDelimiters(text: string): boolean {
  let n = 0;
  for (let i = text.indexOf(','); i !== -1 && n <= MAX_COLUMNS; i = text.indexOf(',', i + 1)) n += 1;
  for (let i = text.indexOf(';'); i !== -1 && n <= MAX_COLUMNS; i = text.indexOf(';', i + 1)) n += 1;
  return n > MAX_COLUMNS;
}

/**
 * The refusal for an unfinished row past MAX_ELEMENT_CHARS, named for what it is: an open quote, a row of
 * too many columns (a million unquoted cells), or a row simply too long.
 */
const overlong = (tail: string, row: number) => (tail.includes('"') ? unclosedQuote(row) : manyDelimiters(tail) ? tooManyColumns(row) : rowTooLong(row));

/**
 * A quoted cell with more text after its closing quote (`"Budi" Santoso`): the parser would read on to the
 * next quote and swallow the rows between into one cell, so the file is refused instead.
 */
export const misplacedQuote = (row: number) =>
  new HttpError(422, `File CSV tidak valid: tanda kutip (") di baris ke-${row} diikuti teks lain sebelum pemisah.`);

/** The refusal for a parse's first quote problem (rows counted from `before` + 1), or null. */
export function quoteProblem(errors: Array<{ code: string; row?: number }>, before = 0): HttpError | null {
  const bad = errors.find((e) => e.code === 'MissingQuotes' || e.code === 'InvalidQuotes');
  if (!bad) return null;
  const row = before + (bad.row ?? 0) + 1;
  return bad.code === 'InvalidQuotes' ? misplacedQuote(row) : unclosedQuote(row);
}

function canonical(label: string, options: RowReaderOptions): string | undefined {
  const key = label.trim().toLowerCase();
  if (options.columns.includes(key)) return key;
  return options.aliases?.[key];
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

interface PapaChunk {
  data: string[][];
  errors: Array<{ code: string; row?: number }>;
  meta: { cursor: number };
}

/**
 * Streams CSV text through papaparse's core parser, one chunk at a time. Only the unfinished last
 * row is carried to the next chunk, and it may not grow past MAX_ELEMENT_CHARS (an unclosed quote
 * would otherwise make every later chunk re-read the whole tail: quadratic time).
 */
export class CsvRecordReader {
  private parser: Papa.Parser | null = null;
  private tail = '';
  private rows = 0;

  feed(text: string): string[][] {
    if (!text) return [];
    const input = this.tail + text;
    if (!this.parser) {
      // Line breaks are '\n' (or CRLF) unless the file uses bare '\r'; undecided until one is seen.
      const newline = input.includes('\n') ? '\n' : input.indexOf('\r') >= 0 && input.indexOf('\r') < input.length - 1 ? '\r' : null;
      if (!newline) {
        this.tail = input;
        if (this.tail.length > MAX_ELEMENT_CHARS) throw overlong(this.tail, 1);
        return [];
      }
      this.parser = new Papa.Parser({ delimiter: detectDelimiter(input), newline });
    }
    const result = this.parser.parse(input, 0, true) as PapaChunk;
    // A problem in the held-back last row may be only the chunk's cut ('"\r' before its '\n'): it is read again.
    const misplaced = quoteProblem(result.errors.filter((e) => e.code === 'InvalidQuotes' && (e.row ?? 0) < result.data.length), this.rows);
    if (misplaced) throw misplaced;
    this.tail = input.slice(result.meta.cursor);
    const rows = this.clean(result.data);
    if (this.tail.length > MAX_ELEMENT_CHARS) throw overlong(this.tail, this.rows + 1);
    return rows;
  }

  finish(): string[][] {
    if (!this.tail) return [];
    this.parser ??= new Papa.Parser({ delimiter: detectDelimiter(this.tail), newline: '\n' });
    // A CRLF file cut off after its last '\r' ends its last row there.
    const result = this.parser.parse(this.tail.endsWith('\r') ? this.tail.slice(0, -1) : this.tail, 0, false) as PapaChunk;
    const bad = quoteProblem(result.errors, this.rows);
    if (bad) throw bad;
    this.tail = '';
    return this.clean(result.data);
  }

  private clean(data: string[][]): string[][] {
    const out: string[][] = [];
    for (const row of data) {
      this.rows += 1;
      if (row.length > MAX_COLUMNS) throw tooManyColumns(this.rows);
      // The parser splits on '\n'; a CRLF file leaves '\r' on the last cell.
      const last = row.length - 1;
      if (row[last]!.endsWith('\r')) row[last] = row[last]!.slice(0, -1);
      if (row.length === 1 && row[0]!.trim() === '') continue;
      out.push(row);
    }
    return out;
  }
}

/** Keeps the digits of a top-level number exactly (a long number is beyond a double's precision). */
class DigitsTokenizer extends Tokenizer {
  lastNumber = '';
  protected override parseNumber(text: string): number {
    this.lastNumber = text;
    return Number(text);
  }
}

/**
 * Streams a top-level JSON array through @streamparser/json, handing over its elements as they
 * complete; emitted elements are not kept, so memory stays flat whatever the file's length.
 */
export class JsonRecordReader {
  // Strings gathered in a byte buffer: about a quarter faster than growing JavaScript strings.
  private readonly tokenizer = new DigitsTokenizer({ stringBufferSize: 64 * 1024 });
  private readonly parser = new TokenParser({ paths: ['$.*'], keepStack: false });
  private out: ImportRecord[] = [];
  private started = false;
  private written = 0;
  private lastTokenEnd = 0;

  constructor(private readonly options: RowReaderOptions) {
    this.tokenizer.onToken = (token: ParsedTokenInfo) => {
      if (!this.started) {
        if (token.token !== TokenType.LEFT_BRACKET) throw new HttpError(422, INVALID_JSON);
        this.started = true;
      }
      this.lastTokenEnd = this.written;
      this.parser.write(token);
    };
    this.tokenizer.onError = () => {
      throw new HttpError(422, INVALID_JSON);
    };
    this.parser.onError = () => {
      throw new HttpError(422, INVALID_JSON);
    };
    this.parser.onValue = (info: ParsedElementInfo) => {
      if (info.stack.length === 1) this.out.push(this.record(info.value));
    };
  }

  feed(bytes: Uint8Array): ImportRecord[] {
    this.written += bytes.length;
    this.tokenizer.write(bytes);
    if (this.written - this.lastTokenEnd > MAX_ELEMENT_CHARS) throw new HttpError(422, INVALID_JSON);
    const out = this.out;
    this.out = [];
    return out;
  }

  finish(): ImportRecord[] {
    if (!this.tokenizer.isEnded) this.tokenizer.end();
    if (!this.started || !this.parser.isEnded) throw new HttpError(422, INVALID_JSON);
    return this.out;
  }

  private record(value: ParsedElementInfo['value']): ImportRecord {
    const main = this.options.columns[0]!;
    if (typeof value === 'number') return { [main]: /^-?\d+$/.test(this.tokenizer.lastNumber) ? this.tokenizer.lastNumber : String(value) };
    if (typeof value === 'string') return { [main]: value.trim() };
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const record: ImportRecord = {};
      for (const [k, v] of Object.entries(value)) {
        const col = canonical(k, this.options);
        if (col && record[col] === undefined && (typeof v === 'string' || typeof v === 'number')) record[col] = String(v).trim();
      }
      return record;
    }
    return { [main]: value === undefined ? '' : JSON.stringify(value) };
  }
}

/** The file's bytes in chunks, counting the bytes read. */
async function* byteChunks(file: string, options: RowReaderOptions): AsyncGenerator<Buffer> {
  let read = 0;
  for await (const buf of fs.createReadStream(file, { highWaterMark: options.chunkBytes ?? CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    read += buf.length;
    options.onProgress?.(read);
    yield buf;
  }
}

/**
 * The text encoding a file's first bytes announce: a UTF-16 byte-order mark (Excel's "Unicode text" and
 * many Windows tools write one), else UTF-8. Read as UTF-8, a UTF-16 file has a NUL after every letter
 * and no number is found in it: the import answered "0 rows".
 */
export function encodingOf(first: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (first[0] === 0xff && first[1] === 0xfe) return 'utf-16le';
  if (first[0] === 0xfe && first[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

async function* csvRecords(file: string, options: RowReaderOptions): AsyncGenerator<ImportRecord[]> {
  const reader = new CsvRecordReader();
  let decoder: TextDecoder | null = null;
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
  let first = true;
  for await (const buf of byteChunks(file, options)) {
    // TextDecoder drops a leading BOM itself.
    decoder ??= new TextDecoder(encodingOf(buf));
    const text = decoder.decode(buf, { stream: true });
    first = false;
    yield records(reader.feed(text));
  }
  if (!first && decoder) yield records(reader.feed(decoder.decode()));
  yield records(reader.finish());
}

async function* jsonRecords(file: string, options: RowReaderOptions): AsyncGenerator<ImportRecord[]> {
  const reader = new JsonRecordReader(options);
  // The JSON reader takes UTF-8 bytes: a UTF-16 file is decoded and encoded again as it streams.
  let utf16: TextDecoder | null | undefined;
  const encoder = new TextEncoder();
  for await (const buf of byteChunks(file, options)) {
    if (utf16 === undefined) utf16 = encodingOf(buf) === 'utf-8' ? null : new TextDecoder(encodingOf(buf));
    yield reader.feed(utf16 ? encoder.encode(utf16.decode(buf, { stream: true })) : buf);
  }
  if (utf16) yield reader.feed(encoder.encode(utf16.decode()));
  yield reader.finish();
}

/**
 * The rows of an uploaded `.csv` (header `number,name` or none; comma or semicolon; UTF-8 with or
 * without BOM, or UTF-16 with its BOM; CRLF) or `.json` (array of strings or objects), in batches, streamed from disk in
 * time linear in the file.
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

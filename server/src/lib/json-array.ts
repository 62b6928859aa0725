import { HttpError } from './errors';

export const INVALID_JSON = 'The JSON file is not valid: it must be an array of strings or of objects.';
const MAX_ELEMENT_CHARS = 1024 * 1024;

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

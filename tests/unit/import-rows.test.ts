import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectDelimiter, JsonArrayScanner, readImportRows, type ImportRecord } from '../../server/src/lib/rows';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rows-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function rows(content: string | Buffer, kind: 'csv' | 'json'): Promise<ImportRecord[]> {
  const file = path.join(dir, `f${Math.random()}.${kind}`);
  fs.writeFileSync(file, content);
  const out: ImportRecord[] = [];
  for await (const batch of readImportRows(file, kind, { columns: ['number', 'name'], aliases: { nama: 'name', nomor: 'number' }, batchSize: 2 })) {
    out.push(...batch);
  }
  return out;
}

describe('JsonArrayScanner', () => {
  it('cuts elements split across any chunk boundary, with strings holding commas and brackets', () => {
    const text = '[ "0812,1", {"number":"0813","name":"A [x], {y}"}, 6281234567890 ,"q\\"uote"]';
    for (let cut = 1; cut < text.length; cut++) {
      const s = new JsonArrayScanner();
      const parts = [...s.feed(text.slice(0, cut)), ...s.feed(text.slice(cut))];
      s.finish();
      expect(parts).toEqual(['"0812,1"', '{"number":"0813","name":"A [x], {y}"}', '6281234567890', '"q\\"uote"']);
    }
  });

  it('refuses what is not one array', () => {
    for (const bad of ['{"a":1}', '[1,,2]', '[1,]', '[1] x', '[1, 2']) {
      const s = new JsonArrayScanner();
      expect(() => {
        s.feed(bad);
        s.finish();
      }).toThrow(/not valid/);
    }
    const empty = new JsonArrayScanner();
    expect(empty.feed(' [ ] ')).toEqual([]);
    expect(() => empty.finish()).not.toThrow();
  });
});

describe('readImportRows', () => {
  it('reads CSV with a header, BOM, CRLF, quotes and semicolons', async () => {
    expect(await rows('\uFEFFnumber;name\r\n0812 1111 2222;"Budi; Jr"\r\n\r\n0813;Siti\r\n', 'csv')).toEqual([
      { number: '0812 1111 2222', name: 'Budi; Jr' },
      { number: '0813', name: 'Siti' },
    ]);
  });

  it('reads CSV without a header, columns by position, and a header in another order', async () => {
    expect(await rows('081211112222,Budi\n081311112222\n', 'csv')).toEqual([{ number: '081211112222', name: 'Budi' }, { number: '081311112222' }]);
    expect(await rows('Nama,Nomor\nBudi,0812\n', 'csv')).toEqual([{ name: 'Budi', number: '0812' }]);
  });

  it('reads JSON arrays of strings, numbers and objects with aliases', async () => {
    expect(await rows('\uFEFF["0812", 6281234567890123, {"nomor": "0813", "nama": "Siti"}, {"number": "0814"}]', 'json')).toEqual([
      { number: '0812' },
      { number: '6281234567890123' },
      { number: '0813', name: 'Siti' },
      { number: '0814' },
    ]);
  });

  it('detects the delimiter from the first line', () => {
    expect(detectDelimiter('a;b;c\n1,2')).toBe(';');
    expect(detectDelimiter('"a;b",c\n')).toBe(',');
    expect(detectDelimiter('0812')).toBe(',');
  });
});

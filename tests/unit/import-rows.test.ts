import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvRecordReader, detectDelimiter, JsonArrayScanner, readImportRows, type ImportRecord } from '../../server/src/lib/rows';

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

describe('streaming readers', () => {
  it('cuts CSV records split across any chunk boundary, quotes and line breaks inside quotes included', () => {
    const text = 'number,name\r\n0812,"Budi, ""Jr""\r\nKedua"\r\n0813,Siti\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const r = new CsvRecordReader();
      expect([...r.feed(text.slice(0, cut)), ...r.feed(text.slice(cut)), ...r.finish()]).toEqual([
        ['number', 'name'],
        ['0812', 'Budi, "Jr"\r\nKedua'],
        ['0813', 'Siti'],
      ]);
    }
  });

  it('refuses an unclosed quote in time linear in the file, naming the row', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `0812${String(i).padStart(8, '0')},Nama ${i}`);
    // About 1 MB after the quote, then 1 MB more: the old splitter took seconds here.
    const t0 = performance.now();
    await expect(rows(`${lines.slice(0, 9).join('\n')}\n"0813,x\n${lines.join('\n')}\n${lines.join('\n')}`, 'csv')).rejects.toThrow(
      'tanda kutip (") di baris ke-10 tidak ditutup',
    );
    // An unclosed quote in the last rows is refused too rather than swallowing the rest of the file.
    await expect(rows(`${lines.slice(0, 3).join('\n')}\n0813,"x\n0814,y\n`, 'csv')).rejects.toThrow('baris ke-4');
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('refuses a quoted cell with text after its closing quote instead of swallowing the rows after it', async () => {
    const file = 'number,name\n081234567921,"Budi" Santoso\n081234567922,Ani\n081234567923,Citra\n081234567924,"Dedi"\n081234567925,Eko\n';
    await expect(rows(file, 'csv')).rejects.toThrow('File CSV tidak valid: tanda kutip (") di baris ke-2 diikuti teks lain sebelum pemisah.');
    // Wherever the chunks are cut (the reader's own chunks of 16 bytes here).
    const cut = new CsvRecordReader();
    expect(() => {
      for (let i = 0; i < file.length; i += 16) cut.feed(file.slice(i, i + 16));
      cut.finish();
    }).toThrow('diikuti teks lain');
    // Properly quoted cells, escaped quotes and quotes inside an unquoted cell are read as before.
    expect(await rows('number,name\n0812,"Budi ""Jr"" Santoso"\n0813,Ani "A" B\n', 'csv')).toEqual([
      { number: '0812', name: 'Budi "Jr" Santoso' },
      { number: '0813', name: 'Ani "A" B' },
    ]);
  });

  it('refuses JSON that is not one array, and keeps long numbers exact', async () => {
    for (const bad of ['{"number":"0812"}', '[1,,2]', '[1,]', '[1] x', '[1, 2', '"0812"', '']) {
      await expect(rows(bad, 'json'), bad).rejects.toThrow(/must be an array/);
    }
    const long = `Nama ${'é😀'.repeat(150_000)}`;
    expect(await rows(JSON.stringify([{ number: '0812', name: long }]), 'json')).toEqual([{ number: '0812', name: long }]);
    expect(await rows('[62812345678901234567, 1.5e3, true, [1]]', 'json')).toEqual([
      { number: '62812345678901234567' },
      { number: '1500' },
      { number: 'true' },
      { number: '[1]' },
    ]);
  });
});

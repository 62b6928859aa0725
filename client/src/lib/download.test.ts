import { describe, expect, it } from 'vitest';
import { csvText } from './download';

describe('csvText: what a CSV download holds', () => {
  it('quotes a cell with ";" so a spreadsheet with the Indonesian list separator keeps it whole', async () => {
    const text = await csvText([{ number: '6281234567890', name: 'x;=2+5' }], ['number', 'name']);
    expect(text.split('\r\n')[1]).toBe('6281234567890,"x;=2+5"');
  });

  it('puts a quote before a cell a spreadsheet would read as a formula', async () => {
    const text = await csvText([{ number: '6281234567890', name: '=HYPERLINK("x")' }], ['number', 'name']);
    expect(text.split('\r\n')[1]).toBe(`6281234567890,"'=HYPERLINK(""x"")"`);
  });
});

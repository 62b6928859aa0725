import { describe, expect, it } from 'vitest';
import { NumberSet } from '../../server/src/phonenumbers/number-set';

describe('NumberSet', () => {
  it('answers whether a number was new, across growth, for 15-digit numbers and other strings', () => {
    const set = new NumberSet();
    const n = 200_000;
    for (let i = 0; i < n; i++) expect(set.add(`62812${String(i * 7919).padStart(10, '0')}`)).toBe(true);
    for (let i = 0; i < n; i += 997) expect(set.add(`62812${String(i * 7919).padStart(10, '0')}`)).toBe(false);
    expect(set.add('999999999999999')).toBe(true);
    expect(set.add('999999999999999')).toBe(false);
    expect(set.add('0')).toBe(true);
    expect(set.add('0')).toBe(false);
    // Not a stored number (too long, not digits): kept apart, still exact.
    expect(set.add('1234567890123456')).toBe(true);
    expect(set.add('1234567890123457')).toBe(true);
    expect(set.add('1234567890123456')).toBe(false);
    expect(set.add('abc')).toBe(true);
    expect(set.add('abc')).toBe(false);
  });
});

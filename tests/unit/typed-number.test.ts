import { describe, expect, it } from 'vitest';
import { readTypedNumber } from '../../common/typed-number';

describe('numbers as typed on the console', () => {
  it("reads thousands grouped by '.' or ',' as thousands, as the console writes them", () => {
    expect(readTypedNumber('10.000')).toBe('10000');
    expect(readTypedNumber('1.000.000')).toBe('1000000');
    expect(readTypedNumber(' 5.000 ')).toBe('5000');
    expect(readTypedNumber('10,000')).toBe('10000');
    expect(readTypedNumber('1,000,000')).toBe('1000000');
    expect(readTypedNumber('-1.000')).toBe('-1000');
    expect(readTypedNumber('+10.000')).toBe('+10000');
    expect(readTypedNumber('+12,000')).toBe('+12000');
    expect(readTypedNumber('1 000 000')).toBe('1000000');
  });

  it('keeps a fraction a fraction (for the field to refuse), in either writing', () => {
    expect(readTypedNumber('1.000,5')).toBe('1000.5');
    expect(readTypedNumber('1,000.5')).toBe('1000.5');
    expect(readTypedNumber('10,5')).toBe('10.5');
    expect(readTypedNumber('20000.5')).toBe('20000.5');
    expect(readTypedNumber('1.5')).toBe('1.5');
    // A first group starting with 0 is not thousands: '0.500' and '0,500' are a half, refused as such.
    expect(readTypedNumber('0.500')).toBe('0.500');
    expect(readTypedNumber('0,500')).toBe('0.500');
    expect(readTypedNumber('00.000')).toBe('00.000');
  });

  it('leaves plain digits and anything else as it is', () => {
    expect(readTypedNumber('15000')).toBe('15000');
    expect(readTypedNumber('')).toBe('');
    expect(readTypedNumber(undefined)).toBe('');
    expect(readTypedNumber('10.00')).toBe('10.00');
    expect(readTypedNumber('abc')).toBe('abc');
  });
});

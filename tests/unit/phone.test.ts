import { describe, expect, it } from 'vitest';
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { INVALID_NUMBER, isSupportedCountry, normalizePhone, normalizePhoneUncached, phoneOrNull, phoneSearchText, supportedCountries } from '../../common/phone';
import { PHONE_COUNTRIES } from '../../common/phone-countries';
import { planShape } from '../../common/phone-plan';

const ok = (number: string, lineType: string) => ({ ok: true, number, lineType });

describe('the settings’ country list', () => {
  it('is the list of countries the library knows', () => {
    expect([...PHONE_COUNTRIES]).toEqual(supportedCountries());
  });
});

describe('normalizePhone against the library’s own example numbers', () => {
  // ID and MY are memoised (their plans are analysed); GB rewrites numbers and is always asked afresh.
  it.each(['ID', 'MY', 'GB'] as CountryCode[])('%s: national, international and zero-dropped forms', (country) => {
    const example = getExampleNumber(country, examples);
    expect(example).toBeDefined();
    if (!example) return;
    const stored = example.number.slice(1);
    expect(normalizePhone(example.formatNational(), country)).toEqual(ok(stored, 'mobile'));
    expect(normalizePhone(example.formatInternational(), country)).toEqual(ok(stored, 'mobile'));
    expect(normalizePhone(example.formatInternational(), 'ID')).toEqual(ok(stored, 'mobile'));
    expect(normalizePhone(example.nationalNumber, country)).toEqual(ok(stored, 'mobile'));
    expect(normalizePhone(stored, country)).toEqual(ok(stored, 'mobile'));
    // One digit short is not a number of that plan.
    const short = normalizePhone(example.formatNational().replace(/\d(?=\D*$)/, ''), country);
    expect(short.ok).toBe(false);
    expect(planShape(example.countryCallingCode) === null).toBe(country === 'GB');
  });
});

describe('normalizePhone (default country ID)', () => {
  it.each([
    ['081234567890', '6281234567890', 'mobile'],
    ['812-3456-7890', '6281234567890', 'mobile'],
    ['81234567890', '6281234567890', 'mobile'],
    ['+62 812-3456-7890', '6281234567890', 'mobile'],
    ['62.812.3456.7890', '6281234567890', 'mobile'],
    ['(0812) 3456-7890', '6281234567890', 'mobile'],
    ['  6281234567890  ', '6281234567890', 'mobile'],
    ['0062 812 3456 7890', '6281234567890', 'mobile'],
    ['021 1234 5678', '622112345678', 'fixed_line'],
    ['+1 (415) 555-0100', '14155550100', 'other'],
    [6281234567890, '6281234567890', 'mobile'],
  ])('%s → %s (%s)', (input, expected, lineType) => {
    expect(normalizePhone(input)).toEqual(ok(expected, lineType));
  });

  it.each([
    ['', 'wajib'],
    ['   ', 'wajib'],
    ['62812abc567', 'hanya boleh'],
    ['62812#4567', 'hanya boleh'],
    ['++6281234567', 'hanya boleh'],
    ['6281', 'tidak valid'],
    ['08123456', 'tidak valid'],
    ['0804 1234', 'tidak valid'],
    ['6281234567890123456', 'tidak valid'],
  ])('%s is refused with a reason', (input, message) => {
    const r = normalizePhone(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe(INVALID_NUMBER);
      expect(r.message).toContain(message);
    }
  });

  it('refuses values that are not text and reads bare numbers with the given country', () => {
    expect(INVALID_NUMBER).toBe('nomor tidak valid');
    expect(normalizePhone(null).ok).toBe(false);
    expect(normalizePhone({ number: '0812' }).ok).toBe(false);
    expect(phoneOrNull('0812-3456-789')).toBe('628123456789');
    expect(phoneOrNull('abc')).toBeNull();
    // The same digits are Malaysian under MY and Indonesian under ID.
    expect(phoneOrNull('0123456789', 'MY')).toBe('60123456789');
    expect(phoneOrNull('0123456789', 'ID')).toBeNull();
    expect(isSupportedCountry('ID')).toBe(true);
    expect(isSupportedCountry('XX')).toBe(false);
  });
});

describe('the memo gives the library’s own answer', () => {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  const digits = (n: number) => Array.from({ length: n }, () => rnd(10)).join('');

  it.each(['ID', 'MY', 'SG', 'IN', 'US', 'DE'] as CountryCode[])('%s: random national, prefixed and international numbers', (country) => {
    const cc = parsePhoneNumberFromString(getExampleNumber(country, examples)?.number ?? '+62')?.countryCallingCode ?? '62';
    let valid = 0;
    for (let i = 0; i < 6000; i++) {
      const len = 5 + rnd(12);
      const form = rnd(4);
      const input = form === 0 ? `0${digits(len)}` : form === 1 ? `${cc}${digits(len)}` : form === 2 ? `+${digits(len)}` : digits(len);
      const memo = normalizePhone(input, country);
      expect(memo).toEqual(normalizePhoneUncached(input, country));
      if (memo.ok) valid++;
    }
    expect(valid).toBeGreaterThan(100);
  });
});

describe('phoneSearchText', () => {
  it('turns a locally written number into the stored form and leaves names alone', () => {
    expect(phoneSearchText('0812 345')).toBe('62812345');
    expect(phoneSearchText('+62 812')).toBe('62812');
    expect(phoneSearchText('4567')).toBe('4567');
    expect(phoneSearchText(' Budi ')).toBe('Budi');
    expect(phoneSearchText('Budi 08')).toBe('Budi 08');
    expect(phoneSearchText('012 345', 'MY')).toBe('6012345');
  });
});

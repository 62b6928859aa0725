import { i18n } from '../providers/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, formatRupiah } from './format';

describe('numbers follow the screen’s language', () => {
  const start = i18n.language;
  afterEach(async () => {
    await i18n.changeLanguage(start);
  });

  it('groups thousands with a dot in Indonesian and a comma in English', () => {
    expect(formatCount(1150, 'id')).toBe('1.150');
    expect(formatCount(1150, 'en')).toBe('1,150');
    expect(formatCount(1234567, 'en')).toBe('1,234,567');
    expect(formatRupiah(10000)).toMatch(/^Rp 10[.,]000$/);
  });

  it('reads the active language when none is given', async () => {
    await i18n.changeLanguage('en');
    expect(formatCount(1150)).toBe('1,150');
    expect(formatRupiah(10000)).toBe('Rp 10,000');
    await i18n.changeLanguage('id');
    expect(formatCount(1150)).toBe('1.150');
    expect(formatRupiah(10000)).toBe('Rp 10.000');
  });

  it('keeps whole numbers and counts missing values as 0', () => {
    expect(formatCount(1149.6, 'en')).toBe('1,150');
    expect(formatCount('2500', 'id')).toBe('2.500');
    expect(formatCount(null, 'en')).toBe('0');
    expect(formatCount('abc', 'id')).toBe('0');
  });
});

import { describe, expect, it } from 'vitest';
import { normalizePhone, phoneOrNull, phoneSearchText } from '../../common/phone';

describe('normalizePhone', () => {
  it.each([
    ['081234567890', '6281234567890'],
    ['+62 812-3456-7890', '6281234567890'],
    ['62.812.3456.7890', '6281234567890'],
    ['0812 3456 7890', '6281234567890'],
    ['(0812) 3456-7890', '6281234567890'],
    ['6281234567890', '6281234567890'],
    ['  6281234567890  ', '6281234567890'],
    ['+1 (415) 555-0100', '14155550100'],
    ['0062 812 3456 7890', '6281234567890'],
    ['08123456', '628123456'],
    [6281234567890, '6281234567890'],
  ])('%s → %s', (input, expected) => {
    expect(normalizePhone(input)).toEqual({ ok: true, number: expected });
  });

  it.each([
    ['', 'wajib'],
    ['   ', 'wajib'],
    ['0212345678', 'diawali 08'],
    ['62812abc567', 'hanya boleh'],
    ['62812#4567', 'hanya boleh'],
    ['6281', '8–15 digit'],
    ['1234567', '8–15 digit'],
    ['6281234567890123', '8–15 digit'],
    ['++6281234567', 'hanya boleh'],
  ])('%s is refused with a reason', (input, message) => {
    const r = normalizePhone(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe('invalid number');
      expect(r.message).toContain(message);
    }
  });

  it('refuses values that are not text', () => {
    expect(normalizePhone(null).ok).toBe(false);
    expect(normalizePhone({ number: '0812' }).ok).toBe(false);
    expect(phoneOrNull('0812-3456-789')).toBe('628123456789');
    expect(phoneOrNull('abc')).toBeNull();
  });
});

describe('phoneSearchText', () => {
  it('turns a locally written number into the stored form and leaves names alone', () => {
    expect(phoneSearchText('0812 345')).toBe('62812345');
    expect(phoneSearchText('+62 812')).toBe('62812');
    expect(phoneSearchText('4567')).toBe('4567');
    expect(phoneSearchText(' Budi ')).toBe('Budi');
    expect(phoneSearchText('Budi 08')).toBe('Budi 08');
  });
});

// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n, i18nProvider, loadLocaleAreas } from '../../../providers/i18n';
import { phoneProblem } from './phoneRules';

beforeAll(() => loadLocaleAreas(['errors']));
afterAll(() => i18nProvider.changeLocale('id'));

describe('phoneProblem: why a number would be refused, in the language of the screen', () => {
  it('is null for a valid number, whether national or international', async () => {
    expect(await phoneProblem('0812-3456-7890', 'ID')).toBeNull();
    expect(await phoneProblem('6281234567890', 'ID')).toBeNull();
    expect(await phoneProblem('+1 415 555 2671', 'ID')).toBeNull();
  });

  it("gives the server's words in Indonesian, with the field's label when the server puts one", async () => {
    expect(await phoneProblem('0812abc', 'ID')).toBe('Nomor telepon hanya boleh berisi angka, spasi, titik, tanda minus atau + di depan.');
    expect(await phoneProblem('12', 'ID', 'Target Nomor Awal')).toBe(
      'Target Nomor Awal: Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).',
    );
  });

  it('speaks English on an English screen', async () => {
    await i18nProvider.changeLocale('en');
    expect(i18n.language).toBe('en');
    expect(await phoneProblem('0812abc', 'ID')).toBe('A phone number may contain only digits, spaces, dots, hyphens or a leading +.');
    expect(await phoneProblem('12', 'ID', 'Target Nomor Awal')).toBe(
      'Start Number: The phone number is not valid for its country (check the country code and the number of digits).',
    );
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, i18nProvider, loadConsoleLocales } from '../../client/src/providers/i18n';

const LOCALES = path.resolve(__dirname, '../../client/src/locales');

beforeAll(async () => {
  await loadConsoleLocales();
});

afterEach(async () => {
  await i18nProvider.changeLocale('id');
});

describe('counted texts', () => {
  it('use the singular for one and the plural otherwise in English', async () => {
    await i18nProvider.changeLocale('en');
    expect(i18n.t('proxy.registered', { count: 1 })).toBe('1 proxy registered.');
    expect(i18n.t('proxy.registered', { count: 2 })).toBe('2 proxies registered.');
    expect(i18n.t('proxy.more', { count: 1 })).toBe('...1 proxy in all. Download the file for the full list.');
    expect(i18n.t('message.saved', { count: 1 })).toBe('1 template saved.');
    expect(i18n.t('message.saved', { count: 0 })).toBe('0 templates saved.');
    expect(i18n.t('shared.usedTimes', { count: 1 })).toBe('1 time');
    expect(i18n.t('shared.usedTimes', { count: 7 })).toBe('7 times');
    expect(i18n.t('phonenumber.registered', { total: '1', count: 1 })).toBe('1 number registered in all.');
    expect(i18n.t('phonenumber.registered', { total: '1.200', count: 1200 })).toBe('1.200 numbers registered in all.');
    expect(i18n.t('phonenumber.more', { total: '1', count: 1 })).toBe('...1 number in all. Download the file for the full list.');
    expect(i18n.t('phonenumber.progress.saving', { rows: '1', count: 1 })).toBe('Saving 1 row...');
    expect(i18n.t('phonenumber.progress.reading', { rows: '2.000', count: 2000 })).toBe('Processing 2.000 rows...');
    expect(i18n.t('whatsapp.create.scanQr', { count: 1 })).toMatch(/Valid for 1 second$/);
    expect(i18n.t('whatsapp.create.preparingCode', { count: 15 })).toMatch(/15 seconds$/);
  });

  it('keep one form in Indonesian, which has no plurals', () => {
    expect(i18n.t('proxy.registered', { count: 1 })).toBe('1 proxy berhasil didaftarkan.');
    expect(i18n.t('shared.usedTimes', { count: 1 })).toBe('1 kali');
    expect(i18n.t('phonenumber.registered', { total: '1', count: 1 })).toBe('Total 1 nomor, berhasil didaftarkan.');
    expect(i18n.t('whatsapp.create.scanQr', { count: 60 })).toMatch(/Berlaku 60 detik$/);
  });

  it('leave no English count text without its singular form', () => {
    for (const file of fs.readdirSync(path.join(LOCALES, 'en'))) {
      const walk = (tree: Record<string, unknown>, prefix: string) => {
        for (const [key, value] of Object.entries(tree)) {
          if (typeof value === 'object' && value) walk(value as Record<string, unknown>, `${prefix}${key}.`);
          else if (typeof value === 'string' && value.includes('{{count}}') && !/_(one|other)$/.test(key)) {
            throw new Error(`en/${file} ${prefix}${key} counts without plural forms`);
          }
          if (key.endsWith('_one')) expect(tree[key.replace(/_one$/, '_other')], `${file} ${prefix}${key}`).toBeTypeOf('string');
        }
      };
      walk(JSON.parse(fs.readFileSync(path.join(LOCALES, 'en', file), 'utf8')) as Record<string, unknown>, '');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { buildResources, i18nProvider } from '../../client/src/providers/i18n';

describe('i18n provider', () => {
  it('files each locale file under its language and area', () => {
    const r = buildResources({
      '../locales/id/proxy.json': { title: 'Daftar Proxy' },
      '../locales/en/proxy.json': { title: 'Proxies' },
      'not-a-locale.json': { x: 1 },
    });
    expect(r).toEqual({ id: { translation: { proxy: { title: 'Daftar Proxy' } } }, en: { translation: { proxy: { title: 'Proxies' } } } });
  });

  it('speaks Indonesian by default and switches to English', async () => {
    expect(i18nProvider.getLocale()).toBe('id');
    expect(i18nProvider.translate('common.language')).toBe('Bahasa');
    await i18nProvider.changeLocale('en');
    expect(i18nProvider.translate('common.language')).toBe('Language');
    await i18nProvider.changeLocale('xx');
    expect(i18nProvider.getLocale()).toBe('en');
    await i18nProvider.changeLocale('id');
  });

  it('falls back to the default message, then the key', () => {
    expect(i18nProvider.translate('nowhere.key', undefined, 'Bawaan')).toBe('Bawaan');
    expect(i18nProvider.translate('nowhere.key', 'Bawaan')).toBe('Bawaan');
    expect(i18nProvider.translate('nowhere.key')).toBe('nowhere.key');
  });
});

describe('console texts', () => {
  it('load with the console, in both languages', async () => {
    const { i18n, loadConsoleLocales } = await import('../../client/src/providers/i18n');
    expect(i18n.exists('proxy.title', { lng: 'id' })).toBe(false);
    await loadConsoleLocales();
    expect(i18n.exists('proxy.title', { lng: 'id' })).toBe(true);
    expect(i18n.exists('proxy.title', { lng: 'en' })).toBe(true);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { buildResources, i18n as shared, i18nProvider } from '../../client/src/providers/i18n';

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
    // English is not in the entry: it downloads when chosen, before the switch.
    expect(shared.getResource('en', 'translation', 'common.language')).toBeUndefined();
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
  it('load with the console in the current language; English loads only when chosen', async () => {
    const { i18n, i18nProvider: provider, loadConsoleLocales, antdLocale } = await import('../../client/src/providers/i18n');
    expect(i18n.exists('proxy.title', { lng: 'id' })).toBe(false);
    await loadConsoleLocales();
    expect(i18n.exists('proxy.title', { lng: 'id' })).toBe(true);
    expect(i18n.getResource('en', 'translation', 'proxy.title')).toBeUndefined();
    expect(i18n.getResource('en', 'translation', 'common.language')).toBe('Language'); // chosen once above
    await provider.changeLocale('en');
    expect(provider.translate('proxy.title')).toBe(i18n.getResource('en', 'translation', 'proxy.title'));
    expect(i18n.getResource('en', 'translation', 'proxy.title')).toBeTypeOf('string');
    expect(antdLocale('en')?.locale).toBe('en');
    expect(antdLocale('id')?.locale).toBe('id');
    await provider.changeLocale('id');
  });
});

describe('a remembered English', () => {
  it('is loaded before the first render', async () => {
    vi.resetModules();
    vi.stubGlobal('localStorage', { getItem: (k: string) => (k === 'lang' ? 'en' : null), setItem: () => undefined });
    try {
      const { i18n, localeReady, antdLocale } = await import('../../client/src/providers/i18n');
      expect(i18n.language).toBe('id');
      await localeReady;
      expect(i18n.language).toBe('en');
      expect(i18n.t('common.language')).toBe('Language');
      expect(antdLocale('en')?.locale).toBe('en');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

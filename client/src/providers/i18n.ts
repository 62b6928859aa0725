import type { I18nProvider } from '@refinedev/core';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The console's languages; Indonesian is the default and carries the spec's labels word for word. */
export const LOCALES = ['id', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'id';
const STORAGE_KEY = 'lang';

type Messages = Record<string, unknown>;

/**
 * One JSON file per language and area: `locales/{lang}/{area}.json`. Each file's keys live under its
 * area, so `locales/id/proxy.json` with `{ "title": "Daftar Proxy" }` is `t('proxy.title')`.
 */
const shellFiles = import.meta.glob<Messages>('../locales/*/{common,layout,auth,misc,errors}.json', { eager: true, import: 'default' });
/** The screens' areas load with the console, so the public pages download only the shell's texts. */
const consoleFiles = import.meta.glob<Messages>(['../locales/*/*.json', '!../locales/*/{common,layout,auth,misc,errors}.json'], { import: 'default' });

export function buildResources(modules: Record<string, Messages>): Record<string, { translation: Messages }> {
  const out: Record<string, { translation: Messages }> = {};
  for (const [path, messages] of Object.entries(modules)) {
    const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!m) continue;
    const [, lang, area] = m as unknown as [string, string, string];
    (out[lang] ??= { translation: {} }).translation[area] = messages;
  }
  return out;
}

function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

export function storedLocale(): Locale {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLocale(v) ? v : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

void i18n.use(initReactI18next).init({
  resources: buildResources(shellFiles),
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  // Labels contain ':' and '.' in their text, never in keys; spec placeholders use single braces.
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };

let consoleLoaded: Promise<void> | null = null;

/** Adds every screen's texts, in both languages; the console awaits it before its first render. */
export function loadConsoleLocales(): Promise<void> {
  consoleLoaded ??= Promise.all(Object.entries(consoleFiles).map(async ([path, load]) => [path, await load()] as const)).then((loaded) => {
    for (const [lang, bundle] of Object.entries(buildResources(Object.fromEntries(loaded)))) {
      i18n.addResourceBundle(lang, 'translation', bundle.translation, true, true);
    }
  });
  return consoleLoaded;
}

export const i18nProvider: I18nProvider = {
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    // Refine calls translate(key, defaultMessage) as well as translate(key, options, defaultMessage).
    if (typeof options === 'string') return i18n.t(key, { defaultValue: options });
    const opts = (options && typeof options === 'object' ? options : {}) as Record<string, unknown>;
    return i18n.t(key, { ...opts, defaultValue: defaultMessage ?? (opts.defaultValue as string | undefined) ?? key });
  },
  changeLocale: async (lang: string) => {
    if (!isLocale(lang)) return;
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, lang);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    await i18n.changeLanguage(lang);
  },
  getLocale: () => i18n.language,
};

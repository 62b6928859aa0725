import type { I18nProvider } from '@refinedev/core';
import type { Locale as AntdLocale } from 'antd/es/locale';
import idID from 'antd/es/locale/id_ID';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The console's languages; Indonesian is the default and carries the spec's labels word for word. */
export const LOCALES = ['id', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'id';
const STORAGE_KEY = 'lang';

type Messages = Record<string, unknown>;

/**
 * The areas the public pages (sign-in, sign-up, static pages) need; the server errors' texts load with
 * the first error answer (lib/http.ts), the others with the console.
 */
const SHELL_AREAS = ['common', 'layout', 'auth', 'misc'];

/**
 * One JSON file per language and area: `locales/{lang}/{area}.json`. Each file's keys live under its
 * area, so `locales/id/proxy.json` with `{ "title": "Daftar Proxy" }` is `t('proxy.title')`. Only the
 * default language's shell texts are in the entry; English and the screens' texts load when needed.
 */
const eagerFiles = import.meta.glob<Messages>('../locales/id/{common,layout,auth,misc}.json', { eager: true, import: 'default' });
/** What a public page may still need, file by file: English's shell, and the errors' texts in both languages. */
const lazyFiles = import.meta.glob<Messages>(['../locales/*/{common,layout,auth,misc,errors}.json', '!../locales/id/{common,layout,auth,misc}.json'], { import: 'default' });
/**
 * Every other area of a language, in one download: the console needs them all at once, and one chunk
 * instead of twenty saves as many round trips on a slow connection.
 */
const consoleFiles: Record<Locale, () => Promise<Record<string, Messages>>> = {
  id: () => import('./locales-console-id').then((m) => m.default),
  en: () => import('./locales-console-en').then((m) => m.default),
};

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
  resources: buildResources(eagerFiles),
  // The stored language is switched to once its texts are here (localeReady).
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  // Labels contain ':' and '.' in their text, never in keys; spec placeholders use single braces.
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };

/** antd's own texts (pagination, pickers, empty tables) per language; English loads with English. */
const antdLocales: Partial<Record<Locale, AntdLocale>> = { id: idID };
const antdLoaders: Partial<Record<Locale, () => Promise<AntdLocale>>> = { en: () => import('antd/es/locale/en_US').then((m) => m.default) };

export function antdLocale(lang: string): AntdLocale | undefined {
  return isLocale(lang) ? antdLocales[lang] : undefined;
}

/** The areas the page has needed so far; once the console has opened, every area. */
const wantedAreas = new Set(SHELL_AREAS);
let consoleOpen = false;
const loading = new Map<string, Promise<void>>();

function once(key: string, load: () => Promise<void>): Promise<void> {
  let p = loading.get(key);
  if (!p) {
    p = load().catch((e: unknown) => {
      loading.delete(key); // a failed download is tried again on the next switch
      throw e;
    });
    loading.set(key, p);
  }
  return p;
}

/** Downloads what `lang` still lacks for the screens open now; resolves when it is in place. */
export function loadLocale(lang: Locale): Promise<void> {
  const files = Object.keys(lazyFiles).filter((path) => {
    const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    return m?.[1] === lang && (consoleOpen || wantedAreas.has(m[2]!));
  });
  const add = (modules: Record<string, Messages>) => {
    const bundle = buildResources(modules)[lang];
    if (bundle) i18n.addResourceBundle(lang, 'translation', bundle.translation, true, true);
  };
  const jobs = files.map((path) => once(path, async () => add({ [path]: await lazyFiles[path]!() })));
  if (consoleOpen) jobs.push(once(`console:${lang}`, async () => add(await consoleFiles[lang]())));
  const antd = antdLoaders[lang];
  if (antd && !antdLocales[lang]) jobs.push(once(`antd:${lang}`, async () => void (antdLocales[lang] = await antd())));
  return Promise.all(jobs).then(() => undefined);
}

function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/**
 * The stored language, ready to render: main.tsx waits for it, so an English visitor never sees
 * Indonesian (or raw keys) first. Indonesian is in the entry and resolves at once.
 */
export const localeReady: Promise<void> = (async () => {
  const lang = storedLocale();
  if (lang === DEFAULT_LOCALE) return;
  try {
    await loadLocale(lang);
    await i18n.changeLanguage(lang);
  } catch {
    // Offline or a failed download: the console opens in Indonesian.
  }
})();

/**
 * Adds some of the public pages' areas (the shell's, `errors`) in the current language and in any
 * language switched to later; the other areas come with the console, all at once.
 */
export function loadLocaleAreas(areas: string[]): Promise<void> {
  for (const area of areas) wantedAreas.add(area);
  return loadLocale(currentLocale());
}

/** Adds every screen's texts in the current language; the console awaits it before its first render. */
export function loadConsoleLocales(): Promise<void> {
  consoleOpen = true;
  return loadLocale(currentLocale());
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
    // The texts first, then the switch: the screen never shows keys or a half-translated state.
    await loadLocale(lang);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, lang);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    await i18n.changeLanguage(lang);
  },
  getLocale: () => i18n.language,
};

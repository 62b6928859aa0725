import { ConfigProvider, theme as antdTheme } from 'antd';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import { PageFallback } from './components/layout/PageFallback';
import { ThemeProvider, useTheme } from './components/layout/theme';
import { DocumentTitle } from './components/layout/title';
import { publicRoutes } from './routes';
import { antdLocale, loadConsoleLocales } from './providers/i18n';

// WhatsApp's teal, dark enough for white button text (WCAG AA 4.5:1; #128C7E gave 4.1:1).
const PRIMARY = '#0E7C70';
// Links need 4.5:1 too: antd's default blue is below it on white, the teal below it on dark grey.
const LINK_ON_DARK = '#2FB5A3';
/**
 * The focus ring: antd draws it in `colorPrimaryBorder` (a pale teal, 2.9:1 on white and 1.7:1 on the dark
 * theme's grey); the teal used for text is 5:1 and 7:1. Inputs and selects show focus as a soft shadow;
 * here it is a solid ring of the same colour.
 */
const focusRing = (color: string) => ({
  token: { colorPrimaryBorder: color },
  components: {
    Input: { activeShadow: `0 0 0 2px ${color}` },
    InputNumber: { activeShadow: `0 0 0 2px ${color}` },
    Select: { activeOutlineColor: color },
  },
});
const LIGHT_RING = focusRing(PRIMARY);
const DARK_RING = focusRing(LINK_ON_DARK);
/**
 * antd's secondary/description greys (45 % black or white), its red and its green/orange tags fall
 * below 4.5:1 (axe, issue 13); these tokens lift them to AA. On dark the teal and red are lightened
 * for text, so filled buttons take dark text.
 */
/**
 * Placeholders too: antd's (25 % black, 1.83:1 on white; 25 % white on dark) are text a Select shows in
 * place of a value, and axe weighs them as text. 56 % black is 4.6:1 on white, 55 % white 5.5:1 on #141414,
 * still lighter than a value.
 */
const LIGHT_TOKENS = { colorTextSecondary: 'rgba(0, 0, 0, 0.65)', colorTextDescription: 'rgba(0, 0, 0, 0.65)', colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)', colorError: '#cf1322', green7: '#237804', orange7: '#ad4e00' };
const DARK_TOKENS = { colorTextSecondary: 'rgba(255, 255, 255, 0.7)', colorTextDescription: 'rgba(255, 255, 255, 0.7)', colorTextPlaceholder: 'rgba(255, 255, 255, 0.55)', colorError: '#ff7875', colorPrimary: LINK_ON_DARK };
// White text sits only on the darker teal: the selected menu item and the switch's label.
const DARK_COMPONENTS = {
  ...DARK_RING.components,
  Button: { primaryColor: '#141414', dangerColor: '#141414' },
  Menu: { darkItemSelectedBg: PRIMARY },
  Switch: { colorPrimary: PRIMARY, colorPrimaryHover: '#0A665C' },
};
const LIGHT_COMPONENTS = { ...LIGHT_RING.components, Menu: { itemSelectedBg: '#E3F2EF', itemSelectedColor: '#0A5F56' } };

// The Refine console (providers, resources, protected screens) loads only off the public pages.
const Console = lazy(() => Promise.all([import('./App'), loadConsoleLocales()]).then(([m]) => m));

function Themed({ children }: { children: React.ReactNode }) {
  const { theme } = useTheme();
  // Re-renders on a language change, so antd's own texts follow it.
  const { i18n } = useTranslation();
  const lang = i18n.language;
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  // The stylesheet's few theme-dependent rules (empty-state text) read it.
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const locale = antdLocale(lang);
  return (
    <ConfigProvider
      locale={locale}
      theme={
        theme === 'dark'
          ? { algorithm: antdTheme.darkAlgorithm, token: { colorLink: LINK_ON_DARK, ...DARK_TOKENS, ...DARK_RING.token }, components: DARK_COMPONENTS }
          : { algorithm: antdTheme.defaultAlgorithm, token: { colorPrimary: PRIMARY, colorLink: PRIMARY, ...LIGHT_TOKENS, ...LIGHT_RING.token }, components: LIGHT_COMPONENTS }
      }
      // rc-dialog names its close button 'Close' whatever the locale; it takes antd's locale word ('Tutup', 'Close').
      modal={{ closable: { 'aria-label': locale?.global?.close ?? 'Close' } }}
    >
      {children}
    </ConfigProvider>
  );
}

/** Router, theme and language for every page; the public pages, then the console for everything else. */
export default function Root() {
  return (
    <BrowserRouter>
      <ThemeProvider>
        <Themed>
          <DocumentTitle />
          <Suspense fallback={<PageFallback full />}>
            <Routes>
              {publicRoutes.map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
              <Route path="*" element={<Console />} />
            </Routes>
          </Suspense>
        </Themed>
      </ThemeProvider>
    </BrowserRouter>
  );
}

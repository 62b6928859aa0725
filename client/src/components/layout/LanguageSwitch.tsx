import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { i18nProvider, LOCALES } from '../../providers/i18n';

/**
 * Indonesia / English, in the top bar and on the sign-in pages (which sit outside Refine, so this
 * talks to the i18n provider directly); the provider remembers the choice in localStorage ('lang').
 * Two toggle buttons: lighter for /signin than a segmented control. The caller draws them: antd's Button in
 * the top bar, the sign-in pages' own button there (pages/auth/controls.tsx), so /signin does not load antd's.
 */
export interface LanguageButtonProps {
  lang: string;
  /** The language on screen: drawn as the pressed button. */
  selected: boolean;
  title: string;
  onClick: () => void;
  children: ReactNode;
}

/**
 * Changes the language; the screen re-renders in it, which can drop keyboard focus to the page, so focus
 * comes back to the chosen language's button (a keyboard user keeps their place).
 */
async function switchTo(lang: (typeof LOCALES)[number]): Promise<void> {
  await i18nProvider.changeLocale(lang);
  requestAnimationFrame(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    document.querySelector<HTMLElement>(`[data-testid="language-switch"] button[lang="${lang}"]`)?.focus();
  });
}

export function LanguageSwitch({ compact = false, Button }: { compact?: boolean; Button: ComponentType<LanguageButtonProps> }) {
  const { t, i18n } = useTranslation();
  const current = i18n.language === 'en' ? 'en' : 'id';
  return (
    <div role="group" aria-label={t('common.language')} data-testid="language-switch" style={{ display: 'inline-flex', gap: 2 }}>
      {LOCALES.map((lang) => (
        <Button
          key={lang}
          selected={lang === current}
          lang={lang}
          title={t(`common.languages.${lang}`)}
          onClick={() => void switchTo(lang)}
        >
          {compact ? lang.toUpperCase() : t(`common.languages.${lang}`)}
        </Button>
      ))}
    </div>
  );
}

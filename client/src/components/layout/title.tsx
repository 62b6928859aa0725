import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { i18n } from '../../providers/i18n';

/** '/phonenumber/create' → 'layout.titles.phonenumber_create'; '/' → 'layout.titles.home'. */
export function titleKey(pathname: string): string {
  const slug = pathname.split('/').filter(Boolean).join('_');
  return `layout.titles.${slug || 'home'}`;
}

/** The browser tab's title for a path: the screen's title, then the console's name. */
export function documentTitle(pathname: string): string {
  const key = titleKey(pathname);
  const screen = i18n.exists(key) ? i18n.t(key) : i18n.t('layout.titles.notFound');
  return `${screen} | ${i18n.t('common.appName')}`;
}

/** Sets document.title from the route, and again when the language changes. */
export function DocumentTitle() {
  const { pathname } = useLocation();
  const { i18n: current } = useTranslation();
  const lang = current.language;
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname, lang]);
  return null;
}

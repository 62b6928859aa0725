import { Refine } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { accessControlProvider } from './providers/access';
import { authProvider } from './providers/auth';
import { dataProvider } from './providers/data';
import { i18nProvider } from './providers/i18n';
import { liveProvider } from './providers/live';
import { routerProvider } from './providers/router';
import { useNotificationProvider } from './providers/notification';
import { buildResources } from './resources';
import { ConsoleRoutes } from './consoleRoutes';
import { retryRead } from './lib/http';

/**
 * Lists keep their page and filters in the address (the spec's words, providers/router.ts). Rows follow the spec's events (absolute values) through useLive, not Refine's refetches; a read the
 * server refuses (a record that does not exist) shows its error at once instead of after three retries.
 */
const OPTIONS = {
  disableTelemetry: true,
  syncWithLocation: true,
  // `<Authenticated>` asks the server once per console load (providers/auth.ts `check`), not on every page.
  disableRouteChangeHandler: true,
  liveMode: 'off',
  reactQuery: { clientConfig: { defaultOptions: { queries: { retry: retryRead } } } },
} as const;

/** The console: Refine's providers and resources around the protected screens (see Root for the rest). */
export default function App() {
  // Resource labels follow the language.
  const { t, i18n } = useTranslation();
  const resources = useMemo(() => buildResources((key) => t(key)), [t, i18n.language]);
  return (
    <AntdApp>
      <Refine
        routerProvider={routerProvider}
        dataProvider={dataProvider}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        i18nProvider={i18nProvider}
        liveProvider={liveProvider}
        notificationProvider={useNotificationProvider}
        resources={resources}
        options={OPTIONS}
      >
        <ConsoleRoutes />
      </Refine>
    </AntdApp>
  );
}

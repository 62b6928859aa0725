import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider, theme as antdTheme } from 'antd';
import idID from 'antd/locale/id_ID';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Protected, PublicOnly } from './components/layout/Protected';
import { ThemeProvider, useTheme } from './components/layout/theme';
import { NotAuthorized, NotFound } from './pages/misc/NotFound';
import { PrivacyPolicy, ResetPassword, Terms } from './pages/misc/Static';
import { SignIn } from './pages/auth/SignIn';
import { SignUp } from './pages/auth/SignUp';
import { SimPhone } from './pages/sim/SimPhone';
import { accessControlProvider } from './providers/access';
import { authProvider } from './providers/auth';
import { dataProvider } from './providers/data';
import { i18nProvider } from './providers/i18n';
import { useTranslation } from 'react-i18next';
import { protectedRoutes } from './routes';

function Themed({ children }: { children: React.ReactNode }) {
  const { theme } = useTheme();
  return (
    <ConfigProvider
      locale={idID}
      theme={{ algorithm: theme === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm, token: { colorPrimary: '#128C7E' } }}
    >
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
}

export default function App() {
  // Re-renders the console when the language changes.
  useTranslation();
  return (
    <BrowserRouter>
      <ThemeProvider>
        <Themed>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            i18nProvider={i18nProvider}
            options={{ disableTelemetry: true, syncWithLocation: false }}
          >
            <Routes>
              <Route
                path="/signin"
                element={
                  <PublicOnly>
                    <SignIn />
                  </PublicOnly>
                }
              />
              <Route
                path="/signup"
                element={
                  <PublicOnly>
                    <SignUp />
                  </PublicOnly>
                }
              />
              <Route path="/reset-password" element={<ResetPassword />} />
              <Route path="/terms" element={<Terms />} />
              <Route path="/privacy-policy" element={<PrivacyPolicy />} />
              <Route path="/not-authorized" element={<NotAuthorized />} />
              <Route path="/sim" element={<SimPhone />} />
              <Route element={<Protected />}>
                {protectedRoutes.map((r) => (
                  <Route key={r.path} path={r.path} element={r.element} />
                ))}
              </Route>
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Refine>
        </Themed>
      </ThemeProvider>
    </BrowserRouter>
  );
}

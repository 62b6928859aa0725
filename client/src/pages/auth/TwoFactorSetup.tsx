import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { getToken, startSession } from '../../lib/session';
import { authProvider } from '../../providers/auth';
import { TwoFactorEnrol } from '../profile/components/TwoFactorEnrol';
import { AuthShell, AuthText, AuthTitle } from './AuthShell';

/**
 * /two-factor/setup: where a sign-in whose role must use two-factor (REQUIRE_2FA) lands until it has
 * set it up. Its token opens nothing else, so this page stays outside the console.
 */
export function TwoFactorSetup() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!getToken()) return <Navigate to="/signin" replace />;
  return (
    <AuthShell width={520}>
      <AuthTitle>{t('auth.twoFactor.setupPage.title')}</AuthTitle>
      <AuthText secondary>{t('auth.twoFactor.setupPage.text')}</AuthText>
      <TwoFactorEnrol onEnabled={(session) => startSession(session.token, session.user)} onFinish={() => navigate('/dashboard', { replace: true })} />
      <AuthText center>
        <Button
          type="link"
          onClick={() => {
            void authProvider.logout?.({}).then(() => navigate('/signin', { replace: true }));
          }}
        >
          {t('auth.twoFactor.setupPage.signOut')}
        </Button>
      </AuthText>
    </AuthShell>
  );
}

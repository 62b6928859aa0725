import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { loadConfig, type ClientConfig } from '../../../lib/config';
import { AuthText, AuthTitle } from '../AuthShell';
import { AuthAlert } from '../controls';

export type SignupMode = NonNullable<ClientConfig['signupMode']>;

/** 'Pendaftaran' as the server's /config says; null until it has answered (an older server: open). */
export function useSignupMode(): SignupMode | null {
  const [mode, setMode] = useState<SignupMode | null>(null);
  useEffect(() => {
    let live = true;
    void loadConfig().then((c) => live && setMode(c.signupMode ?? 'open'));
    return () => {
      live = false;
    };
  }, []);
  return mode;
}

/** /signup while sign-up is closed: says so in the page's language, with the way to sign in. */
export function SignupClosed() {
  const { t } = useTranslation();
  return (
    <>
      <AuthTitle>{t('auth.signUp.title')}</AuthTitle>
      <AuthAlert type="info" message={t('auth.signUp.closedTitle')} description={t('auth.signUp.closedText')} data-testid="signup-closed" />
      <AuthText center>
        {t('auth.signUp.haveAccount')} <Link to="/signin">{t('auth.signUp.signIn')}</Link>
      </AuthText>
    </>
  );
}

/** Above the form while sign-up takes referral codes only. */
export function ReferralOnlyNotice() {
  const { t } = useTranslation();
  return <AuthAlert type="info" message={t('auth.signUp.referralOnly')} style={{ marginBottom: 16 }} data-testid="signup-referral-only" />;
}

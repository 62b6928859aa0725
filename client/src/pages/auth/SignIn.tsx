import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { authProvider } from '../../providers/auth';
import type { SignInNotice } from '../../components/layout/Protected';
import { AuthAlert, AuthButton, AuthCheckbox, PasswordInput, TextInput } from './controls';
import { AuthField, AuthShell, AuthText, AuthTitle } from './AuthShell';
import { TwoFactorStep } from './components/TwoFactorStep';

export function SignIn() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  // A session that ended because its token could not be validated says so here.
  const notice = (location.state as SignInNotice | null)?.notice;
  const [error, setError] = useState<string | null>(() => (notice === 'serverError' ? t('auth.signIn.serverError') : null));
  // Set after a right password when the account has two-factor on: the code step replaces the form.
  const [challenge, setChallenge] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    if (!email.trim() || !password) {
      setError(t('auth.signIn.required'));
      return;
    }
    // The sign-in page stays outside Refine (see Root), so it calls the auth provider itself.
    setPending(true);
    void authProvider.login({ email, password, remember }).then((res) => {
      setPending(false);
      if (res.success) navigate(res.redirectTo ?? '/dashboard', { replace: true });
      else if (typeof res.twoFactorChallenge === 'string') setChallenge(res.twoFactorChallenge);
      else setError(res.error?.message || t('auth.signIn.failed'));
    });
  };

  if (challenge) {
    return (
      <AuthShell width={420}>
        <TwoFactorStep
          challenge={challenge}
          onBack={(message) => {
            setChallenge(null);
            setPassword('');
            setError(message ?? null);
          }}
        />
      </AuthShell>
    );
  }

  return (
    <AuthShell width={420}>
      <AuthTitle>{t('auth.signIn.title')}</AuthTitle>
      <AuthText secondary>{t('auth.signIn.subtitle')}</AuthText>
      {error && <AuthAlert type="error" message={error} style={{ marginBottom: 16 }} data-testid="signin-error" />}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <AuthField id="signin-email" label={t('auth.signIn.email')}>
          <TextInput id="signin-email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="info@gmail.com" />
        </AuthField>
        <AuthField id="signin-password" label={t('auth.signIn.password')}>
          <PasswordInput
            id="signin-password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            placeholder={t('auth.signIn.passwordPlaceholder')}
          />
        </AuthField>
        <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginBottom: 16 }}>
          <AuthCheckbox checked={remember} onChange={setRemember}>
            {t('auth.signIn.remember')}
          </AuthCheckbox>
          <Link to="/reset-password">{t('auth.signIn.forgot')}</Link>
        </div>
        <AuthButton type="submit" disabled={isPending}>
          {isPending ? t('auth.signIn.submitting') : t('auth.signIn.submit')}
        </AuthButton>
      </form>
      <AuthText center>
        {t('auth.signIn.noAccount')} <Link to="/signup">{t('auth.signIn.signUp')}</Link>
      </AuthText>
    </AuthShell>
  );
}

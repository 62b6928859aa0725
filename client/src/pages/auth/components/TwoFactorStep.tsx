import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/http';
import { startSession } from '../../../lib/session';
import { verifyTwoFactor } from '../../../lib/twofactor';
import { AuthAlert, AuthButton, TextInput } from '../controls';
import { AuthField, AuthText, AuthTitle } from '../AuthShell';

/**
 * The sign-in's second step, after a right password with two-factor on: a code from the authenticator
 * app or one recovery code. A challenge that has expired sends the user back to the password.
 */
export function TwoFactorStep({ challenge, onBack }: { challenge: string; onBack: (message?: string) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    if (!code.trim()) {
      setError(t('auth.twoFactor.step.required'));
      return;
    }
    setPending(true);
    verifyTwoFactor(challenge, code.trim())
      .then((res) => {
        startSession(res.token, res.user);
        navigate('/dashboard', { replace: true });
      })
      .catch((err: unknown) => {
        setPending(false);
        const message = err instanceof Error && err.message ? err.message : t('auth.signIn.failed');
        if (err instanceof ApiError && err.code === 'two_factor_challenge_expired') onBack(message);
        else setError(message);
      });
  };

  return (
    <>
      <AuthTitle>{t('auth.twoFactor.step.title')}</AuthTitle>
      <AuthText secondary>{t('auth.twoFactor.step.text')}</AuthText>
      {error && <AuthAlert type="error" message={error} style={{ marginBottom: 16 }} data-testid="two-factor-error" />}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <AuthField id="two-factor-code" label={t('auth.twoFactor.step.code')}>
          <TextInput id="two-factor-code" name="code" autoComplete="one-time-code" inputMode="text" autoFocus value={code} onChange={(e) => setCode(e.target.value)} maxLength={40} />
        </AuthField>
        <AuthButton type="submit" disabled={pending}>
          {pending ? t('auth.twoFactor.step.submitting') : t('auth.twoFactor.step.submit')}
        </AuthButton>
      </form>
      <AuthText center>
        <AuthButton variant="link" onClick={() => onBack()}>
          {t('auth.twoFactor.step.back')}
        </AuthButton>
      </AuthText>
    </>
  );
}

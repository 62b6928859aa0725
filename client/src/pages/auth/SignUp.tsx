import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authProvider } from '../../providers/auth';
import { storedReferral } from '../../lib/referral';
import { AuthAlert, AuthButton, AuthCheckbox, PasswordInput, TextInput } from './controls';
import { AuthField, AuthShell, AuthText, AuthTitle } from './AuthShell';
import { ReferralOnlyNotice, SignupClosed, useSignupMode } from './components/signupMode';

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'password2', 'referral_code', 'agreeToTerms'] as const;
type Field = Exclude<(typeof FIELDS)[number], 'agreeToTerms'>;

export function SignUp() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [isPending, setPending] = useState(false);
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    password2: '',
    referral_code: params.get('referral') ?? storedReferral(),
  }));
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field | 'agreeToTerms', string>>>({});
  const [error, setError] = useState<string | null>(null);
  // 'Pendaftaran' (Pengaturan): closed shows why instead of the form; referral only asks for the code.
  const mode = useSignupMode();

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    // A field's error clears when it is edited.
    setErrors((er) => ({ ...er, [field]: undefined }));
  };

  const submit = () => {
    setError(null);
    const errs: Partial<Record<Field | 'agreeToTerms', string>> = {};
    if (!values.firstName.trim()) errs.firstName = t('auth.signUp.errors.firstName');
    if (!values.lastName.trim()) errs.lastName = t('auth.signUp.errors.lastName');
    if (!values.email.trim()) errs.email = t('auth.signUp.errors.email');
    if (!values.password) errs.password = t('auth.signUp.errors.password');
    if (!values.password2) errs.password2 = t('auth.signUp.errors.password2');
    else if (values.password !== values.password2) errs.password2 = t('auth.signUp.errors.mismatch');
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    if (!agree) {
      setError(t('auth.signUp.errors.terms'));
      return;
    }
    setPending(true);
    void authProvider.register?.({ ...values, agreeToTerms: agree }).then((res) => {
      setPending(false);
      if (res.success) {
        navigate(res.redirectTo ?? '/dashboard', { replace: true });
        return;
      }
      const err = res.error as (Error & { errors?: Record<string, string> }) | undefined;
      // A field's error shows only under that field; the alert is for errors no field on screen carries.
      const shown: Partial<Record<Field | 'agreeToTerms', string>> = {};
      const other: string[] = [];
      for (const [field, msg] of Object.entries(err?.errors ?? {})) {
        if ((FIELDS as readonly string[]).includes(field)) shown[field as Field | 'agreeToTerms'] = msg;
        else other.push(msg);
      }
      setErrors(shown);
      if (other.length) setError(other[0]!);
      else if (Object.keys(shown).length === 0) setError(err?.message || t('auth.signUp.failed'));
    });
  };

  const item = (field: Field, label: string, input: React.ReactNode) => (
    <AuthField id={`signup-${field}`} label={label} error={errors[field]}>
      {input}
    </AuthField>
  );

  if (mode === 'closed') {
    return (
      <AuthShell width={520}>
        <SignupClosed />
      </AuthShell>
    );
  }

  return (
    <AuthShell width={520}>
      <AuthTitle>{t('auth.signUp.title')}</AuthTitle>
      {mode === 'referral' && <ReferralOnlyNotice />}
      {error && <AuthAlert type="error" message={error} style={{ marginBottom: 16 }} data-testid="signup-error" />}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="signup-names">
          {item('firstName', t('auth.signUp.firstName'), <TextInput id="signup-firstName" name="firstName" autoComplete="given-name" value={values.firstName} onChange={set('firstName')} />)}
          {item('lastName', t('auth.signUp.lastName'), <TextInput id="signup-lastName" name="lastName" autoComplete="family-name" value={values.lastName} onChange={set('lastName')} />)}
        </div>
        {item('email', t('auth.signUp.email'), <TextInput id="signup-email" name="email" type="email" autoComplete="email" value={values.email} onChange={set('email')} />)}
        {item(
          'password',
          t('auth.signUp.password'),
          <PasswordInput id="signup-password" name="password" autoComplete="new-password" value={values.password} onChange={set('password')} />,
        )}
        {item(
          'password2',
          t('auth.signUp.password2'),
          <PasswordInput id="signup-password2" name="password2" autoComplete="new-password" value={values.password2} onChange={set('password2')} />,
        )}
        {item(
          'referral_code',
          t('auth.signUp.referral'),
          <TextInput id="signup-referral_code" name="affiliateCode" value={values.referral_code} onChange={set('referral_code')} placeholder={mode === 'referral' ? t('auth.signUp.referralRequired') : t('auth.signUp.referralPlaceholder')} required={mode === 'referral'} />,
        )}
        <div style={{ marginBottom: 20 }}>
          <AuthCheckbox
            name="agreeToTerms"
            checked={agree}
            onChange={(checked) => {
              setAgree(checked);
              setErrors((er) => ({ ...er, agreeToTerms: undefined }));
            }}
          >
            {t('auth.signUp.agreePrefix')}{' '}
            <a href="/terms" target="_blank" rel="noreferrer">
              {t('auth.signUp.terms')}
            </a>{' '}
            {t('auth.signUp.and')}{' '}
            <a href="/privacy-policy" target="_blank" rel="noreferrer">
              {t('auth.signUp.privacy')}
            </a>
          </AuthCheckbox>
          {errors.agreeToTerms && (
            <div role="alert" style={{ color: 'var(--auth-error)', marginTop: 4 }}>
              {errors.agreeToTerms}
            </div>
          )}
        </div>
        <AuthButton type="submit" disabled={isPending}>
          {isPending ? t('auth.signUp.submitting') : t('auth.signUp.submit')}
        </AuthButton>
      </form>
      <AuthText center>
        {t('auth.signUp.haveAccount')} <Link to="/signin">{t('auth.signUp.signIn')}</Link>
      </AuthText>
    </AuthShell>
  );
}

import { Alert, Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { useRegister } from '@refinedev/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { storedReferral } from '../../lib/referral';

type Field = 'firstName' | 'lastName' | 'email' | 'password' | 'password2' | 'referral_code';

export function SignUp() {
  const [params] = useSearchParams();
  const { mutate: register, isPending } = useRegister<Record<string, unknown>>();
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

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    // A field's error clears when it is edited.
    setErrors((er) => ({ ...er, [field]: undefined }));
  };

  const submit = () => {
    setError(null);
    const errs: Partial<Record<Field | 'agreeToTerms', string>> = {};
    if (!values.firstName.trim()) errs.firstName = 'First name is required.';
    if (!values.lastName.trim()) errs.lastName = 'Last name is required.';
    if (!values.email.trim()) errs.email = 'Email is required.';
    if (!values.password) errs.password = 'Password is required.';
    if (!values.password2) errs.password2 = 'Please confirm your password.';
    else if (values.password !== values.password2) errs.password2 = 'Passwords do not match.';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    if (!agree) {
      setError('You must agree to the terms and conditions.');
      return;
    }
    register(
      { ...values, agreeToTerms: agree },
      {
        onSuccess: (res) => {
          if (res.success) return;
          const err = res.error as (Error & { errors?: Record<string, string> }) | undefined;
          if (err?.errors) setErrors(err.errors);
          setError(err?.message || 'Failed to sign up. Please try again.');
        },
      },
    );
  };

  const item = (field: Field, label: string, input: React.ReactNode) => (
    <Form.Item label={label} validateStatus={errors[field] ? 'error' : undefined} help={errors[field]}>
      {input}
    </Form.Item>
  );

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 520 }}>
        <Typography.Title level={3}>Sign Up</Typography.Title>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="signup-error" />}
        <Form layout="vertical" onFinish={submit}>
          <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 }}>
            {item('firstName', 'First Name', <Input name="firstName" value={values.firstName} onChange={set('firstName')} />)}
            {item('lastName', 'Last Name', <Input name="lastName" value={values.lastName} onChange={set('lastName')} />)}
          </div>
          {item('email', 'Email', <Input name="email" type="email" value={values.email} onChange={set('email')} />)}
          {item('password', 'Password', <Input.Password name="password" autoComplete="new-password" value={values.password} onChange={set('password')} />)}
          {item(
            'password2',
            'Confirm Password',
            <Input.Password name="password2" autoComplete="new-password" value={values.password2} onChange={set('password2')} />,
          )}
          {item('referral_code', 'Referral Code', <Input name="affiliateCode" value={values.referral_code} onChange={set('referral_code')} placeholder="Opsional" />)}
          <Form.Item validateStatus={errors.agreeToTerms ? 'error' : undefined} help={errors.agreeToTerms}>
            <Checkbox
              name="agreeToTerms"
              checked={agree}
              onChange={(e) => {
                setAgree(e.target.checked);
                setErrors((er) => ({ ...er, agreeToTerms: undefined }));
              }}
            >
              I agree to the{' '}
              <a href="/terms" target="_blank" rel="noreferrer">
                Terms and Conditions
              </a>{' '}
              and{' '}
              <a href="/privacy-policy" target="_blank" rel="noreferrer">
                Privacy Policy
              </a>
            </Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" block disabled={isPending}>
            {isPending ? 'Signing Up...' : 'Sign Up'}
          </Button>
        </Form>
        <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
          Already have an account? <Link to="/signin">Sign In</Link>
        </Typography.Paragraph>
      </Card>
    </div>
  );
}

import { Alert, Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { useLogin } from '@refinedev/core';
import { useState } from 'react';
import { Link } from 'react-router';

export function SignIn() {
  const { mutate: login, isPending } = useLogin<{ email: string; password: string; remember: boolean }>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    if (!email.trim() || !password) {
      setError('Email and password are required.');
      return;
    }
    login(
      { email, password, remember },
      {
        onSuccess: (res) => {
          if (!res.success) setError(res.error?.message || 'Error signing in');
        },
      },
    );
  };

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Typography.Title level={3}>Sign In</Typography.Title>
        <Typography.Paragraph type="secondary">Masuk dengan email dan password Anda.</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="signin-error" />}
        <Form layout="vertical" onFinish={submit}>
          <Form.Item label="Email">
            <Input name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="info@gmail.com" />
          </Form.Item>
          <Form.Item label="Password">
            <Input.Password
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              placeholder="Enter your password"
              iconRender={(visible) => <span aria-label={visible ? 'Hide password' : 'Show password'}>{visible ? '🙈' : '👁'}</span>}
            />
          </Form.Item>
          <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 16 }}>
            <Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)}>
              Keep me logged in
            </Checkbox>
            <Link to="/reset-password">Forgot password?</Link>
          </div>
          <Button type="primary" htmlType="submit" block disabled={isPending}>
            {isPending ? 'Signing in...' : 'Sign in'}
          </Button>
        </Form>
        <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
          Don&apos;t have an account? <Link to="/signup">Sign Up</Link>
        </Typography.Paragraph>
      </Card>
    </div>
  );
}

import { Alert, Button, Form, Input, QRCode, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enableTwoFactor, startTwoFactor, type SessionAnswer } from '../../../lib/twofactor';

/**
 * Turning two-factor on: the QR code and the secret in text, the first code to confirm, then the ten
 * recovery codes, shown this once. `onEnabled` gets the new session (the old token has ended) as soon
 * as the code is accepted; `onFinish` when the user has seen the codes.
 */
export function TwoFactorEnrol({ onEnabled, onFinish }: { onEnabled: (session: SessionAnswer) => void; onFinish: () => void }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [code, setCode] = useState('');

  useEffect(() => {
    let live = true;
    startTwoFactor()
      .then((s) => live && setSetup(s))
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, []);

  const confirm = () => {
    setError(null);
    if (!code.trim()) {
      setError(t('auth.twoFactor.step.required'));
      return;
    }
    setPending(true);
    enableTwoFactor(code.trim())
      .then((res) => {
        onEnabled(res);
        setCodes(res.recovery_codes);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
      .finally(() => setPending(false));
  };

  if (codes) {
    return (
      <div data-testid="two-factor-recovery">
        <Typography.Title level={5}>{t('auth.twoFactor.enrol.codesTitle')}</Typography.Title>
        <Alert type="warning" showIcon message={t('auth.twoFactor.enrol.codesText')} style={{ marginBottom: 12 }} />
        <ul aria-label={t('auth.twoFactor.enrol.codesTitle')} style={{ columns: 2, fontFamily: 'monospace', fontSize: 16, paddingLeft: 20 }}>
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <Space wrap>
          <Typography.Text copyable={{ text: codes.join('\n'), tooltips: [t('auth.twoFactor.enrol.copy'), t('auth.twoFactor.enrol.copied')] }}>
            {t('auth.twoFactor.enrol.copy')}
          </Typography.Text>
          <Button type="primary" onClick={onFinish}>
            {t('auth.twoFactor.enrol.done')}
          </Button>
        </Space>
      </div>
    );
  }

  return (
    <div>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="two-factor-enrol-error" />}
      {!setup ? (
        !error && <Spin />
      ) : (
        <>
          <Typography.Paragraph>{t('auth.twoFactor.enrol.scan')}</Typography.Paragraph>
          <div style={{ display: 'flex', justifyContent: 'center', marginBottom: 12 }}>
            <QRCode value={setup.uri} size={180} bgColor="#ffffff" color="#000000" aria-label={t('auth.twoFactor.enrol.qr')} />
          </div>
          <Typography.Paragraph>
            {t('auth.twoFactor.enrol.secret')}:{' '}
            <Typography.Text code copyable data-testid="two-factor-secret">
              {setup.secret}
            </Typography.Text>
          </Typography.Paragraph>
          <Form layout="vertical" onFinish={confirm}>
            <Form.Item label={t('auth.twoFactor.enrol.code')} htmlFor="two-factor-confirm">
              <Input id="two-factor-confirm" autoComplete="one-time-code" inputMode="numeric" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={pending}>
              {t('auth.twoFactor.enrol.confirm')}
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}

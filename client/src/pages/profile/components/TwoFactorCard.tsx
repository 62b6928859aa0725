import { Alert, App, Button, Card, Form, Input, Modal, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { startSession } from '../../../lib/session';
import { disableTwoFactor, twoFactorStatus, type SessionAnswer, type TwoFactorStatus } from '../../../lib/twofactor';
import { closeSocket } from '../../../providers/live';
import { TwoFactorEnrol } from './TwoFactorEnrol';

/** A new token replaces the session's (the others ended with the change); the live connection starts over with it. */
function renewSession(session: SessionAnswer) {
  closeSocket();
  startSession(session.token, session.user);
}

/** The profile's 'Two-factor sign-in' card: its state, and turning it on or off. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const [pending, setPending] = useState(false);
  const [disableError, setDisableError] = useState<string | null>(null);

  const load = useCallback(() => {
    twoFactorStatus()
      .then(setStatus)
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, []);
  useEffect(load, [load]);

  const turnOff = ({ password }: { password: string }) => {
    setDisableError(null);
    setPending(true);
    disableTwoFactor(password ?? '')
      .then((res) => {
        renewSession(res);
        setDisabling(false);
        void message.success(t('auth.twoFactor.turnedOff'));
        load();
      })
      .catch((err: unknown) => setDisableError(err instanceof Error ? err.message : String(err)))
      .finally(() => setPending(false));
  };

  return (
    <Card title={t('auth.twoFactor.title')} data-testid="two-factor-card" style={{ marginTop: 16 }}>
      {error && <Alert type="error" showIcon message={error} />}
      {status && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <div>
            <Tag color={status.enabled ? 'green' : 'default'}>{status.enabled ? t('auth.twoFactor.on') : t('auth.twoFactor.off')}</Tag>
            {status.enabled && <Typography.Text type="secondary">{t('auth.twoFactor.recoveryLeft', { left: status.recovery_codes_left })}</Typography.Text>}
          </div>
          <Typography.Text>{t('auth.twoFactor.describe')}</Typography.Text>
          {status.required && <Typography.Text type="secondary">{t('auth.twoFactor.required')}</Typography.Text>}
          {status.enabled ? (
            !status.required && (
              <Button danger onClick={() => setDisabling(true)}>
                {t('auth.twoFactor.turnOff')}
              </Button>
            )
          ) : (
            <Button type="primary" onClick={() => setEnrolling(true)}>
              {t('auth.twoFactor.turnOn')}
            </Button>
          )}
        </Space>
      )}
      <Modal
        open={enrolling}
        title={t('auth.twoFactor.turnOnTitle')}
        footer={null}
        destroyOnHidden
        // Once on, closing the dialog is the same as 'I have saved them'.
        onCancel={() => {
          setEnrolling(false);
          load();
        }}
      >
        <TwoFactorEnrol
          onEnabled={(session) => {
            renewSession(session);
            void message.success(t('auth.twoFactor.turnedOn'));
          }}
          onFinish={() => {
            setEnrolling(false);
            load();
          }}
        />
      </Modal>
      <Modal open={disabling} title={t('auth.twoFactor.disable.title')} footer={null} destroyOnHidden onCancel={() => setDisabling(false)}>
        {disableError && <Alert type="error" showIcon message={disableError} style={{ marginBottom: 12 }} />}
        <Form layout="vertical" onFinish={turnOff}>
          <Form.Item label={t('auth.twoFactor.disable.password')} name="password" rules={[{ required: true, message: t('auth.signUp.errors.password') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button danger htmlType="submit" loading={pending}>
            {t('auth.twoFactor.disable.submit')}
          </Button>
        </Form>
      </Modal>
    </Card>
  );
}

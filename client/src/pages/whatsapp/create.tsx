import { Create } from '@refinedev/antd';
import { useCan, useCreate, useOne, useTranslate } from '@refinedev/core';
import { Alert, Button, Grid, Input, Segmented, Space, Spin, Tag, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useClientConfig } from '../../lib/config';
import { doneWith, failWith } from '../../lib/notify';
import { serverText } from '../../lib/serverError';
import { getSessionUser } from '../../lib/session';
import { useLive } from '../../providers/live';
import { CloudLinkForm } from './components/CloudLinkForm';
import type { AccountRow } from './liveRow';
import { makeWhatsappId, useLinking, type LinkedIdentity, type Mode } from './useLinking';
import { useSimUsable } from '../sim/useSim';

/** Live errors this page shows in red, by event name. */
const SOCKET_ERRORS = ['unhandledRejection', 'uncaughtException', 'mongo erorr'];

function QrImage({ value, alt }: { value: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(value, { width: 264, margin: 1 }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [value]);
  return src ? <img src={src} alt={alt} width={264} height={264} data-testid="qr-image" data-qr={value} /> : <Spin />;
}

/** How an account is linked: a device by QR or pairing code, or (GATEWAY=cloud-api) a Cloud API business number. */
type Method = Mode | 'cloud';

/**
 * 'Tambah Akun Whatsapp': link a device by QR or pairing code, or save a Cloud API number when the server
 * runs the Cloud API gateway; `r` reconnects an account, `type` a job's.
 */
export function WhatsappCreate() {
  const t = useTranslate();
  const user = getSessionUser();
  const navigate = useNavigate();
  const config = useClientConfig();
  const screens = Grid.useBreakpoint();
  const [params] = useSearchParams();
  const reconnectId = Number(params.get('r')) || null;
  const type = params.get('type');
  const [deviceId] = useState(makeWhatsappId);
  const [mode, setMode] = useState<Method>('qr');
  const [phone, setPhone] = useState('62');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [socketError, setSocketError] = useState<string | null>(null);
  const { mutate: create, mutation: saving } = useCreate<AccountRow>();

  // The account being reconnected, read once; its number is the pairing default.
  const { result: found } = useOne<AccountRow>({
    resource: 'whatsapp',
    id: reconnectId ?? undefined,
    queryOptions: { enabled: Boolean(reconnectId), retry: false },
    errorNotification: failWith(t('whatsapp.listError')),
  });
  const target = reconnectId && found?.id ? found : null;
  useEffect(() => {
    if (target?.phonenumber) setPhone(target.phonenumber);
  }, [target?.phonenumber]);

  useLive(user ? String(user.id) : null, (msg) => {
    if (!SOCKET_ERRORS.includes(msg.event)) return;
    const data = msg.data as { deviceId?: string; message?: string };
    if (data.deviceId && data.deviceId !== deviceId) return;
    // The server's words in the screen's language when they are a known message.
    setSocketError(`${msg.event} : ${data.message ? serverText(data.message, undefined, t) : JSON.stringify(msg.data)}`);
  });

  const returnToList = useCan({ resource: 'whatsapp', action: 'returnToList' }).data?.can === true;
  const goBack = () => {
    if (window.history.length > 1) navigate(-1);
    else navigate(type ? `/${type}/create` : returnToList ? '/whatsapp' : '/');
  };

  // Saving the linked device makes (or reconnects) the account; the list refreshes from the cache.
  const save = (identity: LinkedIdentity, proxyId: number | null) =>
    create(
      {
        resource: 'whatsapp',
        values: { ...identity, proxyId, user_id: reconnectId ? null : user?.id, reconnect: reconnectId ?? undefined },
        successNotification: doneWith(t('whatsapp.create.saved')),
        // The linking screen shows a failed save itself, under the code it was linking with.
        errorNotification: false,
      },
      {
        onSuccess: () => {
          linking.saved();
          goBack();
        },
        onError: (err) => linking.setError(err.message || t('whatsapp.networkError')),
      },
    );
  const linking = useLinking(deviceId, save);
  const { step, qr, code, seconds, error } = linking;
  const working = step === 'generating' || saving.isPending;

  const start = () => {
    if (mode === 'cloud') return;
    if (mode === 'code') {
      const digits = phone.replace(/[^0-9]/g, '');
      // '62' alone starts right but is not a number yet: say so rather than repeat the prefix rule.
      const problem = !digits.startsWith('62') ? 'numberPrefix' : digits.length < 8 ? 'numberIncomplete' : null;
      if (problem) {
        setPhoneError(t(`whatsapp.create.${problem}`));
        return;
      }
      setPhoneError(null);
    }
    setSocketError(null);
    void linking.generate(mode, phone.replace(/[^0-9]/g, ''), target?.deviceId ?? null, user?.id);
  };

  const shownCode = code ? `${code.slice(0, 4)}-${code.slice(4)}` : null;
  // The simulated phone is for admin and dev (or an open demo): anyone else is told who scans, not sent to a page that refuses them.
  const simUsable = useSimUsable(config.gateway === 'simulator');
  const simLink = config.gateway === 'simulator' && step === 'shown'
    ? mode === 'code' && shownCode
      ? `/sim?code=${encodeURIComponent(shownCode)}&phonenumber=${encodeURIComponent(phone)}`
      : qr
        ? `/sim?qr=${encodeURIComponent(qr)}`
        : null
    : null;

  const methods: Array<{ value: Method; label: string }> = [
    { value: 'qr', label: t('whatsapp.create.withQr') },
    { value: 'code', label: t('whatsapp.create.withNumber') },
    // A reconnect or a generator/validator account needs a linked device, never a Cloud API number.
    ...(config.gateway === 'cloud-api' && !reconnectId && !type ? [{ value: 'cloud' as const, label: t('whatsapp.create.withCloud') }] : []),
  ];

  return (
    <Create
      title={t('whatsapp.create.title')}
      resource="whatsapp"
      breadcrumb={false}
      goBack={false}
      headerButtons={type ? <Tag color="blue">{t(type === 'generator' ? 'whatsapp.create.forJob.generator' : 'whatsapp.create.forJob.validator')}</Tag> : null}
      // Linking saves the account itself once the phone confirms: the screen has no save button.
      contentProps={{ actions: undefined, style: { maxWidth: 560 } }}
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {target && (
          <Alert type="info" showIcon message={t('whatsapp.create.reconnecting', { name: target.pushname ?? '-', phone: target.phonenumber ?? '-' })} />
        )}
        {mode !== 'cloud' && (
          <div>
            <Typography.Text type="secondary">{t('whatsapp.create.deviceId')}</Typography.Text>
            <Input value={deviceId} readOnly aria-label={t('whatsapp.create.deviceId')} />
          </div>
        )}
        <Segmented<Method>
          block
          // Three methods, or a phone's width: one under the other, so no label is cut short.
          vertical={methods.length > 2 || !screens.md}
          value={mode}
          disabled={working || step === 'shown'}
          onChange={setMode}
          options={methods}
        />
        {mode === 'cloud' && (
          <CloudLinkForm onSaved={goBack} />
        )}
        {mode === 'code' && (
          <div>
            <Typography.Text type="secondary">{t('whatsapp.create.number')}</Typography.Text>
            <Input
              aria-label={t('whatsapp.create.number')}
              value={phone}
              placeholder="6281xxxxxxx"
              inputMode="numeric"
              disabled={working || step === 'shown'}
              onChange={(e) => setPhone(e.target.value)}
              status={phoneError ? 'error' : undefined}
            />
            {phoneError && <Typography.Text type="danger">{phoneError}</Typography.Text>}
          </div>
        )}
        {mode !== 'cloud' && (step === 'idle' || step === 'expired') && (
          <Button type="primary" block onClick={start} loading={working}>
            {mode === 'qr' ? t('whatsapp.create.generateQr') : t('whatsapp.create.generateCode')}
          </Button>
        )}
        {step === 'generating' && (
          <Button type="primary" block loading disabled>
            {t('whatsapp.create.creating')}
          </Button>
        )}
        {step === 'generating' && <Typography.Text type="secondary">{t(mode === 'qr' ? 'whatsapp.create.preparingQr' : 'whatsapp.create.preparingCode', { count: seconds })}</Typography.Text>}
        {step === 'shown' && (
          <div style={{ textAlign: 'center' }} data-testid="link-code">
            {mode === 'qr' && qr && <QrImage value={qr} alt={t('whatsapp.create.qrAlt')} />}
            {mode === 'code' && shownCode && (
              <Typography.Title level={2} copyable style={{ letterSpacing: 4 }} data-testid="pairing-code">
                {shownCode}
              </Typography.Title>
            )}
            <div>
              <Typography.Text>
                {t(mode === 'qr' ? 'whatsapp.create.scanQr' : 'whatsapp.create.enterCode', { count: seconds })}
              </Typography.Text>
            </div>
            {simLink && simUsable === true && (
              <a href={simLink} target="_blank" rel="noopener noreferrer" data-testid="sim-link">
                {t('whatsapp.create.simLink')}
              </a>
            )}
            {simLink && simUsable === false && <Typography.Text type="secondary">{t('whatsapp.create.simByAdmin')}</Typography.Text>}
          </div>
        )}
        {step === 'expired' && <Alert type="warning" showIcon message={t(mode === 'qr' ? 'whatsapp.create.qrExpired' : 'whatsapp.create.codeExpired')} />}
        {step === 'authenticated' && <Alert type="success" showIcon message={t('whatsapp.create.linked')} />}
        {error && <Typography.Text type="danger">{error}</Typography.Text>}
        {socketError && (
          <Typography.Text type="danger" data-testid="socket-error">
            {socketError}
          </Typography.Text>
        )}
      </Space>
    </Create>
  );
}

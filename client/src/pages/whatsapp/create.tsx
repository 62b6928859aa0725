import { Alert, App, Button, Card, Input, Segmented, Space, Spin, Tag, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { useClientConfig } from '../../lib/config';
import { api, errorText } from '../../lib/http';
import { getSessionUser } from '../../lib/session';
import { useLive } from '../../providers/live';
import type { AccountRow } from './liveRow';
import { makeWhatsappId, useLinking, type LinkedIdentity, type Mode } from './useLinking';

/** Live errors this page shows in red, by event name. */
const SOCKET_ERRORS = ['unhandledRejection', 'uncaughtException', 'mongo erorr'];

function QrImage({ value }: { value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(value, { width: 264, margin: 1 }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [value]);
  return src ? <img src={src} alt="QR Code" width={264} height={264} data-testid="qr-image" data-qr={value} /> : <Spin />;
}

/** 'Tambah Akun Whatsapp': link a device by QR or pairing code; `r` reconnects an account, `type` a job's. */
export function WhatsappCreate() {
  const user = getSessionUser();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const config = useClientConfig();
  const [params] = useSearchParams();
  const reconnectId = Number(params.get('r')) || null;
  const type = params.get('type');
  const [deviceId] = useState(makeWhatsappId);
  const [mode, setMode] = useState<Mode>('qr');
  const [phone, setPhone] = useState('62');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [target, setTarget] = useState<AccountRow | null>(null);
  const [socketError, setSocketError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!reconnectId) return;
    api<{ whatsapp: AccountRow }>(`/admin/whatsapp/${reconnectId}`, { fallback: 'Error fetching Whatsapp list' })
      .then((res) => {
        setTarget(res.whatsapp);
        if (res.whatsapp.phonenumber) setPhone(res.whatsapp.phonenumber);
      })
      .catch((err: unknown) => void message.error(errorText(err)));
  }, [reconnectId, message]);

  useLive(user ? String(user.id) : null, (msg) => {
    if (!SOCKET_ERRORS.includes(msg.event)) return;
    const data = msg.data as { deviceId?: string; message?: string };
    if (data.deviceId && data.deviceId !== deviceId) return;
    setSocketError(`${msg.event} : ${data.message ?? JSON.stringify(msg.data)}`);
  });

  const goBack = () => {
    if (window.history.length > 1) navigate(-1);
    else navigate(type ? `/${type}/create` : user?.role === 'member' ? '/whatsapp' : '/');
  };

  const save = async (identity: LinkedIdentity, proxyId: number | null) => {
    setSaving(true);
    try {
      await api('/admin/whatsapp/save', {
        method: 'POST',
        body: { ...identity, proxyId, user_id: reconnectId ? null : user?.id, reconnect: reconnectId ?? undefined },
        fallback: 'Network error. Please try again.',
      });
      linking.saved();
      void message.success('Akun WhatsApp berhasil disimpan');
      goBack();
    } catch (err) {
      linking.setError(errorText(err, 'Network error. Please try again.'));
      setSaving(false);
    }
  };
  const linking = useLinking(deviceId, (identity, proxyId) => void save(identity, proxyId));
  const { step, qr, code, seconds, error } = linking;
  const working = step === 'generating' || saving;

  const start = () => {
    if (mode === 'code') {
      const digits = phone.replace(/[^0-9]/g, '');
      // '62' alone does start with 62: say what is missing instead.
      if (!digits.startsWith('62') || digits.length < 8) {
        setPhoneError(
          digits.startsWith('62') ? 'Nomor terlalu pendek: lengkapi nomor setelah 62, contoh 6281xxxxxxx' : 'Nomor harus diawali 62, contoh 6281xxxxxxx',
        );
        return;
      }
      setPhoneError(null);
    }
    setSocketError(null);
    void linking.generate(mode, phone.replace(/[^0-9]/g, ''), target?.deviceId ?? null, user?.id);
  };

  const shownCode = code ? `${code.slice(0, 4)}-${code.slice(4)}` : null;
  const simLink = config.gateway === 'simulator' && step === 'shown'
    ? mode === 'code' && shownCode
      ? `/sim?code=${encodeURIComponent(shownCode)}&phonenumber=${encodeURIComponent(phone)}`
      : qr
        ? `/sim?qr=${encodeURIComponent(qr)}`
        : null
    : null;

  return (
    <div>
      <PageTitle title="Tambah Akun Whatsapp" extra={type && <Tag color="blue">{type === 'generator' ? 'Generator' : 'Validator'}</Tag>} />
      <Card style={{ maxWidth: 560 }}>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          {target && (
            <Alert type="info" showIcon message={`Sambungkan ulang: ${target.pushname ?? '-'} (${target.phonenumber ?? '-'})`} />
          )}
          <div>
            <Typography.Text type="secondary">WhatsApp ID</Typography.Text>
            <Input value={deviceId} readOnly aria-label="WhatsApp ID" />
          </div>
          <Segmented<Mode>
            block
            value={mode}
            disabled={working || step === 'shown'}
            onChange={setMode}
            options={[
              { value: 'qr', label: 'Login dengan QR Code' },
              { value: 'code', label: 'Login dengan Nomor' },
            ]}
          />
          {mode === 'code' && (
            <div>
              <Typography.Text type="secondary">Nomor WhatsApp</Typography.Text>
              <Input
                aria-label="Nomor WhatsApp"
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
          {(step === 'idle' || step === 'expired') && (
            <Button type="primary" block onClick={start} loading={working}>
              {mode === 'qr' ? 'Generate QR Code' : 'Generate Pairing Code'}
            </Button>
          )}
          {step === 'generating' && (
            <Button type="primary" block loading disabled>
              Creating...
            </Button>
          )}
          {step === 'generating' && <Typography.Text type="secondary">{`Menyiapkan ${mode === 'qr' ? 'QR Code' : 'kode pairing'}... ${seconds} detik`}</Typography.Text>}
          {step === 'shown' && (
            <div style={{ textAlign: 'center' }} data-testid="link-code">
              {mode === 'qr' && qr && <QrImage value={qr} />}
              {mode === 'code' && shownCode && (
                <Typography.Title level={2} copyable style={{ letterSpacing: 4 }} data-testid="pairing-code">
                  {shownCode}
                </Typography.Title>
              )}
              <div>
                <Typography.Text>
                  {mode === 'qr'
                    ? `Scan QR Code dari WhatsApp > Perangkat tertaut. Berlaku ${seconds} detik`
                    : `Masukkan kode di WhatsApp > Perangkat tertaut > Tautkan dengan nomor telepon. Berlaku ${seconds} detik`}
                </Typography.Text>
              </div>
              {simLink && (
                <a href={simLink} target="_blank" rel="noopener noreferrer" data-testid="sim-link">
                  Buka telepon simulasi (/sim)
                </a>
              )}
            </div>
          )}
          {step === 'expired' && <Alert type="warning" showIcon message={mode === 'qr' ? 'QR Code sudah kedaluwarsa.' : 'Kode pairing sudah kedaluwarsa.'} />}
          {step === 'authenticated' && <Alert type="success" showIcon message="Terhubung. Menyimpan akun..." />}
          {error && <Typography.Text type="danger">{error}</Typography.Text>}
          {socketError && (
            <Typography.Text type="danger" data-testid="socket-error">
              {socketError}
            </Typography.Text>
          )}
        </Space>
      </Card>
    </div>
  );
}

import { Alert, App, Button, Card, Col, Empty, Input, List, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useClientConfig } from '../../lib/config';
import { errorText } from '../../lib/http';
import { formatDateTime } from '../../lib/format';
import { NotFound } from '../misc/NotFound';
import { isSimRefused, useSimAction, useSimDevices, useSimInbox, type SimDevice, type SimMessage } from './useSim';

const CONNECTIONS = [
  { state: 'connected', label: 'Connect' },
  { state: 'disconnected', label: 'Disconnect' },
  { state: 'conflict', label: 'Conflict' },
  { state: 'loggedOut', label: 'Logout' },
] as const;

/**
 * The simulated phone (/sim), only while the simulator is the gateway: scan a QR, enter a pairing
 * code, change a linked device's connection, delete its last sent message, read a number's inbox and
 * reply as that number.
 */
export function SimPhone() {
  const config = useClientConfig();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const [qr, setQr] = useState(params.get('qr') ?? '');
  const [scanNumber, setScanNumber] = useState('');
  const [scanName, setScanName] = useState('');
  const [code, setCode] = useState(params.get('code') ?? '');
  const [codeNumber, setCodeNumber] = useState(params.get('phonenumber') ?? '');
  const [inboxNumber, setInboxNumber] = useState('');
  const [replyDevice, setReplyDevice] = useState<string | undefined>();
  const [replyText, setReplyText] = useState('');

  const devices = useSimDevices();
  const inbox = useSimInbox(inboxNumber);
  const simCall = useSimAction();

  const act = async (label: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      void message.success(label);
      void devices.refetch();
      if (inbox.enabled) void inbox.refetch();
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  if (config.gateway !== 'simulator') return <NotFound />;
  if (isSimRefused(devices.error)) {
    return (
      <div style={{ padding: 24, maxWidth: 720, margin: '0 auto' }}>
        <Typography.Title level={3}>Telepon Simulasi</Typography.Title>
        <Alert
          type="warning"
          showIcon
          message="Telepon simulasi hanya untuk admin atau developer."
          description={
            <span>
              Masuk sebagai admin atau developer untuk memakainya. <Link to="/signin">Masuk</Link>
            </span>
          }
        />
      </div>
    );
  }
  const all = devices.devices ?? [];
  const waitingQr = all.filter((d) => d.phase === 'qr' && d.qr);
  // Newest first: the device just linked is the one a tester looks for.
  const linked = all.filter((d) => d.identity).reverse();

  return (
    <div style={{ padding: 24, maxWidth: 1200, margin: '0 auto' }}>
      <Typography.Title level={3}>Telepon Simulasi</Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title="Scan QR Code">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Select
                aria-label="Perangkat menunggu"
                placeholder="Pilih perangkat yang menunggu scan"
                style={{ width: '100%' }}
                value={null}
                onChange={(v: string) => setQr(v)}
                options={waitingQr.map((d) => ({ value: d.qr!, label: d.deviceId }))}
              />
              <Input.TextArea aria-label="QR" rows={3} placeholder="Tempel isi QR code" value={qr} onChange={(e) => setQr(e.target.value)} />
              <Input aria-label="Nomor telepon (opsional)" placeholder="Nomor telepon (opsional)" value={scanNumber} onChange={(e) => setScanNumber(e.target.value)} />
              <Input aria-label="Push name (opsional)" placeholder="Push name (opsional)" value={scanName} onChange={(e) => setScanName(e.target.value)} />
              <Button type="primary" disabled={!qr.trim()} onClick={() => void act('Perangkat ditautkan', () => simCall('/scan', { qr, phonenumber: scanNumber, pushname: scanName }))}>
                Scan
              </Button>
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title="Masukkan Kode Pairing">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input aria-label="Kode pairing" placeholder="XXXX-XXXX" value={code} onChange={(e) => setCode(e.target.value)} />
              <Input aria-label="Nomor telepon" placeholder="6281xxxxxxx" value={codeNumber} onChange={(e) => setCodeNumber(e.target.value)} />
              <Button type="primary" disabled={!code.trim() || !codeNumber.trim()} onClick={() => void act('Perangkat ditautkan', () => simCall('/pair', { code, phonenumber: codeNumber }))}>
                Tautkan
              </Button>
            </Space>
          </Card>
        </Col>
        <Col span={24}>
          <Card title="Perangkat tertaut">
            <Table<SimDevice>
              rowKey="deviceId"
              size="small"
              dataSource={linked}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              scroll={{ x: true }}
              locale={{ emptyText: 'Kosong' }}
              onRow={(d) => ({ 'data-testid': `sim-device-${d.deviceId}` }) as React.HTMLAttributes<HTMLElement>}
              columns={[
                { title: 'Device', dataIndex: 'deviceId' },
                { title: 'Nomor', key: 'n', render: (_, d) => `${d.identity?.pushname ?? ''} (${d.identity?.phonenumber ?? ''})` },
                { title: 'State', key: 's', render: (_, d) => <Tag>{d.phase}</Tag> },
                { title: 'Pesan terakhir', key: 'm', render: (_, d) => (d.lastSent ? `${d.lastSent.to}: ${d.lastSent.text.slice(0, 40)}` : '-') },
                {
                  title: 'Aksi',
                  key: 'a',
                  render: (_, d) => (
                    <Space wrap size={4}>
                      {CONNECTIONS.map((c) => (
                        <Button key={c.state} size="small" onClick={() => void act(`State: ${c.state}`, () => simCall('/connection', { deviceId: d.deviceId, state: c.state }))}>
                          {c.label}
                        </Button>
                      ))}
                      <Button size="small" danger disabled={!d.lastSent} onClick={() => void act('Pesan dihapus', () => simCall('/revoke', { deviceId: d.deviceId }))}>
                        Hapus pesan terakhir
                      </Button>
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col span={24}>
          <Card title="Kotak masuk nomor">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input aria-label="Nomor kotak masuk" placeholder="6281xxxxxxx" value={inboxNumber} onChange={(e) => setInboxNumber(e.target.value.replace(/[^0-9]/g, ''))} style={{ maxWidth: 320 }} />
              {inbox.messages && inbox.messages.length > 0 ? (
                <List<SimMessage>
                  size="small"
                  bordered
                  dataSource={inbox.messages}
                  renderItem={(m) => (
                    <List.Item>
                      <Space direction="vertical" size={0}>
                        <Typography.Text type="secondary">{`${m.from} · ${formatDateTime(m.date)}`}</Typography.Text>
                        {m.revoked ? <Typography.Text italic>Pesan ini telah dihapus</Typography.Text> : <Typography.Text>{m.text}</Typography.Text>}
                        {m.buttons.length > 0 && <Space>{m.buttons.map((b) => <Tag key={b.id}>{b.title}</Tag>)}</Space>}
                      </Space>
                    </List.Item>
                  )}
                />
              ) : (
                <Empty description="Kosong" />
              )}
              <Space wrap>
                <Select
                  aria-label="Balas ke akun"
                  placeholder="Balas ke akun"
                  style={{ minWidth: 260 }}
                  value={replyDevice}
                  onChange={setReplyDevice}
                  options={linked.filter((d) => d.phase === 'connected').map((d) => ({ value: d.deviceId, label: `${d.identity?.pushname} (${d.identity?.phonenumber})` }))}
                />
                <Input aria-label="Balasan" placeholder="Balasan" value={replyText} onChange={(e) => setReplyText(e.target.value)} style={{ width: 260 }} />
                <Button
                  disabled={!replyDevice || !replyText.trim() || !/^\d{8,15}$/.test(inboxNumber)}
                  onClick={() => void act('Balasan terkirim', () => simCall('/reply', { from: inboxNumber, deviceId: replyDevice, text: replyText }))}
                >
                  Balas
                </Button>
              </Space>
            </Space>
          </Card>
        </Col>
      </Row>
    </div>
  );
}

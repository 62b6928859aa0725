import { useTranslate } from '@refinedev/core';
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
  const t = useTranslate();
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
        <Typography.Title level={3}>{t('sim.title')}</Typography.Title>
        <Alert
          type="warning"
          showIcon
          message={t('sim.refused')}
          description={
            <span>
              {t('sim.signInHint')} <Link to="/signin">{t('sim.signIn')}</Link>
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
      <Typography.Title level={3}>{t('sim.title')}</Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('sim.scan.title')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Select
                aria-label={t('sim.scan.waiting')}
                placeholder={t('sim.scan.waitingPlaceholder')}
                style={{ width: '100%' }}
                value={null}
                onChange={(v: string) => setQr(v)}
                options={waitingQr.map((d) => ({ value: d.qr!, label: d.deviceId }))}
              />
              <Input.TextArea aria-label="QR" rows={3} placeholder={t('sim.scan.qrPlaceholder')} value={qr} onChange={(e) => setQr(e.target.value)} />
              <Input aria-label={t('sim.scan.number')} placeholder={t('sim.scan.number')} value={scanNumber} onChange={(e) => setScanNumber(e.target.value)} />
              <Input aria-label={t('sim.scan.pushname')} placeholder={t('sim.scan.pushname')} value={scanName} onChange={(e) => setScanName(e.target.value)} />
              <Button type="primary" disabled={!qr.trim()} onClick={() => void act(t('sim.done.linked'), () => simCall('/scan', { qr, phonenumber: scanNumber, pushname: scanName }))}>
                {t('sim.scan.submit')}
              </Button>
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('sim.pair.title')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input aria-label={t('sim.pair.code')} placeholder="XXXX-XXXX" value={code} onChange={(e) => setCode(e.target.value)} />
              <Input aria-label={t('sim.pair.number')} placeholder="6281xxxxxxx" value={codeNumber} onChange={(e) => setCodeNumber(e.target.value)} />
              <Button type="primary" disabled={!code.trim() || !codeNumber.trim()} onClick={() => void act(t('sim.done.linked'), () => simCall('/pair', { code, phonenumber: codeNumber }))}>
                {t('sim.pair.submit')}
              </Button>
            </Space>
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('sim.linked.title')}>
            <Table<SimDevice>
              rowKey="deviceId"
              size="small"
              dataSource={linked}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              scroll={{ x: true }}
              locale={{ emptyText: t('shared.empty') }}
              onRow={(d) => ({ 'data-testid': `sim-device-${d.deviceId}` }) as React.HTMLAttributes<HTMLElement>}
              columns={[
                { title: 'Device', dataIndex: 'deviceId' },
                { title: t('sim.linked.number'), key: 'n', render: (_, d) => `${d.identity?.pushname ?? ''} (${d.identity?.phonenumber ?? ''})` },
                { title: 'State', key: 's', render: (_, d) => <Tag>{d.phase}</Tag> },
                { title: t('sim.linked.lastSent'), key: 'm', render: (_, d) => (d.lastSent ? `${d.lastSent.to}: ${d.lastSent.text.slice(0, 40)}` : '-') },
                {
                  title: t('sim.linked.actions'),
                  key: 'a',
                  render: (_, d) => (
                    <Space wrap size={4}>
                      {CONNECTIONS.map((c) => (
                        <Button key={c.state} size="small" onClick={() => void act(t('sim.done.state', { state: c.state }), () => simCall('/connection', { deviceId: d.deviceId, state: c.state }))}>
                          {c.label}
                        </Button>
                      ))}
                      <Button size="small" danger disabled={!d.lastSent} onClick={() => void act(t('sim.done.revoked'), () => simCall('/revoke', { deviceId: d.deviceId }))}>
                        {t('sim.linked.revoke')}
                      </Button>
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('sim.inbox.title')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input aria-label={t('sim.inbox.number')} placeholder="6281xxxxxxx" value={inboxNumber} onChange={(e) => setInboxNumber(e.target.value.replace(/[^0-9]/g, ''))} style={{ maxWidth: 320 }} />
              {inbox.messages && inbox.messages.length > 0 ? (
                <List<SimMessage>
                  size="small"
                  bordered
                  dataSource={inbox.messages}
                  renderItem={(m) => (
                    <List.Item>
                      <Space direction="vertical" size={0}>
                        <Typography.Text type="secondary">{`${m.from} · ${formatDateTime(m.date)}`}</Typography.Text>
                        {m.revoked ? <Typography.Text italic>{t('sim.inbox.revoked')}</Typography.Text> : <Typography.Text>{m.text}</Typography.Text>}
                        {m.buttons.length > 0 && (
                          <Space wrap>
                            {m.buttons.map((b) => {
                              // Reply and stop buttons are pressed as the handset would: a reply to the account that sent the message.
                              if (b.type !== 'reply_button' && b.type !== 'stop_button') return <Tag key={b.id}>{b.title}</Tag>;
                              const sender = linked.find((d) => d.identity?.phonenumber === m.from && d.phase === 'connected');
                              return (
                                <Button
                                  key={b.id}
                                  size="small"
                                  disabled={!sender || m.revoked}
                                  onClick={() => void act(t('sim.done.replied'), () => simCall('/reply', { from: inboxNumber, deviceId: sender!.deviceId, text: b.title, buttonId: b.id }))}
                                >
                                  {b.title}
                                </Button>
                              );
                            })}
                          </Space>
                        )}
                      </Space>
                    </List.Item>
                  )}
                />
              ) : (
                <Empty description={t('shared.empty')} />
              )}
              <Space wrap>
                <Select
                  aria-label={t('sim.inbox.replyAs')}
                  placeholder={t('sim.inbox.replyAs')}
                  style={{ minWidth: 260 }}
                  value={replyDevice}
                  onChange={setReplyDevice}
                  options={linked.filter((d) => d.phase === 'connected').map((d) => ({ value: d.deviceId, label: `${d.identity?.pushname} (${d.identity?.phonenumber})` }))}
                />
                <Input aria-label={t('sim.inbox.reply')} placeholder={t('sim.inbox.reply')} value={replyText} onChange={(e) => setReplyText(e.target.value)} style={{ width: 260 }} />
                <Button
                  disabled={!replyDevice || !replyText.trim() || !/^\d{8,15}$/.test(inboxNumber)}
                  onClick={() => void act(t('sim.done.replied'), () => simCall('/reply', { from: inboxNumber, deviceId: replyDevice, text: replyText }))}
                >
                  {t('sim.inbox.send')}
                </Button>
              </Space>
            </Space>
          </Card>
        </Col>
      </Row>
    </div>
  );
}

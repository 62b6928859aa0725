import { useCustom, useTranslate } from '@refinedev/core';
import { Card, Empty, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { formatDateTimeSeconds } from '../../lib/format';
import { useLive, type LiveMessage } from '../../providers/live';
import { failWith } from '../../lib/notify';
import { JsonView, parseViewType, ViewTypeSwitch } from './MonitorPage';

/** Lines kept on screen; older ones are dropped (the server keeps the last 500 per device). */
export const MAX_LINES = 2000;

interface Sender {
  id?: number | string;
  user_id?: number | string;
  clientid?: string;
  state?: string;
  status?: string;
}

interface Line {
  key: number;
  event: string;
  date: string;
  deviceId?: string;
  sender?: Sender;
  state?: string;
  reconnectTime?: number;
  waitTime?: number;
  number?: string;
}

type Payload = Partial<Omit<Line, 'key' | 'event' | 'date'>> & { date?: string; event?: string; receiver?: { number?: string } };

/** A message matches when its deviceId, or its sender's id, user_id or clientid, equals the id. */
export function matchesId(payload: Payload, id: string): boolean {
  const s = payload.sender;
  return [payload.deviceId, s?.id, s?.user_id, s?.clientid].some((v) => v !== undefined && v !== null && String(v) === id);
}

let seq = 0;
function toLine(msg: { event: string; date: string; data: unknown }): Line {
  const d = (msg.data ?? {}) as Payload;
  return {
    key: ++seq,
    event: d.event ?? msg.event,
    date: d.date ?? msg.date,
    deviceId: d.deviceId,
    sender: d.sender,
    state: d.sender?.state ?? d.state,
    reconnectTime: d.reconnectTime,
    waitTime: d.waitTime,
    number: d.number ?? d.receiver?.number,
  };
}

const LINE_COLORS: Record<string, string> = { 'connection.update': '#fadb14', authenticated: '#52c41a' };

function LineView({ line }: { line: Line }) {
  const color = LINE_COLORS[line.event];
  return (
    <div
      data-testid="realtime-line"
      data-event={line.event}
      style={{ fontFamily: 'monospace', fontSize: 13, padding: '2px 6px', borderBottom: '1px solid rgba(128,128,128,0.15)', background: color ? `${color}33` : undefined, borderLeft: `4px solid ${color ?? 'transparent'}` }}
    >
      <span>{formatDateTimeSeconds(line.date)}</span> · <strong>{line.event}</strong>
      {line.state !== undefined && <> · state: {line.state}</>}
      {line.sender?.status !== undefined && <> · status: {line.sender.status}</>}
      {line.reconnectTime !== undefined && <> · reconnect: {line.reconnectTime} times</>}
      {line.waitTime !== undefined && <> · wait: {line.waitTime} seconds</>}
      {line.number !== undefined && <> · number: {line.number}</>}
    </div>
  );
}

/** /monitor/realtime?id=: the last events of a device, then every new one from 'client-admin' as it arrives. */
export function MonitorRealtime() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const type = parseViewType(params.get('type'));
  const [lines, setLines] = useState<Line[]>([]);
  const dropped = useRef(0);
  const { query, result } = useCustom<{ data: Array<{ event: string; date: string; data: unknown }> }>({
    url: '/dev/monitor/socket',
    method: 'get',
    config: { query: { id } },
    queryOptions: { retry: false },
    // A failed read leaves the view empty; the notification provider says why.
    errorNotification: failWith(t('shared.network')),
  });
  const loading = query.isLoading;
  const history = query.isError ? [] : (result.data?.data ?? []);

  // The device's past events start the list; live ones go on top of them as they arrive.
  useEffect(() => {
    if (query.isSuccess) setLines((query.data?.data.data ?? []).slice(0, MAX_LINES).map(toLine));
  }, [query.isSuccess, query.data]);

  useLive('client-admin', (msg: LiveMessage<unknown>) => {
    const payload = (msg.data ?? {}) as Payload;
    if (!id || !matchesId(payload, id)) return;
    setLines((prev) => {
      const next = [toLine(msg), ...prev];
      if (next.length > MAX_LINES) dropped.current += next.length - MAX_LINES;
      return next.slice(0, MAX_LINES);
    });
  });

  return (
    <div>
      <PageTitle title={`Monitor Realtime${id ? ` — ${id}` : ''}`} extra={<ViewTypeSwitch />} />
      <Card title="Realtime" style={{ marginBottom: 16 }}>
        {dropped.current > 0 && (
          <Typography.Text type="secondary">{t('monitor.latestLines', { max: MAX_LINES })}</Typography.Text>
        )}
        <div style={{ maxHeight: 480, overflow: 'auto' }} data-testid="realtime-lines">
          {lines.length === 0 ? <Empty description={t('shared.empty')} /> : lines.map((l) => <LineView key={l.key} line={l} />)}
        </div>
      </Card>
      <Card title="Socket">{loading ? <Spin /> : <JsonView type={type} value={history} />}</Card>
    </div>
  );
}

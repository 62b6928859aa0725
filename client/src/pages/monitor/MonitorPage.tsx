import { useCustom, useTranslate } from '@refinedev/core';
import { Card, Empty, Segmented, Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { failWith } from '../../lib/notify';
import { JsonTree, JsonViewer } from './JsonTree';

export type ViewType = 'string' | 'JsonViewer' | 'JSONTree';

/** `type` is 'string' or 0, 'JsonViewer' or 1, 'JSONTree' or 2; anything else shows the tree. */
export function parseViewType(raw: string | null): ViewType {
  if (raw === 'string' || raw === '0') return 'string';
  if (raw === 'JsonViewer' || raw === '1') return 'JsonViewer';
  return 'JSONTree';
}

export function JsonView({ type, value }: { type: ViewType; value: unknown }) {
  if (type === 'string') return <pre data-testid="json-string" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{JSON.stringify(value, null, 2)}</pre>;
  if (type === 'JsonViewer') return <JsonViewer value={value} />;
  return <JsonTree value={value} />;
}

export function ViewTypeSwitch() {
  const [params, setParams] = useSearchParams();
  const type = parseViewType(params.get('type'));
  return (
    <Segmented
      value={type}
      options={[
        { label: 'String', value: 'string' },
        { label: 'JsonViewer', value: 'JsonViewer' },
        { label: 'JSONTree', value: 'JSONTree' },
      ]}
      onChange={(v) => {
        const next = new URLSearchParams(params);
        next.set('type', String(v));
        setParams(next, { replace: true });
      }}
    />
  );
}

const TITLES = { local: 'Monitor Local', remote: 'Monitor Remote', socket: 'Monitor Socket' } as const;

/** /monitor/local, /monitor/remote, /monitor/socket: the dev's raw diagnostic views. A failed fetch shows an empty list. */
export function MonitorPage({ kind }: { kind: keyof typeof TITLES }) {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const type = parseViewType(params.get('type'));
  const { query, result } = useCustom<{ data: unknown }>({
    url: `/dev/monitor/${kind}`,
    method: 'get',
    config: { query: { id } },
    queryOptions: { retry: false },
    // A failed read leaves the view empty; the notification provider says why.
    errorNotification: failWith(t('shared.network')),
  });
  const loading = query.isLoading;
  const data = query.isError ? [] : (result.data?.data ?? []);

  const empty = Array.isArray(data) && data.length === 0;
  return (
    <div>
      <PageTitle title={`${TITLES[kind]}${id ? ` — ${id}` : ''}`} extra={<ViewTypeSwitch />} />
      <Card>{loading ? <Spin data-testid="monitor-loading" /> : empty ? <Empty description={t('shared.empty')} /> : <JsonView type={type} value={data} />}</Card>
    </div>
  );
}

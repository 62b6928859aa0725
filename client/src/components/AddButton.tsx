import { PlusOutlined } from '@ant-design/icons';
import { CreateButton } from '@refinedev/antd';
import { useResourceParams, useTranslate } from '@refinedev/core';
import { useCanAtOnce } from '../providers/access';

/**
 * A list's 'Tambah' through Refine's CreateButton (to the resource's create route, shown only when the
 * access-control provider allows it). The link is the one keyboard stop; the button inside is its look.
 * The provider's answer is asked here, known on the first render, so the header does not draw without
 * 'Tambah' and then with it (CreateButton's own check would answer a render later).
 */
export function AddButton({ resource, label }: { resource: string; label?: string }) {
  const t = useTranslate();
  const { resource: item } = useResourceParams({ resource });
  const allowed = useCanAtOnce({ resource, action: 'create', params: { resource: item } });
  if (!allowed) return null;
  return (
    <CreateButton resource={resource} type="primary" icon={<PlusOutlined aria-hidden />} tabIndex={-1} accessControl={{ enabled: false }}>
      {label ?? t('shared.add')}
    </CreateButton>
  );
}

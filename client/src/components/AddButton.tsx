import { PlusOutlined } from '@ant-design/icons';
import { CreateButton } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';

/**
 * A list's 'Tambah' through Refine's CreateButton (to the resource's create route, shown only when the
 * access-control provider allows it). The link is the one keyboard stop; the button inside is its look.
 */
export function AddButton({ resource, label }: { resource: string; label?: string }) {
  const t = useTranslate();
  return (
    <CreateButton resource={resource} type="primary" icon={<PlusOutlined aria-hidden />} tabIndex={-1} accessControl={{ enabled: true, hideIfUnauthorized: true }}>
      {label ?? t('shared.add')}
    </CreateButton>
  );
}

import { DownOutlined } from '@ant-design/icons';
import { useCustomMutation, useTranslate, type HttpError } from '@refinedev/core';
import { Button, DatePicker, Dropdown, Form, Modal, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { serverText } from '../../../lib/serverError';
import type { AccountRow } from '../liveRow';

type Update = (id: number, patch: Partial<AccountRow>) => void;
type Answer = { msg: string; data: { id: number; scheduled_at: string | null } };

/** The schedule as the row shows it: the member's own clock. */
export const scheduleText = (iso: string) => dayjs(iso).format('DD/MM/YYYY HH:mm');

function useScheduleCall(update: Update) {
  const t = useTranslate();
  const { mutate, mutation } = useCustomMutation<Answer>();
  const call = (row: AccountRow, url: string, values: Record<string, unknown>, done: string, onFieldError?: (text: string) => void, onOk?: () => void) =>
    mutate(
      {
        url,
        method: 'post',
        values: { whatsappClientId: row.id, ...values },
        successNotification: () => ({ type: 'success', message: t(done) }),
        errorNotification: (err?: HttpError) => {
          const text = serverText(err?.message ?? '', (err as (HttpError & { code?: unknown }) | undefined)?.code, t) || t('whatsapp.networkError');
          onFieldError?.(text);
          return { type: 'error', message: text };
        },
      },
      {
        onSuccess: ({ data }) => {
          update(row.id, { scheduled_at: data.data.scheduled_at });
          onOk?.();
        },
      },
    );
  return { call, pending: mutation.isPending };
}

/** The dialog of 'Jadwalkan': a date and time in the member's own clock. */
function ScheduleDialog({ row, open, onClose, update }: { row: AccountRow; open: boolean; onClose: () => void; update: Update }) {
  const t = useTranslate();
  const [form] = Form.useForm<{ at: Dayjs }>();
  const { call, pending } = useScheduleCall(update);
  const submit = ({ at }: { at: Dayjs }) =>
    call(
      row,
      '/admin/whatsapp/schedule-blasting',
      { at: at.toDate().toISOString() },
      'whatsapp.schedule.done',
      (text) => form.setFields([{ name: 'at', errors: [text] }]),
      onClose,
    );
  return (
    <Modal
      open={open}
      title={t('whatsapp.schedule.title', { name: row.pushname || row.phonenumber || row.clientid })}
      okText={t('whatsapp.schedule.ok')}
      cancelText={t('whatsapp.schedule.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ at: row.scheduled_at ? dayjs(row.scheduled_at) : undefined }}>
        <Form.Item label={t('whatsapp.schedule.field')} name="at" rules={[{ required: true, message: t('errors.schedule_at_required') }]} extra={t('whatsapp.schedule.hint')}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="DD/MM/YYYY HH:mm"
            style={{ width: '100%' }}
            disabledDate={(d) => d.isBefore(dayjs().startOf('day')) || d.isAfter(dayjs().add(30, 'day'))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The menu beside Start: 'Jadwalkan' opens the dialog. */
export function ScheduleMenu({ row, update }: { row: AccountRow; update: Update }) {
  const t = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Dropdown trigger={['click']} menu={{ items: [{ key: 'schedule', label: t('whatsapp.schedule.menu') }], onClick: () => setOpen(true) }}>
        <Button size="small" type="primary" icon={<DownOutlined aria-hidden />} aria-label={t('whatsapp.schedule.more')} disabled={row.requesting} />
      </Dropdown>
      {open && <ScheduleDialog row={row} open={open} onClose={() => setOpen(false)} update={update} />}
    </>
  );
}

/** 'Jadwalkan' as a button of its own (the admin's row, which has no Start). */
export function ScheduleButton({ row, update }: { row: AccountRow; update: Update }) {
  const t = useTranslate();
  const [open, setOpen] = useState(false);
  if (row.suspended || row.status === 'sending') return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {t('whatsapp.schedule.menu')}
      </Button>
      {open && <ScheduleDialog row={row} open={open} onClose={() => setOpen(false)} update={update} />}
    </>
  );
}

/** The row's schedule, with its cancel. */
export function ScheduledTag({ row, update }: { row: AccountRow; update: Update }) {
  const t = useTranslate();
  const { call, pending } = useScheduleCall(update);
  if (!row.scheduled_at) return null;
  return (
    <div data-testid="wa-schedule">
      <Tag color="purple">{t('whatsapp.schedule.tag', { at: scheduleText(row.scheduled_at) })}</Tag>
      <Typography.Link disabled={pending} onClick={() => call(row, '/admin/whatsapp/cancel-schedule', {}, 'whatsapp.schedule.cancelled')}>
        {t('whatsapp.schedule.cancelSchedule')}
      </Typography.Link>
    </div>
  );
}

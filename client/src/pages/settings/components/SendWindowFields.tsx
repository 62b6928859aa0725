import { useTranslate } from '@refinedev/core';
import { Form, Input, Select, Space } from 'antd';
import { useMemo } from 'react';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The zones the browser knows; the server checks the saved one again. */
function useZoneOptions() {
  return useMemo(() => {
    const zones: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Jakarta'];
    return zones.map((z) => ({ value: z, label: z }));
  }, []);
}

/** 'Jam Kirim' (from–to, in each recipient's local time) and the install's time zone. */
export function SendWindowFields() {
  const t = useTranslate();
  const zones = useZoneOptions();
  const clock = [{ required: true, pattern: HH_MM, message: t('errors.send_window_invalid') }];
  return (
    <>
      <Form.Item label={t('settings.fields.sendWindow')} extra={t('settings.hints.sendWindow')} required>
        <Space>
          <Form.Item name="send_from" noStyle rules={clock}>
            <Input aria-label={t('settings.fields.sendFrom')} placeholder="08:00" maxLength={5} inputMode="numeric" style={{ width: 96 }} />
          </Form.Item>
          <span aria-hidden>–</span>
          <Form.Item name="send_to" noStyle rules={clock}>
            <Input aria-label={t('settings.fields.sendTo')} placeholder="20:00" maxLength={5} inputMode="numeric" style={{ width: 96 }} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item label={t('settings.fields.timeZone')} name="time_zone" extra={t('settings.hints.timeZone')}>
        <Select showSearch options={zones} optionFilterProp="label" />
      </Form.Item>
    </>
  );
}

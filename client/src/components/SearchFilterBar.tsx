import { useTranslate } from '@refinedev/core';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Select, Space, Typography } from 'antd';
import { useId } from 'react';

interface Props {
  /** Placeholder and accessible name of the search box, e.g. 'Cari Member'. */
  label: string;
  text: string;
  onText: (text: string) => void;
  onSearch: (text: string) => void;
  status: string | undefined;
  options: Array<{ value: string; label: string }>;
  onStatus: (status: string) => void;
  statusPlaceholder?: string;
  statusWidth?: number;
  /** Shows 'Filter Status' as a visible label before the select, not only as its accessible name. */
  visibleStatusLabel?: boolean;
}

/**
 * Input.Search's `enterButton`: antd's own button is named after its icon ('search'); this one reads
 * 'Cari' ('Search'). antd recognises an antd Button element here, so it is an element, not a component.
 */
export function useSearchButton(): React.ReactElement {
  const t = useTranslate();
  return <Button icon={<SearchOutlined aria-hidden />} aria-label={t('common.search')} />;
}

/** A list's search box and its 'Filter Status' select, side by side above the table. */
export function SearchFilterBar({ label, text, onText, onSearch, status, options, onStatus, statusPlaceholder, statusWidth = 180, visibleStatusLabel }: Props) {
  const t = useTranslate();
  const searchButton = useSearchButton();
  const statusId = useId();
  const statusLabel = t('shared.filterStatus');
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input.Search
        placeholder={label}
        aria-label={label}
        allowClear
        value={text}
        onChange={(e) => onText(e.target.value)}
        onSearch={onSearch}
        enterButton={searchButton}
        style={{ width: 280 }}
      />
      <Space size={8}>
        {visibleStatusLabel && (
          <Typography.Text>
            <label htmlFor={statusId}>{statusLabel}</label>
          </Typography.Text>
        )}
        <Select
          id={statusId}
          aria-label={statusLabel}
          placeholder={statusPlaceholder}
          value={status}
          options={options}
          onChange={onStatus}
          style={{ width: statusWidth }}
        />
      </Space>
    </Space>
  );
}

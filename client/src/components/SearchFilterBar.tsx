import { Input, Select, Space } from 'antd';

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
}

/** A list's search box and its 'Filter Status' select, side by side above the table. */
export function SearchFilterBar({ label, text, onText, onSearch, status, options, onStatus, statusPlaceholder, statusWidth = 180 }: Props) {
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input.Search
        placeholder={label}
        aria-label={label}
        allowClear
        value={text}
        onChange={(e) => onText(e.target.value)}
        onSearch={onSearch}
        style={{ width: 280 }}
      />
      <Select aria-label="Filter Status" placeholder={statusPlaceholder} value={status} options={options} onChange={onStatus} style={{ width: statusWidth }} />
    </Space>
  );
}

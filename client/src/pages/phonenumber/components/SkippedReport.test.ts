import { describe, expect, it } from 'vitest';
import { withStatusWhenKnown } from './SkippedReport';

const columns = [
  { title: 'Phone Number', dataIndex: 'number', key: 'number' },
  { title: 'Status', dataIndex: 'status', key: 'status' },
  { title: 'Alasan', dataIndex: 'reason', key: 'reason' },
];

describe("the skipped-rows report's Status column", () => {
  it('is left out when no skipped row met a record with a status', () => {
    const rows = [
      { number: '0812', status: '', reason: 'invalid' },
      { number: '0813', status: ' ', reason: 'repeated' },
    ];
    expect(withStatusWhenKnown(columns, rows).map((c) => c.key)).toEqual(['number', 'reason']);
  });

  it('stays when a row carries the status of the record it met', () => {
    const rows = [
      { number: '0812', status: '', reason: 'invalid' },
      { number: '0813', status: 'active', reason: 'existing' },
    ];
    expect(withStatusWhenKnown(columns, rows).map((c) => c.key)).toEqual(['number', 'status', 'reason']);
  });
});

// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLiveOverlay } from '../../client/src/lib/useLiveOverlay';
import { toFilters } from '../../client/src/components/ListTable';

type Row = { id: number; count: number };

describe('live values over a fetched list', () => {
  it('keeps changed rows over the fetched ones until the list is fetched again', () => {
    const first: Row[] = [{ id: 1, count: 0 }, { id: 2, count: 5 }];
    const { result, rerender } = renderHook(({ rows, version }) => useLiveOverlay(rows, version), { initialProps: { rows: first, version: 1 } });
    expect(result.current[0]).toEqual(first);

    act(() => result.current[1]((rs) => rs.map((r) => (r.id === 1 ? { ...r, count: 3 } : r))));
    expect(result.current[0]).toEqual([{ id: 1, count: 3 }, { id: 2, count: 5 }]);
    // Row 2 was not touched: it is still the fetched object.
    expect(result.current[0][1]).toBe(first[1]);

    // A second change builds on the first.
    act(() => result.current[1]((rs) => rs.map((r) => (r.id === 1 ? { ...r, count: r.count + 1 } : r))));
    expect(result.current[0][0]).toEqual({ id: 1, count: 4 });

    // A fresh fetch carries absolute values: it replaces the live ones.
    const second: Row[] = [{ id: 1, count: 9 }, { id: 2, count: 5 }];
    rerender({ rows: second, version: 2 });
    expect(result.current[0]).toEqual(second);
  });

  it('keeps the client-only flags across a fetch, taking every other value from it', () => {
    type Flagged = Row & { waiting?: boolean };
    const keep = ['waiting'] as const;
    const first: Flagged[] = [{ id: 1, count: 0 }];
    const { result, rerender } = renderHook(({ rows, version }) => useLiveOverlay<Flagged>(rows, version, keep), { initialProps: { rows: first, version: 1 } });
    act(() => result.current[1]((rs) => rs.map((r) => ({ ...r, count: 2, waiting: true }))));
    rerender({ rows: [{ id: 1, count: 7 }], version: 2 });
    expect(result.current[0]).toEqual([{ id: 1, count: 7, waiting: true }]);
    act(() => result.current[1]((rs) => rs.map((r) => ({ ...r, waiting: false }))));
    expect(result.current[0]).toEqual([{ id: 1, count: 7, waiting: false }]);
  });

  it('an update that changes nothing keeps the same rows', () => {
    const rows: Row[] = [{ id: 1, count: 0 }];
    const { result } = renderHook(() => useLiveOverlay(rows, 1));
    const before = result.current[0];
    act(() => result.current[1]((rs) => rs));
    expect(result.current[0]).toBe(before);
  });
});

describe('list filters from the address', () => {
  it('passes on the parameters that have a value, as text', () => {
    expect(toFilters({ search: 'toko', status: '', user_id: 7, synced: undefined, s: null })).toEqual([
      { field: 'search', operator: 'eq', value: 'toko' },
      { field: 'user_id', operator: 'eq', value: '7' },
    ]);
  });
});

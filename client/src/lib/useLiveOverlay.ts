import { useCallback, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';

type Key = string | number;
type Keyed = { id?: Key };

interface Overlay<T> {
  version: number;
  /** Rows changed since the last fetch, whole. */
  rows: ReadonlyMap<Key, T>;
  /** Client-only flags kept from before the last fetch (the server never sends them). */
  carry: ReadonlyMap<Key, Partial<T>>;
}

const none = <V,>(): ReadonlyMap<Key, V> => new Map<Key, V>();
const KEEP_NOTHING: readonly never[] = [];

function pick<T>(row: Partial<T>, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (k in row) out[k] = row[k];
  return out;
}

/** The overlay as it stands for `version`: a newer fetch keeps only the client-only flags. */
function settle<T>(o: Overlay<T>, version: number, keep: readonly (keyof T)[]): Overlay<T> {
  if (o.version === version) return o;
  const carry = new Map<Key, Partial<T>>();
  if (keep.length) {
    for (const [id, c] of o.carry) carry.set(id, c);
    for (const [id, row] of o.rows) carry.set(id, pick(row, keep));
  }
  return { version, rows: none<T>(), carry };
}

/**
 * Live values over a fetched list: `setRows` changes rows as a state setter would, and the changed
 * rows are shown over the fetched ones until the list is fetched again (`version`, e.g. the query's
 * `dataUpdatedAt`). Live events carry absolute values, so a fresh fetch replaces them; the fields in
 * `keep` (flags only the client knows, such as a running countdown) survive it.
 */
export function useLiveOverlay<T extends Keyed>(
  fetched: readonly T[] | undefined,
  version: number,
  keep: readonly (keyof T)[] = KEEP_NOTHING,
): [T[], Dispatch<SetStateAction<T[]>>] {
  const base = useMemo(() => (fetched ? [...fetched] : []), [fetched]);
  const latest = useRef({ base, version, keep });
  latest.current = { base, version, keep };
  const [overlay, setOverlay] = useState<Overlay<T>>({ version, rows: none<T>(), carry: none<Partial<T>>() });
  const settled = useMemo(() => settle(overlay, version, keep), [overlay, version, keep]);

  const rows = useMemo(() => merge(base, settled), [base, settled]);

  const setRows = useCallback((action: SetStateAction<T[]>) => {
    setOverlay((prev) => {
      const { base: now, version: v, keep: k } = latest.current;
      const current = settle(prev, v, k);
      const before = merge(now, current);
      const after = typeof action === 'function' ? action(before) : action;
      const byId = new Map(before.map((r) => [r.id, r]));
      let next: Map<Key, T> | null = null;
      for (const r of after) {
        if (r.id === undefined || byId.get(r.id) === r) continue;
        next ??= new Map(current.rows);
        next.set(r.id, r);
      }
      return next ? { ...current, rows: next } : current;
    });
  }, []);

  return [rows, setRows];
}

function merge<T extends Keyed>(base: readonly T[], o: Overlay<T>): T[] {
  if (!o.rows.size && !o.carry.size) return base as T[];
  return base.map((r) => {
    if (r.id === undefined) return r;
    const changed = o.rows.get(r.id);
    if (changed) return changed;
    const carry = o.carry.get(r.id);
    return carry ? { ...r, ...carry } : r;
  });
}

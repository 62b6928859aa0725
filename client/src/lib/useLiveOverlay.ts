import { useCallback, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';

type Keyed = { id?: string | number };

const NONE: ReadonlyMap<string | number, never> = new Map<string | number, never>();

/**
 * Live values over a fetched list: `setRows` changes rows as a state setter would, and the changed
 * rows are kept beside the fetched ones until the list is fetched again (`version`, e.g. the query's
 * `dataUpdatedAt`). Live events carry absolute values, so a fresh fetch simply replaces them.
 */
export function useLiveOverlay<T extends Keyed>(fetched: readonly T[] | undefined, version: number): [T[], Dispatch<SetStateAction<T[]>>] {
  const base = useMemo(() => (fetched ? [...fetched] : []), [fetched]);
  const latest = useRef({ base, version });
  latest.current = { base, version };
  const [overlay, setOverlay] = useState<{ version: number; rows: ReadonlyMap<string | number, T> }>({ version, rows: NONE });
  const patches = overlay.version === version ? overlay.rows : NONE;

  const rows = useMemo(() => base.map((r) => (r.id !== undefined && patches.get(r.id)) || r), [base, patches]);

  const setRows = useCallback((action: SetStateAction<T[]>) => {
    setOverlay((prev) => {
      const { base: now, version: v } = latest.current;
      const current = prev.version === v ? prev.rows : NONE;
      const before = now.map((r) => (r.id !== undefined && current.get(r.id)) || r);
      const after = typeof action === 'function' ? action(before) : action;
      const byId = new Map(before.map((r) => [r.id, r]));
      let next: Map<string | number, T> | null = null;
      for (const r of after) {
        if (r.id === undefined || byId.get(r.id) === r) continue;
        next ??= new Map(current);
        next.set(r.id, r);
      }
      if (!next) return prev.version === v ? prev : { version: v, rows: NONE };
      return { version: v, rows: next };
    });
  }, []);

  return [rows, setRows];
}

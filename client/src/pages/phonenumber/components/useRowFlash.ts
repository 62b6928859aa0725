import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a row stays highlighted after a live counter change. */
const FLASH_MS = 1000;

/**
 * Rows highlighted for a second: `flash(id)` marks a row (again from the start when it was still
 * marked); answers the marked ids and `flash`.
 */
export function useRowFlash(): [ReadonlySet<number>, (id: number) => void] {
  const [marked, setMarked] = useState<ReadonlySet<number>>(new Set());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach((timer) => clearTimeout(timer));
  }, []);

  const flash = useCallback((id: number) => {
    setMarked((m) => new Set(m).add(id));
    clearTimeout(timers.current.get(id));
    timers.current.set(
      id,
      setTimeout(() => {
        timers.current.delete(id);
        setMarked((m) => {
          const next = new Set(m);
          next.delete(id);
          return next;
        });
      }, FLASH_MS),
    );
  }, []);

  return [marked, flash];
}

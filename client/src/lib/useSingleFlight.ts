import { useCallback, useRef } from 'react';

/**
 * Wraps actions so that a new call is dropped while one started through the same hook is still
 * running: a double click on a button that pays, requests or creates sends one request, even before
 * the button has re-rendered as disabled.
 */
export function useSingleFlight() {
  const running = useRef(false);
  return useCallback(
    <A extends unknown[], R>(action: (...args: A) => R | Promise<R>) =>
      async (...args: A): Promise<R | undefined> => {
        if (running.current) return undefined;
        running.current = true;
        try {
          return await action(...args);
        } finally {
          running.current = false;
        }
      },
    [],
  );
}

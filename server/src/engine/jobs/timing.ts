/**
 * Waiting helpers for job loops: a random whole number of seconds in [min, max], a sleep that can be
 * cut short (Stop, Delete, shutdown), and a yield so a loop with zero intervals and an instant gateway
 * never starves the HTTP server.
 */

/** A random whole number in [min, max] (both whole, min ≤ max). */
export function randomWholeSeconds(min: number, max: number, random: () => number = Math.random): number {
  const lo = Math.max(0, Math.floor(Math.min(min, max)));
  const hi = Math.max(lo, Math.floor(Math.max(min, max)));
  return lo + Math.floor(random() * (hi - lo + 1));
}

/** Lets timers and I/O run before the next iteration of a busy loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A sleep another part of the program can end early with `wake()`. */
export class Sleeper {
  private current: { timer: NodeJS.Timeout; resolve: () => void } | null = null;

  /** Resolves after `ms`, or at once when woken meanwhile; true when it slept the whole time. */
  sleep(ms: number): Promise<boolean> {
    this.wake();
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          if (this.current === entry) this.current = null;
          resolve(true);
        }, ms),
        resolve: () => resolve(false),
      };
      entry.timer.unref();
      this.current = entry;
    });
  }

  get sleeping(): boolean {
    return this.current !== null;
  }

  wake(): void {
    const entry = this.current;
    if (!entry) return;
    this.current = null;
    clearTimeout(entry.timer);
    entry.resolve();
  }
}

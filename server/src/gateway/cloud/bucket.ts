/**
 * A token bucket: up to `rate` takes per second, bursts up to `rate`. A take waits for its token
 * (first come, first served) and never fails.
 */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();
  private readonly queue: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly rate: number) {
    this.tokens = rate;
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }

  take(): Promise<void> {
    this.refill();
    if (this.queue.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.schedule();
    });
  }

  /** Callers waiting for a token. */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.rate) * 1000));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.queue.length > 0 && this.tokens >= 1) {
        this.tokens -= 1;
        this.queue.shift()!();
      }
      if (this.queue.length > 0) this.schedule();
    }, wait);
  }

  /** Lets every waiting caller through (the gateway is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const resolve of this.queue.splice(0)) resolve();
  }
}

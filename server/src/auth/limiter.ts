/** Sign-in failures per email+IP: 10 within 15 minutes locks that pair until the window passes. */
export class LoginLimiter {
  private failures = new Map<string, number[]>();
  constructor(
    private max = 10,
    private windowMs = 15 * 60 * 1000,
    private now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  isLocked(key: string): boolean {
    return this.recent(key).length >= this.max;
  }

  fail(key: string): void {
    this.failures.set(key, [...this.recent(key), this.now()]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

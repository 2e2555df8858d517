// Limits repeated failed token requests per Client ID (10 in five minutes: guessing one client's secret)
// and per client address (100: spraying many clients from one place, loose enough for clients behind one
// NAT). Past the limit, attempts are refused with 429 until the oldest failure leaves the window.
import { Problem } from '../http/problem.js';

export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFor: (key: string) => number = (key) => (key.startsWith('ip:') ? 100 : 10),
    private readonly windowMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws a 429 problem when any of the keys has used up its failures. */
  check(keys: string[]): void {
    const now = this.now();
    for (const key of keys) {
      const recent = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
      this.failures.set(key, recent);
      if (recent.length >= this.maxFor(key)) {
        const retryAfter = Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
        throw new Problem('rate-limited', `Too many failed token requests; retry after ${retryAfter} seconds.`, { headers: { 'Retry-After': String(retryAfter) } });
      }
    }
  }

  record(keys: string[]): void {
    const now = this.now();
    for (const key of keys) this.failures.set(key, [...(this.failures.get(key) ?? []), now].slice(-this.maxFor(key)));
    if (this.failures.size > 100_000) this.failures.clear(); // bound memory under a spray of random ids
  }
}

// Limits failed token requests so that guessing stays slow and nobody can lock another client out. Two limits
// over a five-minute window: per Client ID from one client address (10: guessing one client's secret from one
// place) and per address (100: spraying many clients from one place, loose enough for clients behind one
// NAT). Never per Client ID alone: a Client ID is not secret, and a limit on it alone would let anyone lock
// its owner out. Past a limit, that pair or that address is refused with 429 (even with the right secret, so
// that guessing stops there) until its oldest failure leaves the window; the owner's right secret from any
// other address still works. An IPv6 address counts as its /64 network, which one subscriber usually holds.
import { isIPv6 } from 'node:net';
import { Problem } from '../problems.js';

export const failedAttemptLimits = { perClientAndAddress: 10, perAddress: 100, windowMs: 5 * 60_000 } as const;

/** An attempt under way: counted as failed until it is known to have succeeded. */
export interface Attempt {
  succeeded(): void;
}

export class FailedAttempts {
  // Each key's failures in the window, oldest first. The map's order is least recently active first (a key
  // moves to the end when it fails or is refused), so when it is full the key idle longest is dropped: a
  // spray of new keys never clears the limits of anyone still guessing.
  private readonly failures = new Map<string, number[]>();
  private lastSweep: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(options: { now?: () => number; maxKeys?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.lastSweep = this.now();
  }

  /** Starts an attempt: throws a 429 problem when its pair or address has used up its failures, else counts it
   * as failed at once, so that concurrent guesses cannot all pass the check before any of them is counted. */
  begin(clientId: string, address: string): Attempt {
    const now = this.now();
    this.sweep(now);
    const network = networkOf(address);
    const keys = [
      { key: `pair:${network} ${clientId}`, max: failedAttemptLimits.perClientAndAddress, what: 'for this Client ID from this address' },
      { key: `address:${network}`, max: failedAttemptLimits.perAddress, what: 'from this address' },
    ];
    for (const { key, max, what } of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= max) {
        this.touch(key, recent);
        const retryAfter = Math.max(1, Math.ceil((recent[recent.length - max]! + failedAttemptLimits.windowMs - now) / 1000));
        throw new Problem('rate-limited', `Too many failed token requests ${what}; retry after ${retryAfter} seconds.`, {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
    for (const { key, max } of keys) this.touch(key, [...this.recent(key, now), now].slice(-max));
    const [pair, perAddress] = [keys[0]!.key, keys[1]!.key];
    return {
      succeeded: () => {
        // The right secret clears its pair's failures (a typo streak), but only uncounts itself at the
        // address: a caller's own valid credentials must not buy it more guesses at other clients.
        this.failures.delete(pair);
        const atAddress = this.failures.get(perAddress);
        const mine = atAddress?.lastIndexOf(now) ?? -1;
        if (mine >= 0) atAddress!.splice(mine, 1);
      },
    };
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - failedAttemptLimits.windowMs);
  }

  private touch(key: string, failures: number[]): void {
    this.failures.delete(key);
    if (this.failures.size >= this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, failures);
  }

  /** Once a window, drops the keys whose every failure has left it, so memory follows recent failures. */
  private sweep(now: number): void {
    if (now - this.lastSweep < failedAttemptLimits.windowMs) return;
    this.lastSweep = now;
    for (const [key, times] of this.failures) if (times.every((t) => t <= now - failedAttemptLimits.windowMs)) this.failures.delete(key);
  }
}

/** The address a limit counts: IPv4 as is (also when IPv4-mapped), IPv6 as its /64 network. */
export function networkOf(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return address;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const width = (part: string) => groups(part).reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array<string>(8 - width(head) - width(tail)).fill('0');
  const all = [...groups(head), ...zeros, ...groups(tail ?? '')];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

// Limits failed token requests (and, as a second kind with limits of its own, failed console sign-ins, keyed by the
// email address where a token request's are by Client ID) so that guessing stays slow and nobody can lock another
// client out. Two limits
// over a five-minute window: per Client ID from one client address (10: guessing one client's secret from one
// place) and per address (100: spraying many clients from one place, loose enough for clients behind one
// NAT). Never per Client ID alone: a Client ID is not secret, and a limit on it alone would let anyone lock
// its owner out. Past a limit, that pair or that address is refused with 429 (even with the right secret, so
// that guessing stops there) until its window closes; the owner's right secret from any other address still
// works. An IPv6 address counts as its /64 network, which one subscriber usually holds.
//
// The counts live where `limits` keeps them (limits/limits.ts): shared by every instance on PostgreSQL or Redis,
// so N instances do not give a guesser N times the tries. Each key's window is fixed: it opens at the key's first
// failure and closes five minutes later (rate-limiter-flexible's), where this table once let each failure leave
// five minutes after it happened; ten failures still need five minutes per pair.
//
// When the store cannot be reached the limits fail closed: a token request is refused with 429 and a short
// Retry-After (nothing can say how many guesses were made, and an attacker who can make the counter store fail
// must not get unlimited guesses by it), and the limits module logs the failure. Tokens already issued keep
// working for their hour; only new ones wait for the store.
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { type Limiter, type Limits, memoryLimits } from '../../platform/limits/limits.js';
import { Problem } from '../../platform/problems.js';

export const failedAttemptLimits = { perClientAndAddress: 10, perAddress: 100, windowMs: 5 * 60_000 } as const;

/** Retry-After of a token request refused because the limits cannot be checked. */
export const uncheckedRetryAfterSeconds = 5;

/** An attempt under way: counted as failed until it is known to have succeeded. */
export interface Attempt {
  succeeded(): Promise<void>;
  /** Refused, but not a guess (a secret the client really had, since replaced): this attempt alone is uncounted,
   * and the pair's earlier failures stay, so sending it between guesses buys no more of them. */
  notAGuess(): Promise<void>;
}

/** What the attempts are: their limits' names (apart from every other limit's) and how a refusal names them. */
export interface AttemptKind {
  /** Prefix of the limits' names: `failed` for token requests. */
  name: string;
  /** `token requests`, `sign-ins`. */
  what: string;
  /** What the identifier is: `Client ID`, `email address`. */
  identifier: string;
}

export const tokenRequests: AttemptKind = { name: 'failed', what: 'token requests', identifier: 'Client ID' };

export class FailedAttempts {
  private readonly pairs: Limiter;
  private readonly addresses: Limiter;

  constructor(
    limits: Limits = memoryLimits(),
    private readonly kind: AttemptKind = tokenRequests,
  ) {
    const seconds = failedAttemptLimits.windowMs / 1000;
    this.pairs = limits.limiter(`${kind.name}-pair`, failedAttemptLimits.perClientAndAddress, seconds);
    this.addresses = limits.limiter(`${kind.name}-address`, failedAttemptLimits.perAddress, seconds);
  }

  /** Starts an attempt: throws a 429 problem when its pair or address has used up its failures, else counts it
   * as failed at once, so that concurrent guesses (on any instance) cannot all pass the check before any of them
   * is counted. A refused attempt is not counted against the address. */
  async begin(clientId: string, address: string): Promise<Attempt> {
    const network = networkOf(address);
    const pair = `${network} ${clientKey(clientId)}`;
    try {
      const byPair = await this.pairs.consume(pair);
      if (!byPair.allowed) throw refused(this.kind, `for this ${this.kind.identifier} from this address`, byPair.msBeforeNext);
      const byAddress = await this.addresses.consume(network);
      if (!byAddress.allowed) {
        await this.pairs.reward(pair).catch(() => {});
        throw refused(this.kind, 'from this address', byAddress.msBeforeNext);
      }
    } catch (err) {
      if (err instanceof Problem) throw err;
      throw new Problem(
        'rate-limited',
        `Failed ${this.kind.what} cannot be counted just now; retry after ${uncheckedRetryAfterSeconds} seconds.`,
        { retryAfterSeconds: uncheckedRetryAfterSeconds },
      );
    }
    return {
      // The right secret clears its pair's failures (a typo streak), but only uncounts itself at the address: a
      // caller's own valid credentials must not buy it more guesses at other clients. The token is issued even
      // when the store fails here: the credentials were right.
      succeeded: async () => {
        await Promise.all([this.pairs.delete(pair), this.addresses.reward(network)]).catch(() => {});
      },
      notAGuess: async () => {
        await Promise.all([this.pairs.reward(pair), this.addresses.reward(network)]).catch(() => {});
      },
    };
  }
}

function refused(kind: AttemptKind, what: string, msBeforeNext: number): Problem {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new Problem('rate-limited', `Too many failed ${kind.what} ${what}; retry after ${retryAfter} seconds.`, {
    retryAfterSeconds: retryAfter,
  });
}

/** A Client ID as a key: as sent when it looks like one, else a digest (a key stays short, whatever is sent). */
function clientKey(clientId: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(clientId) ? clientId : `sha256:${createHash('sha256').update(clientId).digest('base64url')}`;
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

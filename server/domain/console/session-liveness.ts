// Whether a console session is live, as the bearer check of a token minted for it asks on every request
// (auth/token-issuer.ts `SessionCheck`): read from the store at most once per session every few seconds on each
// instance, like a client's generation (auth/client-generations.ts), and forgotten at once when this process ends
// the session. The times are kept, not the verdict, so idle and absolute expiry are exact whatever the cache's age;
// only a sign-out on another instance waits for the cache (at most `sessionCacheSeconds`).
import type { Store } from '../../platform/store/database.js';
import type { SessionCheck } from '../auth/token-issuer.js';

export const sessionCacheSeconds = 5;

export interface SessionTimes {
  lastSeenAt: number;
  expiresAt: number;
  endedAt: number | null;
}

/** Whether a session with these times is live at `now`, given the idle limit. */
export const isLiveAt = (t: SessionTimes, now: number, idleMs: number): boolean =>
  t.endedAt === null && now < t.expiresAt && now < t.lastSeenAt + idleMs;

export class SessionLiveness implements SessionCheck {
  private readonly cached = new Map<string, { times: Promise<SessionTimes | undefined>; until: number }>();
  private readonly maxEntries = 10_000;

  constructor(
    private readonly store: Store,
    private readonly settings: { idleMs: number; now: () => number },
  ) {}

  async isLive(sessionId: string): Promise<boolean> {
    const times = await this.current(sessionId);
    return times !== undefined && isLiveAt(times, this.settings.now(), this.settings.idleMs);
  }

  /** This process moved the session's last activity on: later checks here count from it. */
  seen(sessionId: string, times: SessionTimes): void {
    this.remember(sessionId, Promise.resolve(times));
  }

  /** This process ended the session: its tokens are refused here at once. */
  forget(sessionId: string): void {
    this.cached.delete(sessionId);
  }

  private current(sessionId: string): Promise<SessionTimes | undefined> {
    const hit = this.cached.get(sessionId);
    if (hit && hit.until > this.settings.now()) return hit.times;
    const times = this.read(sessionId);
    times.catch(() => {
      if (this.cached.get(sessionId)?.times === times) this.cached.delete(sessionId); // a failed read is not kept
    });
    this.remember(sessionId, times);
    return times;
  }

  private remember(sessionId: string, times: Promise<SessionTimes | undefined>): void {
    this.cached.delete(sessionId);
    if (this.cached.size >= this.maxEntries) this.cached.delete(this.cached.keys().next().value!);
    this.cached.set(sessionId, { times, until: this.settings.now() + sessionCacheSeconds * 1000 });
  }

  private async read(sessionId: string): Promise<SessionTimes | undefined> {
    const row = await this.store.db
      .selectFrom('console_sessions')
      .select(['last_seen_at', 'expires_at', 'ended_at'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    return (
      row && {
        lastSeenAt: Number(row.last_seen_at),
        expiresAt: Number(row.expires_at),
        endedAt: row.ended_at === null ? null : Number(row.ended_at),
      }
    );
  }
}

// Console sessions: sign-in (an email address and a password, limited like failed token requests), the session a
// cookie names, sign-out, and the short-lived bearer tokens minted for a session. The cookie carries a random 256-bit
// token; the store keeps its SHA-256 only, so a copy of the store opens no session. Each request of a session moves
// its idle limit on; the session ends at the idle limit, at its absolute end, or at sign-out, and its tokens with it
// (session-liveness.ts is how the bearer check knows).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/console/schema.js';
import { newConsoleSessionId } from '../../platform/ids/identifiers.js';
import type { Environment } from '../../platform/environment.js';
import { type Challenge, Problem } from '../../platform/problems.js';
import { foldCase } from '../../platform/store/case-folding.js';
import type { Store } from '../../platform/store/database.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import type { FailedAttempts } from '../auth/failed-attempts.js';
import type { Principal } from '../auth/principal.js';
import type { IssuedToken, TokenIssuer } from '../auth/token-issuer.js';
import type { Owner } from '../events/owners.js';
import { dummyPasswordHash, passwordMatches } from './passwords.js';
import { isLiveAt, type SessionLiveness } from './session-liveness.js';

/** A live session as a request of it knows it. */
export interface LiveSession {
  id: string;
  csrfToken: string;
  user: { id: string; email: string };
  owner: Owner;
  lastSeenAt: number;
  expiresAt: number;
}

/** The session as `getConsoleSession` shows it. */
export type SessionView = components['schemas']['ConsoleSession'];

/** A console token lives 15 minutes at most, and never beyond its session's absolute end. */
export const consoleTokenLifetimeSeconds = 900;

export interface SessionSettings {
  idleMs: number;
  lifetimeMs: number;
  environment: Environment;
  now: () => number;
}

const tokenShape = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** The challenge of a console 401 (RFC 9110 asks every 401 for one): the `Cookie` scheme of the Cookie-based HTTP
 * Authentication draft, naming where to sign in. */
export const sessionChallenge: Challenge = { scheme: 'Cookie', realm: 'console', formAction: '/console/api/sessions' };

export const noSession = () =>
  new Problem('unauthorized', 'No console session; sign in at POST /console/api/sessions.', { challenge: sessionChallenge });

export class ConsoleSessions {
  constructor(
    private readonly store: Store,
    private readonly tokens: TokenIssuer,
    private readonly failedSignIns: FailedAttempts,
    readonly liveness: SessionLiveness,
    private readonly settings: SessionSettings,
  ) {}

  /**
   * Checks the email address and password and starts a session: the cookie's token (never stored) and the session.
   * A wrong address and a wrong password are refused alike (401 `invalid-sign-in`) and take as long (an unknown
   * address is checked against a dummy hash); failures are limited per address and client address (429).
   */
  async signIn(email: string, password: string, ip: string): Promise<{ token: string; session: SessionView }> {
    const emailKey = foldCase(email.trim());
    const attempt = await this.failedSignIns.begin(emailKey, ip);
    const user = await this.store.db
      .selectFrom('console_users')
      .select(['id', 'password_hash'])
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    const matches = await passwordMatches(password, user?.password_hash ?? (await dummyPasswordHash()));
    if (!user || !matches)
      throw new Problem('invalid-sign-in', 'The email address or the password is wrong.', { challenge: sessionChallenge });
    await attempt.succeeded();
    const now = this.settings.now();
    const token = newToken();
    const id = newConsoleSessionId();
    await this.store.db.transaction().execute(async (trx) => {
      // The user's sessions that ended a day ago or more go: a user's rows stay few without a sweep of their own.
      const dayAgo = now - 24 * 60 * 60 * 1000;
      await trx
        .deleteFrom('console_sessions')
        .where('user_id', '=', user.id)
        .where((eb) =>
          eb.or([eb('expires_at', '<', dayAgo), eb('ended_at', '<', dayAgo), eb('last_seen_at', '<', dayAgo - this.settings.idleMs)]),
        )
        .execute();
      await trx
        .insertInto('console_sessions')
        .values({
          id,
          token_hash: hashOf(token),
          csrf_token: newToken(),
          user_id: user.id,
          created_at: now,
          last_seen_at: now,
          expires_at: now + this.settings.lifetimeMs,
          ended_at: null,
        })
        .execute();
    });
    const session = await this.resolve(token);
    if (!session) throw new Error('A session just started is not live.');
    return { token, session: await this.view(session) };
  }

  /**
   * The live session a cookie's token names, its idle limit moved on by this request; undefined when there is none
   * (no such token, signed out, idle too long, past its absolute end).
   */
  async resolve(token: string | undefined): Promise<LiveSession | undefined> {
    if (token === undefined || !tokenShape.test(token)) return undefined;
    const row = await this.store.db
      .selectFrom('console_sessions as s')
      .innerJoin('console_users as u', 'u.id', 's.user_id')
      .select([
        's.id',
        's.csrf_token',
        's.last_seen_at',
        's.expires_at',
        's.ended_at',
        'u.public_id',
        'u.email',
        'u.owner_kind',
        'u.owner_id',
      ])
      .where('s.token_hash', '=', hashOf(token))
      .executeTakeFirst();
    const now = this.settings.now();
    const times = { lastSeenAt: Number(row?.last_seen_at), expiresAt: Number(row?.expires_at), endedAt: row?.ended_at ?? null };
    if (!row || !isLiveAt(times, now, this.settings.idleMs)) return undefined;
    // The compare-and-set on "not ended" keeps a sign-out that raced this request ended.
    const touched = await this.store.db
      .updateTable('console_sessions')
      .set({ last_seen_at: now })
      .where('id', '=', row.id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) !== 1) return undefined;
    this.liveness.seen(row.id, { lastSeenAt: now, expiresAt: times.expiresAt, endedAt: null });
    return {
      id: row.id,
      csrfToken: row.csrf_token,
      user: { id: row.public_id, email: row.email },
      owner: { kind: row.owner_kind, id: Number(row.owner_id) },
      lastSeenAt: now,
      expiresAt: times.expiresAt,
    };
  }

  /** Whether `sent` is the session's CSRF token (compared in constant time). */
  csrfMatches(session: LiveSession, sent: string | undefined): boolean {
    if (sent === undefined) return false;
    const a = Buffer.from(sent);
    const b = Buffer.from(session.csrfToken);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async view(session: LiveSession): Promise<SessionView> {
    const table = session.owner.kind === 'merchant' ? 'merchants' : 'partners';
    const owner = await this.store.db.selectFrom(table).select('name').where('id', '=', session.owner.id).executeTakeFirstOrThrow();
    return {
      user: session.user,
      owner: { ...session.owner, name: owner.name },
      environment: this.settings.environment,
      csrfToken: session.csrfToken,
      idleExpiresAt: isoTimestamp(Math.min(session.lastSeenAt + this.settings.idleMs, session.expiresAt)),
      expiresAt: isoTimestamp(session.expiresAt),
    };
  }

  /** Ends the session, and with it every token minted for it (at once here, within seconds elsewhere). */
  async end(session: LiveSession): Promise<void> {
    await this.store.db
      .updateTable('console_sessions')
      .set({ ended_at: this.settings.now() })
      .where('id', '=', session.id)
      .where('ended_at', 'is', null)
      .execute();
    this.liveness.forget(session.id);
  }

  /** A bearer token of the session's merchant or partner, ending with the session. */
  mintToken(session: LiveSession): Promise<IssuedToken> {
    const principal: Principal =
      session.owner.kind === 'merchant'
        ? { kind: 'merchant', merchantId: session.owner.id, sessionId: session.id }
        : { kind: 'partner', partnerId: session.owner.id, sessionId: session.id };
    const left = Math.floor((session.expiresAt - this.settings.now()) / 1000);
    return this.tokens.issue(principal, { lifetimeSeconds: Math.min(consoleTokenLifetimeSeconds, left) });
  }
}

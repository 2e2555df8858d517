// The console's HTTP side (openapi/console/): the session cookie, the checks that a request came from the console's
// own page, and the security handlers of its two schemes. A session is a cookie, not a bearer token, so the console
// group's security replaces the bearer check for its operations only (groups/registry.ts).
//
// - The cookie: `console_session`, or `__Host-console_session` with `Secure` when the console is served over https
//   (the request's own scheme, or the configured PUBLIC_ORIGIN's); HttpOnly, SameSite=Strict, Path=/.
// - `consoleOrigin` runs before anything reads the request (the group's guard, mount-group.ts): an `Origin` that is
//   not the console's own is refused (403) on every method; a request that changes something needs its `Origin`,
//   or failing that `Sec-Fetch-Site: same-origin` (a sign-in must show one of them), and a form post (the kinds of
//   body another site's page can send without asking) is refused unless its `Origin` is the console's.
// - `ConsoleSession` resolves the cookie's session (401 without a live one) and, on a request that changes
//   something, checks the session's CSRF token in `X-CSRF-Token` (403); `ConsoleCsrf` checks the same token.
import type { Request, RequestHandler } from 'express';
import { routes as consoleRoutes } from '../../generated/console/routes.js';
import type { RequestContext } from '../domain/auth/principal.js';
import type { LiveSession } from '../domain/console/sessions.js';
import { noSession } from '../domain/console/sessions.js';
import type { Services } from '../domain/services.js';
import { Problem } from '../platform/problems.js';
import { contextOf } from './request-context.js';

/** The context of a console operation: the live session, and how its cookie is written. */
export interface ConsoleContext extends RequestContext {
  session: LiveSession;
  cookie: CookieStyle;
}

/** The context of the sign-in, which has no session yet. */
export interface ConsoleSignInContext extends RequestContext {
  cookie: CookieStyle;
}

export interface CookieStyle {
  secure: boolean;
}

const cookieName = 'console_session';
const hostCookieName = `__Host-${cookieName}`;
const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The bodies a page of another site can post without a preflight (the CORS "simple" types). */
const formTypes = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

/** The origin the console is served at: the configured one, else the request's own scheme and Host. */
function consoleOriginOf(req: Request, publicOrigin: string | undefined): string {
  return publicOrigin ?? `${req.protocol}://${req.headers.host ?? ''}`;
}

export const cookieStyleOf = (req: Request, publicOrigin: string | undefined): CookieStyle => ({
  secure: consoleOriginOf(req, publicOrigin).startsWith('https:'),
});

/** `Set-Cookie` starting a session with this token. */
export const sessionCookie = (token: string, style: CookieStyle): string =>
  style.secure
    ? `${hostCookieName}=${token}; Path=/; Secure; HttpOnly; SameSite=Strict`
    : `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`;

/** `Set-Cookie` that makes the browser forget the session's cookie. */
export const clearedCookie = (style: CookieStyle): string =>
  style.secure
    ? `${hostCookieName}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`
    : `${cookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

/** The session token the request's cookie carries: the `__Host-` one when the console is served over https. */
function sessionTokenOf(req: Request, style: CookieStyle): string | undefined {
  const wanted = style.secure ? hostCookieName : cookieName;
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === wanted) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

const crossSite = () => new Problem('forbidden', "Console requests are accepted from the console's own origin only.");
const csrfMissing = () => new Problem('forbidden', "Send the session's CSRF token in the X-CSRF-Token header.");
const csrfWrong = () => new Problem('forbidden', "The X-CSRF-Token header is not this session's CSRF token.");

// The console's operations, by method and path (the generated route table).
const operations = consoleRoutes.map((r) => ({
  method: r.method.toUpperCase(),
  path: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/**
 * The console group's guard, before the request is read: refuses what another site's page could have sent. Also
 * gives the request validator the cookie the `ConsoleSession` scheme names (`req.cookies`): the validator checks the
 * cookie is there before the security handler runs and answers its absence as a missing bearer token, while the
 * handler reads the cookie itself and answers the console's own 401; so the validator is shown one, whatever was sent.
 */
export function consoleOrigin(publicOrigin: string | undefined): RequestHandler {
  return (req, _res, next) => {
    // The validator shows the cookie to the security handler (see below); a request of no console operation (another
    // method, an unknown path) goes on to its 405 or 404 unjudged.
    (req as Request & { cookies?: Record<string, string> }).cookies = { [cookieName]: 'checked-by-the-security-handler' };
    if (!operations.some((o) => o.method === req.method && o.path.test(req.path))) return next();
    const own = consoleOriginOf(req, publicOrigin);
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== own) return next(crossSite());
    if (unsafe.has(req.method) && origin === undefined) {
      const site = req.headers['sec-fetch-site'];
      const signIn = req.path === '/console/api/sessions';
      // A sign-in must show it came from the console's page; other changes need the session's CSRF token as well.
      if ((site !== undefined && site !== 'same-origin') || (signIn && site === undefined)) return next(crossSite());
      if (formTypes.test(req.headers['content-type'] ?? '')) return next(crossSite());
    }
    next();
  };
}

/** The security handlers of the console's schemes: both resolve the session once per request. */
export function consoleSecurity(
  s: Pick<Services, 'consoleSessions'>,
  publicOrigin: string | undefined,
): { ConsoleSession: (req: Request) => Promise<ConsoleContext>; ConsoleCsrf: (req: Request) => Promise<ConsoleContext> } {
  const resolved = new WeakMap<Request, Promise<ConsoleContext>>();
  const contextFor = (req: Request): Promise<ConsoleContext> => {
    let context = resolved.get(req);
    if (!context) {
      context = (async () => {
        const cookie = cookieStyleOf(req, publicOrigin);
        const session = await s.consoleSessions.resolve(sessionTokenOf(req, cookie)).catch((err: unknown) => {
          // The store failed, not the caller: a status of 500 makes the validator answer (and log) it as ours, not 401.
          throw Object.assign(new Error(`Reading the console session failed: ${(err as Error).message}`, { cause: err }), { status: 500 });
        });
        if (!session) throw noSession();
        return { ...contextOf(req), session, cookie };
      })();
      resolved.set(req, context);
    }
    return context;
  };
  const withCsrf = async (req: Request): Promise<ConsoleContext> => {
    const context = await contextFor(req);
    const sent = req.headers['x-csrf-token'];
    if (typeof sent !== 'string') throw csrfMissing();
    if (!s.consoleSessions.csrfMatches(context.session, sent)) throw csrfWrong();
    return context;
  };
  return {
    ConsoleSession: (req) => (unsafe.has(req.method) ? withCsrf(req) : contextFor(req)),
    ConsoleCsrf: withCsrf,
  };
}

export const consoleSignInContext = (req: Request, publicOrigin: string | undefined): ConsoleSignInContext => ({
  ...contextOf(req),
  cookie: cookieStyleOf(req, publicOrigin),
});

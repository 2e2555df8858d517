// The console's own operations (the `console` document: sign-in, the session, credentials, the request log),
// called with openapi-fetch typed by the document's generated types. The session is the HttpOnly cookie the browser
// sends by itself; the CSRF token the session answered is kept in this module's memory only, and sent with every
// request that changes something.
import { ApiProblemError, byCursor, TokenProvider, unwrap } from '@payout-service/client';
import createClient from 'openapi-fetch';
import type { components, operations, paths } from '../../../generated/console/schema.js';

export type Session = components['schemas']['ConsoleSession'];
export type Credential = components['schemas']['ConsoleCredential'];
export type CredentialCreated = components['schemas']['ConsoleCredentialCreated'];
export type CredentialRolled = components['schemas']['ConsoleCredentialRolled'];
export type RequestLog = components['schemas']['RequestLog'];
export type RequestLogQuery = Omit<NonNullable<operations['listRequestLogs']['parameters']['query']>, 'Cursor'>;

const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
let csrfToken: string | undefined;
api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ response, schemaPath }) {
    // A 401 to anything but the sign-in itself and the first look at the session means the session has ended.
    if (response.status === 401 && schemaPath !== '/console/api/sessions' && csrfToken !== undefined) {
      csrfToken = undefined;
      for (const listener of endedListeners) listener();
    }
    return response;
  },
});

/** Whether an error means the session is over (signed out elsewhere, idle too long, or past its 12 hours). */
export const isSessionEnded = (error: unknown): boolean => error instanceof ApiProblemError && error.status === 401;

const endedListeners = new Set<() => void>();
/** Called when a request of the session is refused because it ended: the console goes back to its sign-in page. */
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => void endedListeners.delete(listener);
}

function remember(session: Session): Session {
  csrfToken = session.csrfToken;
  return session;
}

/** The live session, or undefined when there is none (no cookie, or it ended). */
export async function currentSession(): Promise<Session | undefined> {
  const answer = await api.GET('/console/api/session');
  if (answer.response.status === 401) return undefined;
  return remember(await unwrap(answer));
}

export async function signIn(email: string, password: string): Promise<Session> {
  return remember(await unwrap(api.POST('/console/api/sessions', { body: { email, password } })));
}

export async function signOut(): Promise<void> {
  try {
    await unwrap(api.DELETE('/console/api/session'));
  } finally {
    csrfToken = undefined;
    accessTokens = newAccessTokens();
  }
}

const newAccessTokens = () => new TokenProvider(() => unwrap(api.POST('/console/api/session/access-tokens')));
/**
 * The public API's bearer tokens for the session's merchant or partner (createConsoleAccessToken): the client package
 * caches each, renews it before it expires and once after a 401, as it does with credentials.
 */
export let accessTokens = newAccessTokens();

/** The credentials, a page at a time (the client package's walker of any cursor list). */
export function eachCredential(pageSize: number) {
  return byCursor((Cursor) => unwrap(api.GET('/console/api/credentials', { params: { query: { PageSize: pageSize, Cursor } } })));
}

export const createCredential = () => unwrap(api.POST('/console/api/credentials'));

export const rollCredential = (clientId: string, overlapSeconds: number) =>
  unwrap(api.POST('/console/api/credentials/{clientId}/roll', { params: { path: { clientId } }, body: { overlapSeconds } }));

export const revokeCredential = (clientId: string) =>
  unwrap(api.DELETE('/console/api/credentials/{clientId}', { params: { path: { clientId } } }));

export function eachRequestLog(query: RequestLogQuery) {
  return byCursor((Cursor) => unwrap(api.GET('/console/api/request-logs', { params: { query: { ...query, Cursor } } })));
}

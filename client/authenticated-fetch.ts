// The fetch every client sends through: adds the bearer token and a request id, and when the server
// answers 401 to a token this client obtained, renews the token and retries the request once.
import type { TokenProvider } from './token-provider.js';

export type Fetch = (request: Request) => Promise<Response>;

/** Where a client's token comes from: its credentials (renewed as needed) or a caller-supplied token. */
export type TokenSource = { provider: TokenProvider } | { token: string | (() => string | Promise<string>) };

export const newRequestId = (): string =>
  `req_${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

export function authenticatedFetch(source: TokenSource, base: Fetch = (r) => globalThis.fetch(r)): Fetch {
  const tokenFor = async (): Promise<string> => {
    if ('provider' in source) return source.provider.get();
    return typeof source.token === 'function' ? source.token() : source.token;
  };
  const send = async (request: Request, token: string): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer ${token}`);
    if (!headers.has('X-Request-Id')) headers.set('X-Request-Id', newRequestId());
    return base(new Request(request, { headers }));
  };
  return async (request) => {
    const retry = 'provider' in source ? request.clone() : undefined;
    const token = await tokenFor();
    const response = await send(request, token);
    if (response.status !== 401 || !retry || !('provider' in source)) return response;
    // The token may have been revoked or the signing key rotated: one fresh token, one more try.
    source.provider.invalidate(token);
    await response.body?.cancel();
    return send(retry, await source.provider.get());
  };
}

/** The fetch for unauthenticated calls (token issuance): only the request id. */
export function plainFetch(base: Fetch = (r) => globalThis.fetch(r)): Fetch {
  return (request) => {
    if (request.headers.has('X-Request-Id')) return base(request);
    const headers = new Headers(request.headers);
    headers.set('X-Request-Id', newRequestId());
    return base(new Request(request, { headers }));
  };
}

// The bearer token on every request of a client; when the server answers 401 to a token this client obtained,
// the token is renewed and the request sent once more. It wraps the retrying fetch (create-clients.ts), so a
// token comes before the attempts and the renewal happens once however many attempts a request took.
import type { TokenProvider } from './token-provider.js';
import type { Fetch } from './transport.js';

export type { Fetch } from './transport.js';

/** Where a client's token comes from: its credentials (renewed as needed) or a caller-supplied token. */
export type TokenSource = { provider: TokenProvider } | { token: string | (() => string | Promise<string>) };

export function authenticatedFetch(source: TokenSource, base: Fetch): Fetch {
  const tokenFor = async (): Promise<string> => {
    if ('provider' in source) return source.provider.get();
    return typeof source.token === 'function' ? source.token() : source.token;
  };
  const send = async (request: Request, token: string, signal: AbortSignal): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return base(new Request(request, { headers, signal }));
  };
  return async (request) => {
    const retry = 'provider' in source ? request.clone() : undefined;
    const token = await tokenFor();
    const response = await send(request, token, request.signal);
    if (response.status !== 401 || !retry || !('provider' in source)) return response;
    // The token may have been revoked or the signing key rotated: one fresh token, one more try.
    source.provider.invalidate(token);
    await response.body?.cancel();
    return send(retry, await source.provider.get(), request.signal);
  };
}

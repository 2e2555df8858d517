// The generated client of each group, pointed at its mock as a user would: the mock's origin is both the base
// URL and (for A, B and D) the token issuer, because Prism serves every path of a document at its root.
import {
  createBankingClient,
  createCounterpartyClient,
  createMerchantClient,
  createPartnerClient,
  createPlatformClient,
  type Credentials,
} from '../../client/create-clients.js';
import createClient from 'openapi-fetch';
import type { Fetch } from '../../client/authenticated-fetch.js';
import type { paths as ConsolePaths } from '../../generated/console/schema.js';
import type { Group } from '../../generated/index.js';
import { operationsOf } from '../support/contract.js';
import { exampleRequest, isSecured, type OperationRef } from './operation-requests.js';

/** What the mock suite calls on every client: openapi-fetch's generic `request`, untyped by design here. */
export interface AnyClient {
  request(
    method: string,
    path: string,
    init: { params?: ExampleParams; body?: unknown },
  ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}
type ExampleParams = { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, string> };

export type ClientAuth = { credentials: Credentials } | { token: string };

const factories: Record<Group, (o: { baseUrl: string; authUrl: string; fetch?: Fetch } & ClientAuth) => unknown> = {
  merchant: (o) => createMerchantClient(o),
  platform: (o) => createPlatformClient(o),
  partner: (o) => createPartnerClient(o),
  banking: (o) => createBankingClient(o),
  counterparty: (o) => createCounterpartyClient(o),
  // The console's API is not the client package's: the page calls it with a session cookie and its CSRF token,
  // which a mock takes whatever their value (scripts/mock/front.ts).
  console: (o) => createClient<ConsolePaths>({ baseUrl: o.baseUrl, fetch: withConsoleSession(o.fetch ?? globalThis.fetch) }),
};

/** What the console's page sends with each request: its session cookie and CSRF token. */
function withConsoleSession(fetch: Fetch): Fetch {
  return (request) => {
    const headers = new Headers(request.headers);
    headers.set('Cookie', 'console_session=Vq3u0k8Ue9XbYw1tq2pH7mZ5cL4rN6sD0aF8gJ2hK1o');
    headers.set('X-CSRF-Token', '0kT9wq3nB6Xc2vZr8yLp4mHd1sGf7aJe5uQi9oNt3bE');
    return fetch(new Request(request, { headers }));
  };
}

/** How a group's client authenticates against its mock: the token request example's credentials; the console's
 * session needs none. */
export const mockAuth = (group: Group): ClientAuth =>
  group === 'console' ? { token: 'unused' } : { credentials: exampleCredentials(group) };

export function clientFor(group: Group, mockUrl: string, auth: ClientAuth, fetch?: Fetch): AnyClient {
  return factories[group]({ baseUrl: mockUrl, authUrl: mockUrl, fetch, ...auth }) as AnyClient;
}

/** The group's token operation: the unsecured one whose request example carries client credentials. */
export function tokenOperation(group: Group): OperationRef {
  const found = operationsOf(group)
    .map((o) => ({ group, ...o }))
    .find((ref) => !isSecured(ref) && ref.op.requestBody);
  if (!found) throw new Error(`${group} documents no token operation`);
  return found;
}

/** The client credentials of the group's token request example (`client_id` for OAuth, `clientId` for partners). */
export function exampleCredentials(group: Group): Credentials {
  const body = exampleRequest(tokenOperation(group)).body as Record<string, unknown> | undefined;
  const clientId = body?.client_id ?? body?.clientId;
  const clientSecret = body?.client_secret ?? body?.clientSecret;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    throw new Error(`${group}: the token request example has no client id and secret (${JSON.stringify(body)})`);
  }
  return { clientId, clientSecret };
}

/** A fetch that drops the Authorization header the client adds (and the console's session cookie): a caller that
 * sends no token. */
export const withoutToken: Fetch = (request) => {
  const headers = new Headers(request.headers);
  headers.delete('Authorization');
  headers.delete('Cookie');
  return globalThis.fetch(new Request(request, { headers }));
};

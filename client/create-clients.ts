// The five group clients: openapi-fetch clients typed by each group's `paths`, with tokens handled, retries,
// deadlines and idempotency keys. Give credentials (the client fetches, caches and renews tokens) or a token of
// your own. The layers, outside in: token (authenticated-fetch.ts), retries (retry.ts), one attempt (transport.ts).
import createClient, { type Client } from 'openapi-fetch';
import type { paths as BankingPaths } from '../generated/banking/schema.js';
import type { paths as CounterpartyPaths } from '../generated/counterparty/schema.js';
import type { paths as MerchantPaths } from '../generated/merchant/schema.js';
import type { paths as PartnerPaths } from '../generated/partner/schema.js';
import type { paths as PlatformPaths } from '../generated/platform/schema.js';
import { authenticatedFetch, type TokenSource } from './authenticated-fetch.js';
import { idempotencyKeys, keyedOperations } from './idempotency.js';
import { toProblemError } from './problem-error.js';
import { retrying, type RetryOptions } from './retry.js';
import { TokenProvider, type IssuedToken, type TokenProviderOptions } from './token-provider.js';
import { transport, type Fetch } from './transport.js';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface ClientOptions extends RetryOptions {
  /** The group's base address: `https://sandbox.payouts.example/payouts` for B, the origin for the others. */
  baseUrl: string;
  /** Client ID and Client Secret: the client obtains and renews tokens itself. */
  credentials?: Credentials;
  /**
   * Or a token you obtained yourself (a string, or a function returning the current one), or a TokenProvider over
   * your own way of getting tokens (a token your backend mints): cached, renewed, and renewed once after a 401.
   */
  token?: string | (() => string | Promise<string>) | TokenProvider;
  /** The fetch to send requests with (default: globalThis.fetch). */
  fetch?: Fetch;
  /** How long each attempt waits for the response headers, in milliseconds (default 60 000): then a TimeoutError. */
  timeout?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  tokenOptions?: TokenProviderOptions;
}

export interface MerchantClientOptions extends ClientOptions {
  /** Origin of the token issuer (`{auth_url}`); default: the origin of baseUrl. */
  authUrl?: string;
}

export type MerchantClient = Client<MerchantPaths>;
export type PlatformClient = Client<PlatformPaths>;
export type PartnerClient = Client<PartnerPaths>;
export type BankingClient = Client<BankingPaths>;
export type CounterpartyClient = Client<CounterpartyPaths>;

function tokenSource(options: ClientOptions, issue: (credentials: Credentials) => Promise<IssuedToken>): TokenSource {
  if (options.token instanceof TokenProvider) return { provider: options.token };
  if (options.token !== undefined) return { token: options.token };
  if (!options.credentials) throw new TypeError('Give the client either credentials or a token.');
  const credentials = options.credentials;
  return { provider: new TokenProvider(() => issue(credentials), options.tokenOptions) };
}

async function issued(result: { data?: IssuedToken; error?: unknown; response: Response }): Promise<IssuedToken> {
  if (result.data && result.response.ok) return result.data;
  throw toProblemError(result.error, result.response);
}

/** The fetch of token requests: retried whatever their method, since issuing a token creates nothing. */
const tokenFetch = (options: ClientOptions): Fetch => retrying(transport(options.timeout ?? 60_000, options.fetch), options, () => true);

/** Client credentials at `{auth_url}/oauth/token` (groups A, B and D). */
function oauthIssuer(options: MerchantClientOptions) {
  const authUrl = options.authUrl ?? new URL(options.baseUrl).origin;
  const auth = createClient<MerchantPaths>({ baseUrl: authUrl, fetch: tokenFetch(options), headers: options.headers });
  return (c: Credentials) =>
    auth
      .POST('/oauth/token', { body: { client_id: c.clientId, client_secret: c.clientSecret, grant_type: 'client_credentials' } })
      .then(issued);
}

function make<Paths extends {}>(options: ClientOptions, source: TokenSource, keyed: ReadonlySet<string>): Client<Paths> {
  const attempts = retrying(transport(options.timeout ?? 60_000, options.fetch), options);
  const client = createClient<Paths>({ baseUrl: options.baseUrl, fetch: authenticatedFetch(source, attempts), headers: options.headers });
  client.use(idempotencyKeys(keyed));
  return client;
}

export function createMerchantClient(options: MerchantClientOptions): MerchantClient {
  return make<MerchantPaths>(options, tokenSource(options, oauthIssuer(options)), keyedOperations.merchant);
}

export function createPlatformClient(options: MerchantClientOptions): PlatformClient {
  return make<PlatformPaths>(options, tokenSource(options, oauthIssuer(options)), keyedOperations.platform);
}

export function createBankingClient(options: MerchantClientOptions): BankingClient {
  return make<BankingPaths>(options, tokenSource(options, oauthIssuer(options)), keyedOperations.banking);
}

export function createPartnerClient(options: ClientOptions): PartnerClient {
  const plain = createClient<PartnerPaths>({ baseUrl: options.baseUrl, fetch: tokenFetch(options), headers: options.headers });
  const issue = (c: Credentials) =>
    plain.POST('/finance/v1/generate-token', { body: { clientId: c.clientId, clientSecret: c.clientSecret } }).then(issued);
  return make<PartnerPaths>(options, tokenSource(options, issue), keyedOperations.partner);
}

export function createCounterpartyClient(options: ClientOptions): CounterpartyClient {
  const plain = createClient<CounterpartyPaths>({ baseUrl: options.baseUrl, fetch: tokenFetch(options), headers: options.headers });
  const issue = (c: Credentials) =>
    plain.POST('/api/v1/generate-token', { body: { clientId: c.clientId, clientSecret: c.clientSecret } }).then(issued);
  return make<CounterpartyPaths>(options, tokenSource(options, issue), keyedOperations.counterparty);
}

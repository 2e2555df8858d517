// What every benchmark needs on a store: a merchant (through the Credentials service the admin CLI uses),
// then over HTTP like any caller: an access token, a payee with an active bank account, and optionally a
// webhook registration for all events.
import { createMerchantClient } from '../client/create-clients.js';
import { unwrap } from '../client/problem-error.js';
import { Credentials } from '../server/auth/credentials.js';
import { openStore } from '../server/store/database.js';
import { readFileSync } from 'node:fs';

type Json = Record<string, any>;
const merchantDocument = JSON.parse(readFileSync(new URL('../generated/merchant/openapi.json', import.meta.url), 'utf8')) as Json;

/** An operation's first documented request example: the payee and account every benchmark pays into. */
function documentedRequest(path: string): Json {
  const examples = merchantDocument.paths[path].post.requestBody.content['application/json'].examples as Json;
  return structuredClone(Object.values(examples)[0].value) as Json;
}

export interface Merchant {
  merchantId: number;
  clientId: string;
  clientSecret: string;
}

export interface Fixture extends Merchant {
  token: string;
  payeeId: number;
  accountId: string;
}

/** Creates the merchant directly in the store (the server need not run yet; it migrates the store). */
export async function createMerchant(databaseUrl: string, name = 'Bench Merchant'): Promise<Merchant> {
  const store = await openStore(databaseUrl, { poolSize: 1 });
  try {
    return await new Credentials(store).createMerchant(name);
  } finally {
    await store.close();
  }
}

export async function tokenFor(baseUrl: string, merchant: Merchant): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: merchant.clientId, client_secret: merchant.clientSecret }),
  });
  if (!response.ok) throw new Error(`token request answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A payee with an account that the sandbox rail completes (it does not end in 0001-0005). */
export async function provision(baseUrl: string, merchant: Merchant, options: { webhookUrl?: string } = {}): Promise<Fixture> {
  const client = createMerchantClient({ baseUrl, credentials: { clientId: merchant.clientId, clientSecret: merchant.clientSecret } });
  const payee = await unwrap(client.POST('/v1/payees', { body: documentedRequest('/v1/payees') as never }));
  // The documented account (a bank account the sandbox rail completes) is what every benchmark pays into.
  const account = await unwrap(
    client.POST('/v1/payees/{id}/accounts', {
      params: { path: { id: payee.id } },
      body: documentedRequest('/v1/payees/{id}/accounts') as never,
    }),
  );
  if (options.webhookUrl) await unwrap(client.POST('/v1/webhooks', { body: { url: options.webhookUrl } }));
  return { ...merchant, token: await tokenFor(baseUrl, merchant), payeeId: payee.id, accountId: account.PayeeAccountId };
}

export const payoutBody = (payeeId: number) =>
  JSON.stringify({ PayeeId: payeeId, Amount: 125.5, Currency: 'USD', Description: 'Invoice 2291' });

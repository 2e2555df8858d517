// What every benchmark needs on a store: a merchant (through the Credentials service the admin CLI uses),
// then over HTTP like any caller: an access token, a payee with an active bank account, and optionally a
// webhook registration for all events; for the banking reads, a business with two funded accounts and
// transfers between them.
import { createBankingClient, createMerchantClient } from '../client/create-clients.js';
import { unwrap } from '../client/problem-error.js';
import { Credentials } from '../server/domain/auth/credentials.js';
import { openStore } from '../server/platform/store/database.js';
import { readFileSync } from 'node:fs';

type Json = Record<string, any>;
const documentOf = (group: string) =>
  JSON.parse(readFileSync(new URL(`../generated/${group}/openapi.json`, import.meta.url), 'utf8')) as Json;
const merchantDocument = documentOf('merchant');
const bankingDocument = documentOf('banking');

/** An operation's first documented request example: the payee and account every benchmark pays into. */
function documentedRequest(path: string, document: Json = merchantDocument): Json {
  const examples = document.paths[path].post.requestBody.content['application/json'].examples as Json;
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

export interface BankingFixture {
  businessId: number;
  /** The account funded by a simulated inbound credit, and the reserve the internal transfers go to and from. */
  operatingId: number;
  reserveId: number;
  /** The inbound credit, then the internal transfers, in the order made. */
  transferIds: number[];
}

/**
 * Over HTTP as the merchant: the documented business (its taxId is approved by the sandbox), its verification,
 * two accounts, a simulated inbound credit into the first, then `transfers` internal transfers alternating
 * operating → reserve and back (each completes at once, workers or not). Every transfer touches the operating
 * account, so with 24 the account's transfers and the merchant's events each fill a default page (25).
 */
export async function provisionBanking(baseUrl: string, merchant: Merchant, transfers = 24): Promise<BankingFixture> {
  const client = createBankingClient({ baseUrl, credentials: { clientId: merchant.clientId, clientSecret: merchant.clientSecret } });
  const business = await unwrap(
    client.POST('/finance/api/v1/business', { body: documentedRequest('/finance/api/v1/business', bankingDocument) as never }),
  );
  const verification = await unwrap(
    client.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }),
  );
  if (verification.status !== 'approved') throw new Error(`the business's verification is ${verification.status}, not approved`);
  const open = (accountName: string) =>
    unwrap(client.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: business.id } }, body: { accountName } }));
  const operating = await open('Operating');
  const reserve = await open('Tax reserve');
  const funding = await unwrap(
    client.POST('/finance/api/v1/simulations/inbound-transfer', {
      body: { ...documentedRequest('/finance/api/v1/simulations/inbound-transfer', bankingDocument), accountId: operating.id } as never,
    }),
  );
  const transferIds = [funding.id];
  for (let i = 0; i < transfers; i++) {
    const [from, to] = i % 2 === 0 ? [operating.id, reserve.id] : [reserve.id, operating.id];
    const transfer = await unwrap(
      client.POST('/finance/api/v1/transaction/internal/transfer', {
        body: { accountId: from, toAccountId: to, amount: 10, currency: 'USD', description: `Set-aside ${i}` },
      }),
    );
    if (transfer.status !== 'completed') throw new Error(`internal transfer ${transfer.id} is ${transfer.status}, not completed`);
    transferIds.push(transfer.id);
  }
  return { businessId: business.id, operatingId: operating.id, reserveId: reserve.id, transferIds };
}

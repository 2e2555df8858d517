// One merchant's client program, as an integrator would first write it against the mock and then run against the
// service: a token, a payee and its account, a payout followed by reference, the events through the pager,
// requests that break the contract, and a signed webhook registration whose secret verifies a delivery. It
// returns a transcript of what it saw (status, problem type, fields named) and checks every body against the
// contract, so that the same program can be compared across the service and both mock modes.
import { createMerchantClient, type Credentials } from '../../client/create-clients.js';
import { eachEvent } from '../../client/paginate.js';
import { signWebhook } from '../../client/webhook-signature.js';
import { constructEvent } from '../../client/webhooks.js';
import { operationsOf, validatorAt } from '../support/contract.js';
import { documentedResponse } from './operation-requests.js';

export interface Step {
  step: string;
  status: number;
  /** The problem's `type`, for a refusal. */
  problem?: string;
  /** The fields a validation problem names (pointers, parameters, headers), sorted. */
  fields?: string[];
}

export interface ProgramResult {
  transcript: Step[];
  /** Every body that did not validate against its documented response (empty when all did). */
  invalid: string[];
  /** Events the pager yielded before it ended. */
  events: number;
}

const operations = operationsOf('merchant').map((o) => ({ group: 'merchant' as const, ...o }));

export async function runClientProgram(origin: string, credentials: Credentials): Promise<ProgramResult> {
  const transcript: Step[] = [];
  const invalid: string[] = [];
  // No retries: a 5xx of the mock must show, not be retried away.
  const merchant = createMerchantClient({ baseUrl: origin, authUrl: origin, credentials, maxRetries: 0 });

  /** Records a response: its status, its problem if any, and whether its body is the documented one. */
  const record = (step: string, method: string, path: string, response: Response, body: unknown) => {
    const ref = operations.find((o) => o.method === method && o.path === path);
    if (!ref) throw new Error(`merchant documents no ${method} ${path}`);
    const media = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const content = documentedResponse(ref, response.status)?.content.get(media);
    if (!content) invalid.push(`${step}: ${response.status} ${media} is not documented`);
    else {
      const validate = validatorAt('merchant', content.schemaPointer);
      if (!validate(body)) invalid.push(`${step}: ${JSON.stringify(validate.errors).slice(0, 500)}`);
    }
    const entry: Step = { step, status: response.status };
    if (response.status >= 400) {
      const problem = body as { type?: string; errors?: { pointer?: string; parameter?: string; header?: string }[] };
      entry.problem = problem.type;
      if (problem.errors) entry.fields = problem.errors.map((e) => e.pointer ?? e.parameter ?? e.header ?? '?').sort();
    }
    transcript.push(entry);
  };

  // A token, asked for as the client does it (its TokenProvider asks again for the calls below).
  const tokenResponse = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret }),
  });
  record('token', 'post', '/oauth/token', tokenResponse, await tokenResponse.json());

  const payee = await merchant.POST('/v1/payees', {
    body: {
      payeeType: 'individual',
      name: 'Maria Gonzalez',
      EmailAddress: 'maria.gonzalez@example.com',
      address: { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' },
    },
  });
  record('payee', 'post', '/v1/payees', payee.response, payee.data ?? payee.error);
  const payeeId = payee.data!.id;

  const account = await merchant.POST('/v1/payees/{id}/accounts', {
    params: { path: { id: payeeId } },
    body: {
      type: 'BANK_ACCOUNT',
      accountHolderName: 'Maria Gonzalez',
      bankName: 'First Hudson Bank',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      accountType: 'CHECKINGS',
      Currency: 'USD',
    },
  });
  record('account', 'post', '/v1/payees/{id}/accounts', account.response, account.data ?? account.error);

  const payout = await merchant.POST('/v1/payouts', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { PayeeId: payeeId, Amount: 1250, Currency: 'USD', Description: 'November commission' },
  });
  record('payout', 'post', '/v1/payouts', payout.response, payout.data ?? payout.error);

  const followed = await merchant.GET('/v1/payouts/{PayoutUniqueReference}', {
    params: { path: { PayoutUniqueReference: payout.data!.PayoutUniqueReference } },
  });
  record('follow payout', 'get', '/v1/payouts/{PayoutUniqueReference}', followed.response, followed.data ?? followed.error);

  // The pager must end: against a mock whose page never did, this loop would not.
  let events = 0;
  for await (const _event of eachEvent(merchant, { PageSize: 100 })) events++;

  const negative = await merchant.POST('/v1/payouts', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { PayeeId: payeeId, Amount: -5, Currency: 'USD' },
  });
  record('payout with Amount -5', 'post', '/v1/payouts', negative.response, negative.error);

  const withoutCredentials = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
  record('token without credentials', 'post', '/oauth/token', withoutCredentials, await withoutCredentials.json());

  const withoutToken = await fetch(`${origin}/v1/payouts/${payout.data!.PayoutUniqueReference}`);
  record('read without a token', 'get', '/v1/payouts/{PayoutUniqueReference}', withoutToken, await withoutToken.json());

  const badToken = await fetch(`${origin}/v1/payouts/${payout.data!.PayoutUniqueReference}`, {
    headers: { Authorization: 'Bearer bm90LWEtdG9rZW4' },
  });
  record('read with a token never issued', 'get', '/v1/payouts/{PayoutUniqueReference}', badToken, await badToken.json());

  const webhook = await merchant.POST('/v1/webhooks', {
    body: { url: 'https://hooks.acme.example/payouts/final', events: ['payout.completed', 'payout.failed'], signed: true },
  });
  record('signed webhook', 'post', '/v1/webhooks', webhook.response, webhook.data ?? webhook.error);
  // The secret shown once verifies a delivery signed with it (as the service signs them).
  const secret = webhook.data?.secret;
  if (typeof secret !== 'string')
    invalid.push(`signed webhook: no secret (${JSON.stringify(webhook.data ?? webhook.error).slice(0, 300)})`);
  else {
    const body = JSON.stringify({
      id: 'evt_01jd8x3m0a2b4c6d8e0f2g4h6j',
      type: 'webhook.test',
      environment: 'sandbox',
      timestamp: new Date().toISOString(),
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'evt_01jd8x3m0a2b4c6d8e0f2g4h6j',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await signWebhook(secret, 'evt_01jd8x3m0a2b4c6d8e0f2g4h6j', timestamp, body),
    };
    const event = await constructEvent(body, headers, secret);
    if (event.type !== 'webhook.test') invalid.push(`signed webhook: constructEvent gave ${JSON.stringify(event)}`);
  }
  return { transcript, invalid, events };
}

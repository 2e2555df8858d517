// The quick-start guide's code with the generated client. The page shows the code between each
// `docs:begin <name>` and `docs:end <name>` marker; test/mock/mock.test.ts runs these functions against the
// Prism mocks and checks every request body against the contract's examples, so the page shows code that
// type-checks and works. Keep the bodies equal to the examples in openapi/ (the test fails otherwise).
import type { Credentials } from '../../client/create-clients.js';
import { createMerchantClient, createPlatformClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { createServer } from 'node:http';
import { constructEvent, isPayoutEvent, type WebhookEvent } from '../../client/webhooks.js';
import { WebhookVerificationError } from '../../client/webhook-signature.js';

export interface QuickStartAddresses {
  /** {base_url}: groups A (and D). */
  baseUrl: string;
  /** {sandbox_url}/payouts: group B. */
  platformUrl: string;
  /** {auth_url}: the token issuer of A, B and D. */
  authUrl: string;
  credentials: Credentials;
}

export async function quickStart({ baseUrl, platformUrl, authUrl, credentials }: QuickStartAddresses) {
  // docs:begin client
  // 1. Tokens: each client exchanges the credentials at {auth_url}/oauth/token, caches the token and renews it.
  const merchant = createMerchantClient({ baseUrl, authUrl, credentials });
  const platform = createPlatformClient({ baseUrl: platformUrl, authUrl, credentials });

  // 2. A payee and its bank account (the sandbox pays account numbers ending in 0001..0005 with a failure).
  const payee = await unwrap(
    merchant.POST('/v1/payees', {
      body: {
        payeeType: 'individual',
        name: 'Maria Gonzalez',
        EmailAddress: 'maria.gonzalez@example.com',
        phoneNumber: '+12125550143',
        idType: 'passport',
        address: { addressLine: '350 Fifth Avenue, Suite 4100', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' },
        dateOfBirth: '1988-04-17',
      },
    }),
  );
  const account = await unwrap(
    merchant.POST('/v1/payees/{id}/accounts', {
      params: { path: { id: payee.id } },
      body: {
        type: 'BANK_ACCOUNT',
        accountHolderName: 'Maria Gonzalez',
        bankName: 'First Hudson Bank',
        routingNumber: '021000021',
        accountNumber: '000123456789',
        bankClearingSystemCode: 'USABA',
        branchTransitNumber: null,
        IBAN: null,
        Currency: 'USD',
        accountType: 'CHECKINGS',
      },
    }),
  );

  // 3. Preview what a payout costs on a rail (group B).
  const fee = await unwrap(
    platform.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'GB', currency: 'GBP', rail: 'SWIFT', amount: 1000 } }),
  );
  console.log(`fee ${fee.totalFee} ${fee.currency}, debit ${fee.totalDebit}`);

  // 4. The payout: accepted (202) in state `created` and processed asynchronously. The Idempotency-Key makes
  //    a retry after a network error safe: the same key and body replay the first answer (with the resource as it is now).
  const payout = await unwrap(
    merchant.POST('/v1/payouts', {
      params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
      // metadata: your own keys, shown on every read and event of the payout (and a listPayouts filter).
      body: {
        PayeeId: payee.id,
        Amount: 1250,
        Currency: 'USD',
        Description: 'November commission',
        metadata: { order_id: 'ORD-2026-11-0042' },
      },
    }),
  );

  // 5. Follow it by reference, or register a webhook once and receive every state change.
  const current = await unwrap(
    merchant.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: payout.PayoutUniqueReference } } }),
  );
  const webhook = await unwrap(merchant.POST('/v1/webhooks', { body: { url: 'https://hooks.acme.example/payouts' } }));
  // docs:end client
  return { payee, account, fee, payout, current, webhook };
}

// docs:begin receiver
/** A webhook receiver on node:http for a signed registration. `secret` is its `whsec_...`, shown once: without
 *  it (an unset variable) every delivery is refused, never read unverified. */
export function webhookReceiver(secret: string | undefined, handle: (event: WebhookEvent) => Promise<void> | void) {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: WebhookEvent;
    try {
      // The raw bytes as received: the signature covers them, so verify before parsing.
      event = await constructEvent(Buffer.concat(chunks), req.headers, secret);
    } catch (e) {
      // A forged or stale delivery is refused; a missing secret is your error (500), so the delivery is not lost.
      res.writeHead(e instanceof WebhookVerificationError ? 400 : 500).end();
      return;
    }
    res.writeHead(200).end(); // answer at once, then handle
    await handle(event); // event.id is also the webhook-id header: skip an id handled before
  });
}

/** What a payout event says; other types (webhook.test, and types added later) are ignored. */
export function describePayoutEvent(event: WebhookEvent): string {
  if (!isPayoutEvent(event)) return `ignored ${event.type}`;
  switch (event.state) {
    case 'completed':
      return `paid ${event.amount} ${event.currency} (${event.payout_request_id})`;
    case 'failed':
    case 'cancelled':
      return `not paid: ${(event.reasons ?? []).map((r) => r.code).join(', ')}`;
    default:
      return `${event.payout_request_id} is ${event.state}`;
  }
}
// docs:end receiver

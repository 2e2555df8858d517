// ENVIRONMENT=production, on each store: every event says `production` and reaches the production registrations
// (and only them); no rail moves money, so a payout, a payment and a transfer stay in their first state while the
// engines run, and a verification stays pending; and the sandbox's simulations do not exist: every simulate path
// answers what an unknown path answers, whatever the method, token or body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBankingClient, type BankingClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { distinctOperations, requestExamples } from '../support/operations.js';
import { newPartner, type TestPartner } from '../support/partners.js';
import { fill, type Answer } from '../support/requests.js';
import { stores } from '../support/stores.js';
import { startReceiver, type Delivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
const recipientAddress = { line1: '350 Fifth Avenue', city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };

describe.each(stores)('ENVIRONMENT=production on $name', (kind) => {
  // Steps due at once: in the sandbox everything below would settle within a few engine rounds.
  const service = useService(kind, { environment: 'production', sandboxStepMs: 0 });
  let receiver: WebhookReceiver;
  let m: TestMerchant;
  let p: TestPartner;
  let bank: BankingClient;
  let tokens: { merchant: string; partner: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    m = await newMerchant(service);
    p = await newPartner(service, [m.merchantId]);
    bank = createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: m.clientId, clientSecret: m.clientSecret } });
    tokens = {
      merchant: await service.token({ kind: 'merchant', merchantId: m.merchantId }),
      partner: await service.token({ kind: 'partner', partnerId: p.partnerId }),
    };
  });
  afterAll(async () => {
    await receiver.close();
  });

  const bodyOf = (d: Delivery) => JSON.parse(d.body) as { type: string; environment: string; [field: string]: any };

  it('writes every event as production, delivers it to production registrations only, and settles nothing', async () => {
    const byDefault = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/default` } }));
    expect(byDefault.environment).toBe('production');
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/production`, environment: 'production' } }));
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/sandbox`, environment: 'sandbox' } }));

    // A payout (group A).
    const payee = await unwrap(
      m.a.POST('/v1/payees', {
        body: {
          payeeType: 'individual',
          name: 'Maria Gonzalez',
          EmailAddress: 'maria@example.com',
          address: { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' },
        },
      }),
    );
    const payeeAccount = await unwrap(
      m.a.POST('/v1/payees/{id}/accounts', {
        params: { path: { id: payee.id } },
        body: {
          type: 'BANK_ACCOUNT',
          accountHolderName: 'Maria Gonzalez',
          bankName: 'First Hudson Bank',
          routingNumber: '021000021',
          accountNumber: '000123456789',
          accountType: 'CHECKINGS',
          Currency: 'USD',
        },
      }),
    );
    const payout = await unwrap(
      m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, PayeeAccountId: payeeAccount.PayeeAccountId, Amount: 25, Currency: 'USD' } }),
    );

    // A payment request (group C) to an ACH recipient, and one (group E) that is then cancelled.
    const recipient = await unwrap(
      p.c.POST('/finance/v1/recipient-ach', {
        body: {
          email: 'recipient@example.com',
          name: 'Ravi Patel',
          type: 'INDIVIDUAL',
          merchantId: m.merchantId,
          ach: {
            accountNumber: '000987654321',
            bankAccountType: 'CHECKING',
            routingNumber: '021000021',
            address: { ...recipientAddress, type: 'RESIDENCE' },
          },
        },
      }),
    );
    const paymentBody = {
      payeeId: recipient.id,
      amount: 12.5,
      currency: 'USD',
      paymentMethodType: 'STANDARD' as const,
      description: 'commission',
      merchantId: m.merchantId,
    };
    const payment = await unwrap(p.c.POST('/finance/v1/payment_request', { body: paymentBody }));
    const cancelledLater = await unwrap(p.e.POST('/finance/v1/payment_request', { body: { ...paymentBody, amount: 3 } }));

    // A business whose verification nothing decides, approved out of band (the bank's back office), an account and
    // an ACH pull of 1,000,000.00 from a counterparty (group D).
    const business = await unwrap(
      bank.POST('/finance/api/v1/business', {
        body: {
          legalName: 'Northwind Logistics LLC',
          entityType: 'LLC',
          taxId: '12-3454567',
          formationDate: '2019-03-14',
          incorporationCountry: 'US',
          incorporationState: 'DE',
          address: usAddress,
          phone: '+13125550198',
          email: 'treasury@northwind.example',
        },
      }),
    );
    const verification = await unwrap(
      bank.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }),
    );
    // The sandbox's tables would approve this tax id at once.
    expect(verification.status).toBe('pending');
    await service.services.banking.verifications.decide(verification.id, 'approved');
    const account = await unwrap(
      bank.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: business.id } }, body: {} }),
    );
    const counterparty = await unwrap(
      bank.POST('/finance/api/v1/counterparty', {
        body: {
          businessId: business.id,
          name: 'Acme Supplies Inc.',
          type: 'BUSINESS',
          ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
        },
      }),
    );
    const pull = await unwrap(
      bank.POST('/finance/api/v1/transaction/ach/pull', {
        body: { accountId: account.id, counterpartyId: counterparty.id, amount: 1_000_000, currency: 'USD' },
      }),
    );
    expect(pull.status).toBe('pending');

    // The engines have looked at each movement and left it where it was: no step is due any more.
    const db = service.services.store.db;
    await expect
      .poll(
        async () => [
          (
            await db
              .selectFrom('payouts')
              .select('next_step_at')
              .where('reference', '=', payout.PayoutUniqueReference)
              .executeTakeFirstOrThrow()
          ).next_step_at,
          (await db.selectFrom('payments').select('next_step_at').where('payment_id', '=', payment.paymentId).executeTakeFirstOrThrow())
            .next_step_at,
          (await db.selectFrom('banking_transfers').select('next_step_at').where('id', '=', pull.id).executeTakeFirstOrThrow())
            .next_step_at,
        ],
        { timeout: 10_000, interval: 20 },
      )
      .toEqual([null, null, null]);
    const payoutNow = await unwrap(
      m.a.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: payout.PayoutUniqueReference } } }),
    );
    expect(payoutNow.Status).toBe('created');
    expect(
      (await unwrap(p.c.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId: payment.paymentId } } }))).status,
    ).toBe('created');
    expect((await unwrap(bank.GET('/finance/api/v1/transaction/{transferId}', { params: { path: { transferId: pull.id } } }))).status).toBe(
      'pending',
    );
    // Nothing of the pull is spendable.
    const balance = await unwrap(bank.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: account.id } } }));
    expect([balance.available, balance.ledger]).toEqual(['0.00', '0.00']);
    const cancelled = await unwrap(
      p.e.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId: cancelledLater.paymentId } } }),
    );
    expect(cancelled.status).toBe('cancelled');

    const expected = [
      'payout.created',
      'payment.created',
      'payment.created',
      'verification.updated',
      'verification.updated',
      'transfer.created',
      'payment.cancelled',
    ].sort();
    for (const path of ['/default', '/production']) {
      const got = await receiver.waitFor(expected.length, (d) => d.path === path);
      expect(got.map((d) => bodyOf(d).type).sort(), path).toEqual(expected);
      expect(new Set(got.map((d) => bodyOf(d).environment)), path).toEqual(new Set(['production']));
    }
    // The events API says the same, and nothing reached the sandbox registration (each event goes to both production
    // registrations in one round, so the sandbox one would have had its copy by now).
    const listed = await unwrap(m.a.GET('/v1/events', { params: { query: { PageSize: 50 } } }));
    expect(new Set(listed.data.map((e) => e.environment))).toEqual(new Set(['production']));
    expect(receiver.deliveries.filter((d) => d.path === '/sandbox')).toEqual([]);
    // Nothing moved on since.
    expect(await db.selectFrom('payment_status_changes').select('status').where('payment_id', '=', payment.paymentId).execute()).toEqual([
      { status: 'created' },
    ]);
  }, 60_000); // Eleven operations over three groups and their deliveries: past the default 30 s on a loaded machine.

  it('refuses the sandbox options of a payout (422 naming Sandbox) and records nothing, through groups A and B', async () => {
    const payee = await unwrap(
      m.a.POST('/v1/payees', {
        body: {
          payeeType: 'individual',
          name: 'Ana Silva',
          EmailAddress: 'ana@example.com',
          address: { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' },
        },
      }),
    );
    await unwrap(
      m.a.POST('/v1/payees/{id}/accounts', {
        params: { path: { id: payee.id } },
        body: {
          type: 'BANK_ACCOUNT',
          accountHolderName: 'Ana Silva',
          bankName: 'First Hudson Bank',
          routingNumber: '021000021',
          accountNumber: '000123456780',
          accountType: 'CHECKINGS',
          Currency: 'USD',
        },
      }),
    );
    for (const Sandbox of [{ Hold: true }, { Hold: false }, {}]) {
      const body = { PayeeId: payee.id, Amount: 5, Currency: 'USD', Sandbox };
      for (const refused of [await m.a.POST('/v1/payouts', { body }), await m.b.POST('/v1/payouts', { body })]) {
        expect(refused.response.status).toBe(422);
        expect(refused.error!.type).toBe('https://payouts.example/problems/business-rule');
        expect(refused.error!.errors).toEqual([expect.objectContaining({ pointer: '#/Sandbox' })]);
      }
    }
    expect(await unwrap(m.a.GET('/v1/payouts', { params: { query: { PayeeId: payee.id } } }))).toEqual({ data: [], nextCursor: null });
  });

  // Every simulate operation of the bundled documents, as a caller might try it.
  const simulations = distinctOperations.filter((o) => o.operationId.startsWith('simulate'));
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

  /** The answer with what names the request itself (its id, its path) taken out. */
  const comparable = (answer: Answer, path: string) => ({
    status: answer.status,
    type: answer.headers.get('content-type'),
    allow: answer.headers.get('allow'),
    body: answer.text.replaceAll(path, '<path>').replace(/"requestId":"[^"]*"/, ''),
  });

  it.each(simulations.map((o) => [o.operationId, o] as const))('%s does not exist: it answers like an unknown path', async (_, o) => {
    expect(simulations.length).toBeGreaterThanOrEqual(7);
    const path = fill(o.url);
    const unknown = path.replace('/simulations/', '/no-such-simulations/');
    const [example] = Object.values(requestExamples(o));
    const bodies: { label: string; body?: unknown; raw?: string }[] = [
      { label: 'no body' },
      { label: 'the documented example', body: example ?? {} },
      { label: 'an empty object', body: {} },
      { label: 'malformed JSON', raw: '{"status":' },
    ];
    for (const method of methods) {
      for (const token of [undefined, tokens.merchant, tokens.partner]) {
        for (const b of method === 'GET' || method === 'HEAD' ? bodies.slice(0, 1) : bodies) {
          const call = { token, body: b.body, raw: b.raw };
          const [simulated, unknownAnswer] = await Promise.all([service.send(method, path, call), service.send(method, unknown, call)]);
          const label = `${method} ${path}, ${token ? 'with a token' : 'without a token'}, ${b.label}`;
          expect(comparable(simulated, path), label).toEqual(comparable(unknownAnswer, unknown));
          if (method !== 'OPTIONS' && b.raw === undefined) expect(simulated.status, label).toBe(404);
        }
      }
    }
  });
});

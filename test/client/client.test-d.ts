// The client's types: a problem's kind is the contract's catalogue (and open to later kinds), a 204 unwraps to
// undefined, the typed errors and the webhook constructor are what they say, and the options are checked.
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AttemptLog,
  type ApiProblemError,
  type ConnectionError,
  constructEvent,
  receiveEvent,
  createMerchantClient,
  type KnownProblemKind,
  type ProblemKind,
  type TimeoutError,
  unwrap,
  type WebhookEvent,
} from '../../client/index.js';
import type { components } from '../../generated/merchant/schema.js';
import type { ProblemKind as CatalogueKind } from '../../generated/problem-types.js';

const merchant = createMerchantClient({ baseUrl: 'http://localhost:3000', token: 't' });

describe('client types', () => {
  it('types a problem’s kind from the problem catalogue, open to kinds added later', () => {
    expectTypeOf<KnownProblemKind>().toEqualTypeOf<CatalogueKind>();
    expectTypeOf<ApiProblemError['kind']>().toEqualTypeOf<ProblemKind>();
    expectTypeOf<Exclude<ProblemKind, CatalogueKind>>().toEqualTypeOf<string & {}>();
    const kind: ApiProblemError['kind'] = 'a-later-kind';
    void kind;
  });

  it('unwraps a 204 to undefined and a body to its schema', async () => {
    expectTypeOf(await unwrap(merchant.DELETE('/v1/webhooks', { params: { query: { id: 'w' } } }))).toEqualTypeOf<undefined>();
    expectTypeOf(await unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id: 1 } } }))).toEqualTypeOf<
      components['schemas']['Payee']
    >();
  });

  it('has a request id on every typed error; a timeout is a connection error', () => {
    expectTypeOf<ApiProblemError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ConnectionError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TimeoutError>().toMatchTypeOf<ConnectionError>();
  });

  it('constructs webhook events as the typed union', () => {
    expectTypeOf(constructEvent).returns.resolves.toEqualTypeOf<WebhookEvent>();
    // @ts-expect-error the secret is required
    void constructEvent('{}', {});
    // An environment variable may be unset: that compiles, and fails closed at run time.
    void constructEvent('{}', {}, process.env.WEBHOOK_SECRET);
    // @ts-expect-error receiveEvent takes the secret too: no unverified default
    void receiveEvent('{}', {});
  });

  it('checks the options', () => {
    createMerchantClient({
      baseUrl: 'http://localhost:3000',
      token: 't',
      maxRetries: 3,
      timeout: 10_000,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 2_000,
      onAttempt: (attempt) => expectTypeOf(attempt).toEqualTypeOf<AttemptLog>(),
    });
    // @ts-expect-error maxRetries is a number
    createMerchantClient({ baseUrl: 'http://localhost:3000', token: 't', maxRetries: 'twice' });
    void merchant.POST('/v1/payouts', {
      params: { header: { 'Idempotency-Key': 'order-1' } },
      body: { PayeeId: 1, Amount: 10, Currency: 'USD' },
    });
  });

  it('enforces the conditional requirements the service enforces (if/then in the contract)', () => {
    type Account = components['schemas']['PayeeAccountRequest'];
    const bank = { accountHolderName: 'Maria', bankName: 'First Hudson', routingNumber: '021000021', accountNumber: '000123456789' };
    const withType: Account = { type: 'BANK_ACCOUNT', ...bank, accountType: 'CHECKINGS' };
    // @ts-expect-error a bank account needs accountType
    const withoutType: Account = { type: 'BANK_ACCOUNT', ...bank };
    // @ts-expect-error a bank account needs its bank's name, and null is none
    const nullBank: Account = { type: 'BANK_ACCOUNT', ...bank, bankName: null, accountType: 'SAVINGS' };
    const iban: Account = { type: 'IBAN', accountHolderName: null, IBAN: 'DE89370400440532013000' };
    // @ts-expect-error an IBAN account needs its IBAN
    const noIban: Account = { type: 'IBAN', accountHolderName: null };
    void [withType, withoutType, nullBank, iban, noIban];

    const address = { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' };
    const person = { name: 'Maria', EmailAddress: 'm@example.com', address };
    void merchant.POST('/v1/payees', { body: { payeeType: 'individual', ...person } });
    void merchant.POST('/v1/payees', { body: { payeeType: 'business', ...person, taxId: '12-3456789', phoneNumber: '+13125550198' } });
    // @ts-expect-error a business payee needs a taxId and a phoneNumber
    void merchant.POST('/v1/payees', { body: { payeeType: 'business', ...person } });
  });
});

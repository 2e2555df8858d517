// Open response enumerations through the generated client (openapi/DECISIONS.md "Compatibility"): a response
// value keeps its known literals (narrowing works, and what remains after every known case is the open member),
// a value added after this version still compiles, and the same enumeration stays closed where a request sends it.
import { describe, expectTypeOf, it } from 'vitest';
import { createBankingClient, createMerchantClient, createPartnerClient, createPlatformClient } from '../../client/create-clients.js';
import { type ProblemDetails, unwrap } from '../../client/problem-error.js';
import type { PayoutEvent } from '../../client/webhooks.js';
import type { components as Merchant } from '../../generated/merchant/schema.js';

type Later = string & {};
const options = { baseUrl: 'http://localhost:3000', token: 't' };
const merchant = createMerchantClient(options);
const platform = createPlatformClient(options);
const partner = createPartnerClient(options);
const banking = createBankingClient(options);

type PayoutState = 'created' | 'processing' | 'sent' | 'completed' | 'failed' | 'cancelled' | 'returned';
const takesString = (value: string) => value;

describe('an open response enumeration', () => {
  it('keeps its known literals beside the open member', async () => {
    const payout = await unwrap(
      merchant.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: 'po_1' } } }),
    );
    expectTypeOf(payout.Status).toEqualTypeOf<PayoutState | Later>();
    // The literals are members of their own: once every known case is handled, a later value is what is left.
    expectTypeOf<Exclude<typeof payout.Status, PayoutState>>().toEqualTypeOf<Later>();
    switch (payout.Status) {
      case 'created':
      case 'processing':
      case 'sent':
      case 'completed':
      case 'failed':
      case 'cancelled':
      case 'returned':
        break;
      default:
        expectTypeOf(payout.Status).toEqualTypeOf<Later>();
    }
  });

  it('accepts a value added after this version, and reads as a string', async () => {
    const payout = await unwrap(
      merchant.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: 'po_1' } } }),
    );
    const later: Merchant['schemas']['Payout']['Status'] = 'on_hold';
    const isLater = payout.Status === 'on_hold';
    takesString(payout.Status);
    void [later, isLater];
  });

  it('is open in every group', async () => {
    const fees = await unwrap(
      platform.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'GB', currency: 'GBP', rail: 'SWIFT', amount: 10 } }),
    );
    expectTypeOf(fees.rail).toEqualTypeOf<'ACH' | 'WIRE' | 'SEPA' | 'FASTER_PAYMENTS' | 'SWIFT' | Later>();
    const merchants = await unwrap(partner.GET('/finance/v1/partner/list', { params: { query: { partnerId: 1 } } }));
    expectTypeOf(merchants.data[0]!.status).toEqualTypeOf<'active' | 'suspended' | Later>();
    const transfer = await unwrap(
      banking.POST('/finance/api/v1/transaction/internal/transfer', {
        body: { accountId: 1, toAccountId: 2, amount: 100, currency: 'USD' },
      }),
    );
    expectTypeOf(transfer.status).toEqualTypeOf<'pending' | 'processing' | 'completed' | 'failed' | 'returned' | Later>();
  });

  it('covers event types, webhook payloads and problem types', () => {
    expectTypeOf<Merchant['schemas']['PayoutEvent']['type']>().toEqualTypeOf<`payout.${PayoutState}` | Later>();
    expectTypeOf<PayoutEvent['reasons']>().toEqualTypeOf<Merchant['schemas']['PayoutReason'][] | undefined>();
    expectTypeOf<
      Extract<ProblemDetails['type'], 'https://payouts.example/problems/not-found'>
    >().toEqualTypeOf<'https://payouts.example/problems/not-found'>();
    expectTypeOf<Exclude<ProblemDetails['type'], `https://payouts.example/problems/${string}`>>().toEqualTypeOf<Later>();
    const later: ProblemDetails['type'] = 'https://payouts.example/problems/a-later-kind';
    void later;
  });
});

describe('the same enumeration in a request', () => {
  it('stays closed', () => {
    void merchant.GET('/v1/payouts', { params: { query: { Status: 'completed' } } });
    // @ts-expect-error a request sends only the known values
    void merchant.GET('/v1/payouts', { params: { query: { Status: 'on_hold' } } });
    // @ts-expect-error a registration names only the known event types
    void merchant.POST('/v1/webhooks', { body: { url: 'https://hooks.example/payouts', events: ['payout.on_hold'] } });
  });
});

// Misuse of the generated client fails to compile: each @ts-expect-error below must stay an error, or tsc
// (and vitest's typecheck) fails.
import { describe, expectTypeOf, it } from 'vitest';
import { createMerchantClient, createPartnerClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/merchant/schema.js';

const merchant = createMerchantClient({ baseUrl: 'http://localhost:3000', token: 't' });
const partner = createPartnerClient({ baseUrl: 'http://localhost:3000', token: 't' });
const address = { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' };

describe('the merchant client', () => {
  it('types responses from the contract', async () => {
    const payee = await unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id: 1 } } }));
    expectTypeOf(payee).toEqualTypeOf<components['schemas']['Payee']>();
    // Response enumerations are open (test/types/open-enums.test-d.ts): the known values, then any later one.
    expectTypeOf(payee.payeeType).toEqualTypeOf<'individual' | 'business' | (string & {})>();
    const page = await unwrap(merchant.GET('/v1/payouts', { params: { query: { Status: 'completed' } } }));
    expectTypeOf(page.data[0]!.Status).toEqualTypeOf<
      'created' | 'processing' | 'sent' | 'completed' | 'failed' | 'cancelled' | 'returned' | (string & {})
    >();
  });

  it('refuses a path the contract does not have', () => {
    // @ts-expect-error no such path
    void merchant.GET('/v1/payee/{id}', { params: { path: { id: 1 } } });
    // @ts-expect-error no such method on the path
    void merchant.PUT('/v1/payees/{id}', { params: { path: { id: 1 } }, body: {} });
    // @ts-expect-error a partner path on the merchant client
    void merchant.GET('/finance/v1/partner/list', { params: { query: { partnerId: 1 } } });
  });

  it('refuses a body missing a required field or with a wrong value', () => {
    // @ts-expect-error EmailAddress and address are required
    void merchant.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Maria' } });
    // @ts-expect-error payeeType is individual or business
    void merchant.POST('/v1/payees', { body: { payeeType: 'company', name: 'Maria', EmailAddress: 'm@example.com', address } });
    // @ts-expect-error Currency is required
    void merchant.POST('/v1/payouts', { body: { PayeeId: 1, Amount: 10 } });
    // @ts-expect-error the path id is an integer
    void merchant.GET('/v1/payees/{id}', { params: { path: { id: 'abc' } } });
    void merchant.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Maria', EmailAddress: 'm@example.com', address } });
  });

  it('refuses a missing required query parameter on the partner client', () => {
    // @ts-expect-error Route takes ACH or WIRE
    void partner.GET('/finance/v1/payees', { params: { query: { Route: 'SWIFT' } } });
  });
});

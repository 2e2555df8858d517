// Group B's own operation, the fee preview, over real HTTP: the fee schedule's routes, exact itemised
// amounts and a clear refusal for a route the schedule does not serve.
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant(service);
});

describe('POST /payouts/api/v1/fees/calculate', () => {
  it('itemises a fixed and a percentage part (SWIFT, GBP to GB)', async () => {
    expect(
      await unwrap(
        m.b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'GB', currency: 'GBP', rail: 'SWIFT', amount: 1000 } }),
      ),
    ).toEqual({
      destinationCountry: 'GB',
      currency: 'GBP',
      rail: 'SWIFT',
      amount: '1000.00',
      fees: [
        { type: 'fixed', description: 'SWIFT transfer fee', amount: '15.00' },
        { type: 'percentage', description: '0.5% of the amount', rate: '0.5', amount: '5.00' },
      ],
      totalFee: '20.00',
      totalDebit: '1020.00',
    });
  });

  it('rounds the percentage half up to the minor unit', async () => {
    // 0.1% of 12.35 EUR = 0.01235 → 0.01
    const fee = await unwrap(
      m.b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'DE', currency: 'EUR', rail: 'SEPA', amount: 12.35 } }),
    );
    expect(fee.fees[1]).toMatchObject({ amount: '0.01' });
    // 0.1% of 15 EUR = 0.015 → 0.02
    const up = await unwrap(
      m.b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'DE', currency: 'EUR', rail: 'SEPA', amount: 15 } }),
    );
    expect(up.fees[1]).toMatchObject({ amount: '0.02' });
    expect(up.totalFee).toBe('0.37');
  });

  it('prices ACH with a fixed part only and JPY without decimals', async () => {
    expect(
      (await unwrap(m.b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'US', currency: 'USD', rail: 'ACH', amount: 250 } })))
        .fees,
    ).toHaveLength(1);
    const yen = await unwrap(
      m.b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'JP', currency: 'JPY', rail: 'SWIFT', amount: 100000 } }),
    );
    expect(yen).toMatchObject({ amount: '100000', totalFee: '2900', totalDebit: '102900' });
  });

  it('refuses a route the schedule does not serve (422 unsupported-route)', async () => {
    const { response, error } = await m.b.POST('/api/v1/fees/calculate', {
      body: { destinationCountry: 'BR', currency: 'BRL', rail: 'ACH', amount: 10 },
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({
      type: 'https://payouts.example/problems/unsupported-route',
      errors: [expect.objectContaining({ pointer: '#/rail' })],
    });
  });

  it('is only under the /payouts base path', async () => {
    const token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
    const r = await fetch(`${service.baseUrl}/api/v1/fees/calculate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });
});

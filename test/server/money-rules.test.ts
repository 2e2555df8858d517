// The money rules on their own, without a service: exact minor units from a request's JSON number (refused, never
// rounded, when the currency has fewer decimals), the decimal strings responses carry, the fee calculator's
// half-up percentage, and the sandbox's foreign-exchange debit (rounded up to the cent).
import { describe, expect, it } from 'vitest';
import { convertToUsd } from '../../server/domain/banking/fx-rates.js';
import { calculateFee } from '../../server/domain/fees/fee-calculator.js';
import { exponentOf, toDecimalString, toMinorUnits } from '../../server/platform/money/currencies.js';

const at = { amount: 'Amount', currency: 'Currency' };
/** The Problem a rule throws, as its kind and the fields it points at. */
const refusal = (rule: () => unknown) => {
  try {
    rule();
  } catch (err) {
    const problem = err as { kind: string; extra: { errors?: { pointer?: string }[] } };
    return { kind: problem.kind, fields: (problem.extra.errors ?? []).map((e) => e.pointer) };
  }
  throw new Error('the rule accepted what it should refuse');
};

describe('toMinorUnits', () => {
  it.each([
    [12.5, 'USD', 1250],
    [0.1, 'USD', 10],
    [1.1, 'USD', 110],
    [1, 'USD', 100],
    [0.01, 'USD', 1],
    [500, 'JPY', 500],
    [1.234, 'BHD', 1234],
    [0.001, 'KWD', 1],
    [9_007_199_254_740.99, 'USD', 900_719_925_474_099],
  ])('reads %s %s as %s minor units', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency, at)).toBe(minor);
  });

  it.each([
    [1.005, 'USD'],
    [0.1 + 0.2, 'USD'],
    [1.5, 'JPY'],
    [1.2345, 'BHD'],
  ])('refuses %s %s: more decimals than the currency has, never rounded', (amount, currency) => {
    expect(refusal(() => toMinorUnits(amount, currency, at))).toEqual({ kind: 'invalid-amount', fields: ['#/Amount'] });
  });

  it.each([0, -1, -0.5, 1e-7, 1e21, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s: not a positive decimal amount', (amount) => {
    expect(refusal(() => toMinorUnits(amount, 'USD', at))).toEqual({ kind: 'invalid-amount', fields: ['#/Amount'] });
  });

  it('refuses a currency it does not pay out in, naming the currency field', () => {
    expect(refusal(() => toMinorUnits(10, 'XXX', at))).toEqual({ kind: 'unsupported-currency', fields: ['#/Currency'] });
    expect(refusal(() => exponentOf('usd', 'currency'))).toEqual({ kind: 'unsupported-currency', fields: ['#/currency'] });
  });
});

describe('toDecimalString', () => {
  it.each([
    [1250, 'USD', '12.50'],
    [5, 'USD', '0.05'],
    [0, 'USD', '0.00'],
    [500, 'JPY', '500'],
    [1234, 'BHD', '1.234'],
    [7, 'KWD', '0.007'],
    [1250, 'XXX', '12.50'],
  ])('writes %s %s as %s', (minor, currency, text) => {
    expect(toDecimalString(minor, currency)).toBe(text);
  });

  it('is the inverse of toMinorUnits', () => {
    for (const [amount, currency] of [
      ['12.34', 'USD'],
      ['1', 'JPY'],
      ['0.125', 'BHD'],
    ] as const)
      expect(toDecimalString(toMinorUnits(Number(amount), currency, at), currency)).toBe(Number(amount).toFixed(exponentOf(currency, 'c')));
  });
});

describe('calculateFee', () => {
  const fee = (rail: string, currency: string, destinationCountry: string, amount: number) =>
    calculateFee({ rail, currency, destinationCountry, amount } as Parameters<typeof calculateFee>[0]);

  it('charges a fixed fee alone where the route has no percentage', () => {
    expect(fee('ACH', 'USD', 'US', 100)).toEqual({
      destinationCountry: 'US',
      currency: 'USD',
      rail: 'ACH',
      amount: '100.00',
      fees: [{ type: 'fixed', description: 'ACH transfer fee', amount: '0.25' }],
      totalFee: '0.25',
      totalDebit: '100.25',
    });
  });

  it.each([
    // SWIFT USD, 0.5%: 3.00 → 1.5 cents, half up to 2; 3.02 → 1.51 → 2; 2.98 → 1.49 → 1.
    ['SWIFT', 'USD', 'DE', 3, '0.02', '25.02', '28.02'],
    ['SWIFT', 'USD', 'DE', 3.02, '0.02', '25.02', '28.04'],
    ['SWIFT', 'USD', 'DE', 2.98, '0.01', '25.01', '27.99'],
    // SEPA EUR, 0.1%: 5.00 → 0.5 cent → 1; 4.99 → 0.499 → 0; 15.00 → 1.5 → 2.
    ['SEPA', 'EUR', 'FR', 5, '0.01', '0.36', '5.36'],
    ['SEPA', 'EUR', 'FR', 4.99, '0.00', '0.35', '5.34'],
    ['SEPA', 'EUR', 'FR', 15, '0.02', '0.37', '15.37'],
    // SWIFT JPY, 0.4%, no minor unit: 125 → 0.5 yen → 1; 1250 → 5.
    ['SWIFT', 'JPY', 'JP', 125, '1', '2501', '2626'],
    ['SWIFT', 'JPY', 'JP', 1250, '5', '2505', '3755'],
    // SWIFT MXN, 0.75%: 2.00 → 1.5 centavos → 2.
    ['SWIFT', 'MXN', 'MX', 2, '0.02', '300.02', '302.02'],
  ])(
    '%s %s to %s on %s: the percentage %s rounds half up to the minor unit (fee %s, debit %s)',
    (rail, currency, country, amount, part, total, debit) => {
      const result = fee(rail, currency, country, amount);
      expect(result.fees.find((f) => f.type === 'percentage')?.amount).toBe(part);
      expect(result.totalFee).toBe(total);
      expect(result.totalDebit).toBe(debit);
    },
  );

  it('is exact where binary floating point is not: 0.1% of 1000.10 EUR is 1.0001, rounded to 1.00', () => {
    expect(fee('SEPA', 'EUR', 'DE', 1000.1).fees[1]).toMatchObject({ amount: '1.00', rate: '0.1' });
  });

  it('refuses a route the schedule does not list, naming the rail', () => {
    expect(refusal(() => fee('ACH', 'EUR', 'DE', 10))).toEqual({ kind: 'unsupported-route', fields: ['#/rail'] });
    expect(refusal(() => fee('SEPA', 'EUR', 'US', 10))).toEqual({ kind: 'unsupported-route', fields: ['#/rail'] });
  });

  it('refuses an amount with more decimals than the currency, naming the amount', () => {
    expect(refusal(() => fee('SWIFT', 'JPY', 'JP', 1.5))).toEqual({ kind: 'invalid-amount', fields: ['#/amount'] });
  });
});

describe('convertToUsd', () => {
  it.each([
    // 92.10 EUR at 0.9210 per USD is exactly 100.00 USD.
    [9210, 'EUR', 10_000],
    [14_950, 'JPY', 10_000],
    // 1 euro cent is 1.0857... US cents: rounded up, in the bank's favour, never to nothing.
    [1, 'EUR', 2],
    [1, 'JPY', 1],
  ])('debits %s minor units of %s as %s US cents', (minor, currency, cents) => {
    expect(convertToUsd(minor, currency).sourceMinor).toBe(cents);
  });

  it('quotes the rate it used', () => {
    expect(convertToUsd(100, 'GBP').rate).toBe('0.7850');
  });

  it('refuses a currency the bank does not wire in', () => {
    expect(refusal(() => convertToUsd(100, 'BHD'))).toEqual({ kind: 'unsupported-currency', fields: ['#/currency'] });
  });
});

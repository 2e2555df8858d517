// The sandbox's foreign-exchange quotes for international wires: units of the target currency per 1 USD,
// fixed for the life of the sandbox so tests can predict the USD debit. A wire in a currency missing here
// is refused (the bank does not send it).
import { Problem, bodyField } from '../../platform/problems.js';
import { currencyExponents } from '../../platform/money/currencies.js';

export const fxRates: Readonly<Record<string, string>> = {
  AUD: '1.5320',
  CAD: '1.3650',
  CHF: '0.8840',
  CNY: '7.2450',
  CZK: '23.1500',
  DKK: '6.8700',
  EUR: '0.9210',
  GBP: '0.7850',
  HKD: '7.8100',
  INR: '83.2500',
  JPY: '149.5000',
  MXN: '17.2500',
  NOK: '10.7200',
  NZD: '1.6650',
  PLN: '3.9800',
  SEK: '10.4500',
  SGD: '1.3450',
  ZAR: '18.6500',
};

export interface Conversion {
  rate: string;
  /**
   * USD cents debited: targetAmount / rate, rounded up to the cent (in the bank's favour). Rounding to nearest
   * would debit less than the value sent for up to half a cent per wire, which splitting a payment multiplies;
   * rounding up debits at most a cent more than it, and never nothing for a positive amount.
   */
  sourceMinor: number;
}

/** Exact conversion in integers (BigInt): no binary floating point between the request and the ledger. */
export function convertToUsd(targetMinor: number, currency: string): Conversion {
  const rate = fxRates[currency];
  const exponent = currencyExponents[currency];
  if (rate === undefined || exponent === undefined) {
    throw new Problem('unsupported-currency', `International wires are not sent in ${currency}.`, {
      errors: [bodyField('currency', 'unsupported currency')],
    });
  }
  const [whole = '0', fraction = ''] = rate.split('.');
  const rateUnits = BigInt(whole + fraction);
  const numerator = BigInt(targetMinor) * 10n ** BigInt(2 + fraction.length);
  const denominator = 10n ** BigInt(exponent) * rateUnits;
  let cents = numerator / denominator;
  if (numerator % denominator !== 0n) cents += 1n;
  return { rate, sourceMinor: Number(cents) };
}

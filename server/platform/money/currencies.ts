// ISO 4217 minor-unit exponents of the currencies the service pays out in. Amounts are kept as integer
// minor units; a request amount with more decimals than its currency has is refused, never rounded.
import { Problem, bodyField } from '../problems.js';

export const currencyExponents: Readonly<Record<string, number>> = {
  AUD: 2,
  BHD: 3,
  BRL: 2,
  CAD: 2,
  CHF: 2,
  CNY: 2,
  CZK: 2,
  DKK: 2,
  EUR: 2,
  GBP: 2,
  HKD: 2,
  HUF: 2,
  IDR: 2,
  ILS: 2,
  INR: 2,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KES: 2,
  KRW: 0,
  KWD: 3,
  MXN: 2,
  MYR: 2,
  NGN: 2,
  NOK: 2,
  NZD: 2,
  OMR: 3,
  PHP: 2,
  PLN: 2,
  RON: 2,
  SEK: 2,
  SGD: 2,
  THB: 2,
  TND: 3,
  TRY: 2,
  USD: 2,
  VND: 0,
  ZAR: 2,
};

export function exponentOf(currency: string, field: string): number {
  const exponent = currencyExponents[currency];
  if (exponent === undefined) {
    throw new Problem('unsupported-currency', `${currency} is not a currency this service pays out in.`, {
      errors: [bodyField(field, 'unsupported currency')],
    });
  }
  return exponent;
}

/** Where a request carries its amount and currency: each problem names the field at fault. */
export interface AmountFields {
  amount: string;
  currency: string;
}

/**
 * A JSON number as exact minor units. The number's shortest decimal form (what the caller wrote, as JSON
 * parsing keeps it) is read digit by digit, so 0.1 + 0.2 style binary errors never reach the ledger.
 */
export function toMinorUnits(amount: number, currency: string, at: AmountFields): number {
  const exponent = exponentOf(currency, at.currency);
  const field = at.amount;
  const text = Number.isInteger(amount) ? String(amount) : amount.toString();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || amount <= 0) {
    throw new Problem('invalid-amount', `${text} is not a positive amount.`, {
      errors: [bodyField(field, 'must be a positive decimal amount')],
    });
  }
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > exponent) {
    throw new Problem(
      'invalid-amount',
      `${currency} takes at most ${exponent} decimal${exponent === 1 ? '' : 's'}; ${text} has ${fraction.length}.`,
      {
        errors: [bodyField(field, `${currency} amounts take at most ${exponent} decimals`)],
      },
    );
  }
  return Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
}

/** Minor units as the decimal string responses carry ("1250.00", "500" for JPY). */
export function toDecimalString(minor: number, currency: string): string {
  const exponent = currencyExponents[currency] ?? 2;
  if (exponent === 0) return String(minor);
  const text = String(minor).padStart(exponent + 1, '0');
  return `${text.slice(0, -exponent)}.${text.slice(-exponent)}`;
}

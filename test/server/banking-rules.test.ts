// Group D's pure rules on their own, without a service: the settlement date of next-day ACH, the ABA check digit,
// and what a ledger entry does to its account's balances in each status.
import { describe, expect, it } from 'vitest';
import { effectOf } from '../../server/domain/banking/ledger.js';
import { abaIsValid, bankRoutingNumber } from '../../server/domain/banking/routing-numbers.js';
import { nextBankingDay } from '../../server/domain/banking/transfers.js';

describe('nextBankingDay', () => {
  it.each([
    ['2026-11-23T10:00:00Z', '2026-11-24'], // Monday → Tuesday
    ['2026-11-26T23:59:59Z', '2026-11-27'], // Thursday, late → Friday
    ['2026-11-27T00:00:00Z', '2026-11-30'], // Friday → Monday
    ['2026-11-28T12:00:00Z', '2026-11-30'], // Saturday → Monday
    ['2026-11-29T23:59:59Z', '2026-11-30'], // Sunday → Monday
    ['2026-12-31T12:00:00Z', '2027-01-01'], // across the year: weekends only, no holiday calendar
    ['2028-02-28T12:00:00Z', '2028-02-29'], // a leap day is a banking day (a Tuesday)
  ])('after %s is %s (UTC)', (now, day) => {
    expect(nextBankingDay(Date.parse(now))).toBe(day);
  });
});

describe('abaIsValid', () => {
  it.each([bankRoutingNumber, '021000021', '011000015', '121000358'])('accepts %s (its check digit is right)', (number) => {
    expect(abaIsValid(number)).toBe(true);
  });

  it.each(['021000022', '084101023', '12345678', '0210000210', '02100002a', '', ' 21000021'])('refuses %j', (number) => {
    expect(abaIsValid(number)).toBe(false);
  });
});

describe('effectOf', () => {
  it.each([
    ['CREDIT', 'pending', { ledger: 0, available: 0 }],
    ['CREDIT', 'posted', { ledger: 500, available: 500 }],
    ['CREDIT', 'voided', { ledger: 0, available: 0 }],
    // A pending debit holds the money at once (available), the ledger moves when it posts.
    ['DEBIT', 'pending', { ledger: 0, available: -500 }],
    ['DEBIT', 'posted', { ledger: -500, available: -500 }],
    ['DEBIT', 'voided', { ledger: 0, available: 0 }],
  ] as const)('a %s entry %s moves the balances by %o', (direction, status, effect) => {
    expect(effectOf(direction, status, 500)).toEqual(effect);
  });
});

// Prices a payout from the fee schedule (fee-schedule.json): a fixed part and a percentage of the amount,
// in exact minor units, the percentage rounded half up to the currency's minor unit.
import type { components } from '../../../generated/platform/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { exponentOf, toDecimalString, toMinorUnits } from '../../platform/money/currencies.js';
import schedule from './fee-schedule.json' with { type: 'json' };

type Schemas = components['schemas'];

/** A percentage rate as an integer scaled by 10^4 ("0.5" → 5000n). */
const scaledRate = (rate: string) => {
  const [whole = '0', fraction = ''] = rate.split('.');
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0').slice(0, 4));
};

/** amount × rate% rounded half up: amount × scaled / (100 × 10^4). */
function percentageOf(amountMinor: number, rate: string): number {
  const numerator = BigInt(amountMinor) * scaledRate(rate);
  const denominator = 1_000_000n;
  return Number((numerator * 2n + denominator) / (2n * denominator));
}

export function calculateFee(request: Schemas['FeeCalculationRequest']): Schemas['FeeCalculation'] {
  const route = schedule.routes.find(
    (r) =>
      r.rail === request.rail &&
      r.currency === request.currency &&
      (r.countries.includes('*') || r.countries.includes(request.destinationCountry)),
  );
  if (!route) {
    throw new Problem(
      'unsupported-route',
      `The fee schedule has no ${request.rail} route for ${request.currency} to ${request.destinationCountry}.`,
      {
        errors: [bodyField('rail', `no ${request.rail} route for ${request.currency} to ${request.destinationCountry}`)],
      },
    );
  }
  exponentOf(request.currency, 'currency');
  const amount = toMinorUnits(request.amount, request.currency, { amount: 'amount', currency: 'currency' });
  // The schedule is data: a route may charge no fixed part, which toMinorUnits (positive amounts only) refuses.
  const fixed =
    Number(route.fixed) === 0 ? 0 : toMinorUnits(Number(route.fixed), request.currency, { amount: 'amount', currency: 'currency' });
  const fees: Schemas['FeeItem'][] = [
    { type: 'fixed', description: route.fixedDescription, amount: toDecimalString(fixed, request.currency) },
  ];
  let total = fixed;
  if (route.percentage !== '0') {
    const part = percentageOf(amount, route.percentage);
    fees.push({
      type: 'percentage',
      description: `${route.percentage}% of the amount`,
      rate: route.percentage,
      amount: toDecimalString(part, request.currency),
    });
    total += part;
  }
  return {
    destinationCountry: request.destinationCountry,
    currency: request.currency,
    rail: request.rail,
    amount: toDecimalString(amount, request.currency),
    fees,
    totalFee: toDecimalString(total, request.currency),
    totalDebit: toDecimalString(amount + total, request.currency),
  };
}

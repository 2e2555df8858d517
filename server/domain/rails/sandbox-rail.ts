// The sandbox rail: decides each step of a payout deterministically from the account's number (or IBAN).
// An account ending in one of the test suffixes of sandbox-test-accounts.json fails with that reason at
// that step; every other account completes. The same file feeds the docs.
import type { PayoutState } from '../../platform/store/schema.js';
import type { PayoutRail, PayoutReason, RailStep } from './payout-rail.js';
import testAccounts from './sandbox-test-accounts.json' with { type: 'json' };

type Outcome = (typeof testAccounts.outcomes)[number];

/** A failure the sandbox's test accounts produce, with the same message: what `simulatePayoutFailure` fails a payout with. */
export function sandboxFailure(code: Outcome['reason']): PayoutReason {
  const outcome = testAccounts.outcomes.find((o) => o.reason === code);
  if (!outcome) throw new Error(`No test account fails with ${code}.`);
  return { code: outcome.reason as PayoutReason['code'], message: outcome.message };
}

export const sandboxRail: PayoutRail = {
  next(state, account) {
    const number = account.account_number ?? account.iban ?? '';
    const outcome: Outcome | undefined = testAccounts.outcomes.find((o) => number.endsWith(o.endsWith));
    const failure = (at: PayoutState): RailStep | undefined =>
      outcome?.failsAt === at
        ? { to: 'failed', reasons: [{ code: outcome.reason as PayoutReason['code'], message: outcome.message }] }
        : undefined;
    switch (state) {
      case 'created':
        return { to: 'processing' };
      case 'processing':
        return failure('processing') ?? { to: 'sent' };
      case 'sent':
        return failure('sent') ?? { to: 'completed' };
      default:
        throw new Error(`A ${state} payout takes no further step.`);
    }
  },
};

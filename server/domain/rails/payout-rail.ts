// What a payment rail is to the engines that move payouts (payouts/) and partner payments (partners/): given
// a payment's state and the account it pays into, the state it moves to next, and why when it fails.
import type { components } from '../../../generated/merchant/schema.js';
import type { PayoutState } from '../../platform/store/schema.js';

export type PayoutReason = components['schemas']['PayoutReason'];

/** States no rail moves a payment out of. */
export const finalStates: ReadonlySet<PayoutState> = new Set(['completed', 'failed', 'cancelled', 'returned']);

export interface RailAccount {
  account_number: string | null;
  iban: string | null;
}

export interface RailStep {
  to: PayoutState;
  reasons?: PayoutReason[];
}

/** A payment rail: given a payout's current state and its account, the state it moves to next, or undefined when
 * the rail holds it where it is (the engine then stops stepping it). */
export interface PayoutRail {
  next(state: PayoutState, account: RailAccount): RailStep | undefined;
}

/** Production's rail in this build, which has no adapter to a real one: it holds every payment in its first state
 * (openapi/DECISIONS.md, "Production without a rail"). */
export const noRail: PayoutRail = { next: () => undefined };

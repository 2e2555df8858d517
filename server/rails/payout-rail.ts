// What a payment rail is to the engines that move payouts (payouts/) and partner payments (partners/): given
// a payment's state and the account it pays into, the state it moves to next, and why when it fails.
import type { components } from '../../generated/merchant/schema.js';
import type { PayoutState } from '../store/schema.js';

export type PayoutReason = components['schemas']['PayoutReason'];

/** States no rail moves a payment out of. */
export const finalStates: ReadonlySet<PayoutState> = new Set(['completed', 'failed', 'cancelled']);

export interface RailAccount {
  account_number: string | null;
  iban: string | null;
}

export interface RailStep {
  to: PayoutState;
  reasons?: PayoutReason[];
}

/** A payment rail: given a payout's current state and its account, the state it moves to next. */
export interface PayoutRail {
  next(state: PayoutState, account: RailAccount): RailStep;
}

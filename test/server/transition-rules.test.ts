// The three money movements' allowed-states tables on their own, without a service: every pair of states of a payout,
// a payment and a transfer, allowed or refused, as the README's table of the three movements states it. A refused pair
// is refused by the movement's transition before any query is sent (the store given here throws if touched).
import type { Kysely, Selectable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { allowedTransferTransitions, transitionTransfer } from '../../server/domain/banking/transfer-transitions.js';
import { allowedPaymentTransitions, transitionPayment } from '../../server/domain/partners/payment-transitions.js';
import { allowedPayoutTransitions, transition } from '../../server/domain/payouts/payout-transitions.js';
import type { BankingTransferTable } from '../../server/platform/store/banking-schema.js';
import type { Database } from '../../server/platform/store/schema.js';

/** A store no query may reach. */
const untouchable = new Proxy({} as Kysely<Database>, {
  get(_, property) {
    throw new Error(`the store was used (${String(property)}) before the transition was refused`);
  },
});

/** Every ordered pair of the states, each with whether `allowed` lists it. */
function pairs<S extends string>(states: readonly S[], allowed: readonly `${S} → ${S}`[]): [S, S, boolean][] {
  return states.flatMap((from) => states.map((to): [S, S, boolean] => [from, to, allowed.includes(`${from} → ${to}`)]));
}

const payoutStates = ['created', 'processing', 'sent', 'completed', 'failed', 'cancelled', 'returned'] as const;
const payoutMoves = [
  'created → processing',
  'created → cancelled',
  'processing → sent',
  'processing → failed',
  'sent → completed',
  'sent → failed',
  'completed → returned',
] as const;

describe('allowedPayoutTransitions', () => {
  it('has a row for every state of a payout', () => {
    expect(Object.keys(allowedPayoutTransitions).sort()).toEqual([...payoutStates].sort());
  });

  it.each(pairs(payoutStates, payoutMoves))('%s → %s: allowed %s', (from, to, allowed) => {
    expect(allowedPayoutTransitions[from].includes(to)).toBe(allowed);
  });

  it.each(pairs(payoutStates, payoutMoves).filter(([, , allowed]) => !allowed))('transition refuses %s → %s', async (from, to) => {
    const options = { nextStepAt: null, ...(to === 'returned' ? { returnCode: 'R01' } : {}) };
    await expect(transition(untouchable, ['po_0'], from, to, options)).rejects.toThrow(`A payout cannot go from ${from} to ${to}.`);
  });
});

// A payment request's states are a payout's, and so are its moves.
describe('allowedPaymentTransitions', () => {
  it('has a row for every state of a payment', () => {
    expect(Object.keys(allowedPaymentTransitions).sort()).toEqual([...payoutStates].sort());
  });

  it.each(pairs(payoutStates, payoutMoves))('%s → %s: allowed %s', (from, to, allowed) => {
    expect(allowedPaymentTransitions[from].includes(to)).toBe(allowed);
  });

  it.each(pairs(payoutStates, payoutMoves).filter(([, , allowed]) => !allowed))('transitionPayment refuses %s → %s', async (from, to) => {
    const options = { now: 0, environment: 'sandbox' as const, ...(to === 'returned' ? { returnCode: 'R01' } : {}) };
    await expect(transitionPayment(untouchable, { payment_id: 1, status: from }, to, options)).rejects.toThrow(
      `A payment cannot go from ${from} to ${to}.`,
    );
  });

  it('refuses a return code on anything but a return, and a return without one', async () => {
    const options = { now: 0, environment: 'sandbox' as const };
    await expect(transitionPayment(untouchable, { payment_id: 1, status: 'completed' }, 'returned', options)).rejects.toThrow(
      'A return, and only a return, has a return code.',
    );
    await expect(
      transitionPayment(untouchable, { payment_id: 1, status: 'sent' }, 'completed', { ...options, returnCode: 'R01' }),
    ).rejects.toThrow('A return, and only a return, has a return code.');
  });
});

const transferStates = ['pending', 'processing', 'completed', 'failed', 'returned'] as const;
const transferMoves = [
  'pending → processing',
  // A book transfer posts at once; a transfer refused before the network fails from pending.
  'pending → completed',
  'pending → failed',
  'processing → completed',
  'processing → failed',
  'completed → returned',
] as const;

describe('allowedTransferTransitions', () => {
  it('has a row for every status of a transfer', () => {
    expect(Object.keys(allowedTransferTransitions).sort()).toEqual([...transferStates].sort());
  });

  it.each(pairs(transferStates, transferMoves))('%s → %s: allowed %s', (from, to, allowed) => {
    expect(allowedTransferTransitions[from].includes(to)).toBe(allowed);
  });

  it.each(pairs(transferStates, transferMoves).filter(([, , allowed]) => !allowed))(
    'transitionTransfer refuses %s → %s',
    async (from, to) => {
      const row = { id: 1, status: from } as unknown as Selectable<BankingTransferTable>;
      await expect(transitionTransfer(untouchable, row, to, { now: 0 })).rejects.toThrow(`A transfer cannot go from ${from} to ${to}.`);
    },
  );
});

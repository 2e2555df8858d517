// The payouts the crash and chaos suites drive: one payee per sandbox outcome
// (server/domain/rails/sandbox-test-accounts.json), paid in turn, and what each payout must end as.
import type { MerchantClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { bankAccount, individual } from '../support/merchants.js';
import type { AcceptedPayout } from './payout-load.js';

export const accounts = [
  { number: '000123456789', final: 'completed', states: ['created', 'processing', 'sent', 'completed'] },
  { number: '000111110002', final: 'failed', states: ['created', 'processing', 'failed'] }, // invalid_account at processing
  { number: '000111110001', final: 'failed', states: ['created', 'processing', 'sent', 'failed'] }, // account_closed at sent
] as const;

/** Each account number's sequence of payout states. */
export const expectedStates = new Map<string, readonly string[]>(accounts.map((a) => [a.number, a.states]));

/** The account the i-th payout of the load pays. */
export const accountOf = (index: number) => accounts[index % accounts.length]!;

/** One payee with its account per outcome, in the order of `accounts`. */
export async function outcomePayees(client: MerchantClient): Promise<number[]> {
  const ids: number[] = [];
  for (const account of accounts) {
    const payee = await unwrap(client.POST('/v1/payees', { body: individual }));
    await unwrap(client.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount(account.number) }));
    ids.push(payee.id);
  }
  return ids;
}

/** Each accepted payout's status, read through the API (eight reads at a time). */
export async function statusesOf(client: MerchantClient, accepted: readonly AcceptedPayout[]): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  const queue = [...accepted];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const payout = await unwrap(
          client.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: p.reference } } }),
        );
        statuses.set(p.reference, payout.Status);
      }
    }),
  );
  return statuses;
}

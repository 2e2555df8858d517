// Creates that a count limits (accounts per payee, webhook registrations per merchant): the count and the
// insert run in one transaction (the idempotent create's: both take an Idempotency-Key), and creates under one
// owner take turns (turns.ts), so concurrent requests cannot all count the same rows and each add one more.
// On PostgreSQL (read committed) the turn is keyed by the collection and its owner, taken before counting and
// released at commit; no owner row is locked, so other writes to it are not held up. SQLite runs one
// transaction at a time (the driver holds its one connection for the whole transaction, and processes sharing the
// file hold its write lock from `begin immediate`: database.ts), so the count there is always current.
import type { Transaction } from 'kysely';
import { Problem } from '../problems.js';
import type { Store } from './database.js';
import { idempotent, type Creation, type IdempotencyClaim, type StoredResponse } from './idempotency.js';
import type { Database } from './schema.js';
import { takeTurn } from './turns.js';

export interface CountLimit {
  /** What is counted, e.g. `payee_accounts`; with `owner` it names the turn to take. */
  collection: string;
  /** Whose rows are counted: the payee of its accounts, the merchant of its webhooks. */
  owner: number;
  max: number;
  /** The refusal's detail, e.g. `A payee holds at most 20 accounts.` */
  refusal: string;
  /** How many rows the owner holds now, read through the transaction. */
  count(trx: Transaction<Database>): Promise<number | string | bigint>;
}

/**
 * Runs `create` unless the owner already holds `max` rows (422 limit-reached), under the request's idempotency
 * claim when it has one: the key's turn first (idempotency.ts), then the owner's, in every create alike.
 */
export async function createWithinLimit<T>(
  store: Store,
  limit: CountLimit,
  claim: IdempotencyClaim | undefined,
  create: Creation<T>,
): Promise<StoredResponse<T>> {
  return idempotent(store, claim, {
    run: async (trx) => {
      await takeTurn(trx, store.dialect, `count-limit\n${limit.collection}\n${limit.owner}`);
      if (Number(await limit.count(trx)) >= limit.max) throw new Problem('limit-reached', limit.refusal);
      return create.run(trx);
    },
    current: create.current,
  });
}

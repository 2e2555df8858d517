// Idempotency for every banking create, on top of runIdempotent (server/store/idempotency.ts): keys are
// scoped to the merchant and the operation. runIdempotent lets concurrent duplicates race on the key's
// primary key, which is only safe when the loser's work could also succeed; here it may not (the first of
// 20 duplicate debits can leave too little for the others, which would answer 422 instead of replaying).
// So on PostgreSQL duplicates of one key first queue on a transaction-scoped advisory lock, and a later one
// that finds the key committed steps aside as a key collision, which runIdempotent answers by replaying.
// SQLite runs one transaction at a time, so the replay check at its start already sees the first.
import { sql, type Transaction } from 'kysely';
import { Problem } from '../http/problem.js';
import type { Store } from '../store/database.js';
import { requestHash, runIdempotent, type StoredResponse } from '../store/idempotency.js';
import type { Database } from '../store/schema.js';

export interface IdempotentRequest {
  merchantId: number;
  operationId: string;
  /** The Idempotency-Key header, if sent. */
  key: string | undefined;
  /** Everything the request asked for (path and body): same key with other values is a 409. */
  request: unknown;
}

/** What runIdempotent treats as losing the race on the key: it then replays the winner's response. */
const keyCollision = () => Object.assign(new Error('An earlier request with this idempotency key committed first.'), { code: '23505' });

export async function idempotent<T>(store: Store, req: IdempotentRequest, work: (trx: Transaction<Database>) => Promise<{ status: number; body: T }>): Promise<StoredResponse<T>> {
  const claim = req.key === undefined ? undefined : { scope: `merchant:${req.merchantId}:${req.operationId}`, key: req.key, hash: requestHash(req.request) };
  return runIdempotent(store, claim, async (trx) => {
    if (claim && store.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${claim.scope}\n${claim.key}`}, 0))`.execute(trx);
      const earlier = await trx.selectFrom('idempotency_keys').select('key').where('scope', '=', claim.scope).where('key', '=', claim.key).executeTakeFirst();
      if (earlier) throw keyCollision();
    }
    return work(trx);
  });
}

/** Whether err is a unique-index violation of `index` (PostgreSQL names the index; SQLite names its columns). */
export function violates(err: unknown, index: { name: string; columns: string }): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return e.constraint === index.name;
  return typeof e?.message === 'string' && e.message.includes(`UNIQUE constraint failed: ${index.columns}`);
}

/** Runs fn, turning a violation of `index` (two requests racing for one unique value) into a 409. */
export async function conflictOn<T>(index: { name: string; columns: string }, problem: () => Problem, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (violates(err, index)) throw problem();
    throw err;
  }
}

// Idempotent creation: the work and the record of its response commit in one transaction, keyed by
// (scope, key). A repeat with the same request hash gets the stored response back; with a different hash,
// a 409 problem. Concurrent duplicates race on the key's primary key: the loser rolls back and replays.
// A key is kept for 24 hours (the contract's promise); after that it starts afresh.
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Problem } from '../http/problem.js';
import type { Store } from './database.js';
import type { Database } from './schema.js';

export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

export interface IdempotencyClaim {
  /** Whose keys these are (`merchant:42:createPayout`), so callers cannot collide. */
  scope: string;
  key: string;
  /** A hash of what the request asked for; see requestHash. */
  hash: string;
}

export interface StoredResponse<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/** A stable hash of a JSON value: object keys sorted, so field order does not matter. */
export function requestHash(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

export async function runIdempotent<T>(
  store: Store,
  claim: IdempotencyClaim | undefined,
  work: (trx: Transaction<Database>) => Promise<{ status: number; body: T }>,
  conflictDetail = `The key ${claim?.key ?? ''} was first used with a different request.`,
): Promise<StoredResponse<T>> {
  const replay = async (db: Pick<Store['db'], 'selectFrom'>): Promise<StoredResponse<T> | undefined> => {
    if (!claim) return undefined;
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', claim.scope)
      .where('key', '=', claim.key)
      .where('created_at', '>', Date.now() - idempotencyKeyLifetimeMs)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.request_hash !== claim.hash) throw new Problem('idempotency-conflict', conflictDetail);
    return { status: row.status, body: JSON.parse(row.body) as T, replayed: true };
  };
  try {
    return await store.db.transaction().execute(async (trx) => {
      const earlier = await replay(trx);
      if (earlier) return earlier;
      if (claim) {
        await trx.deleteFrom('idempotency_keys').where('scope', '=', claim.scope).where('key', '=', claim.key).where('created_at', '<=', Date.now() - idempotencyKeyLifetimeMs).execute();
      }
      const result = await work(trx);
      if (claim) {
        await trx
          .insertInto('idempotency_keys')
          .values({ scope: claim.scope, key: claim.key, request_hash: claim.hash, status: result.status, body: JSON.stringify(result.body), created_at: Date.now() })
          .execute();
      }
      return { ...result, replayed: false };
    });
  } catch (err) {
    if (!claim || !isUniqueViolation(err)) throw err;
    const earlier = await replay(store.db);
    if (!earlier) throw err;
    return earlier;
  }
}

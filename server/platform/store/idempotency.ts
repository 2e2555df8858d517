// Idempotent creation: the one mechanism behind every create of the contract (each takes an Idempotency-Key:
// payees, payee accounts, payouts, webhook registrations, recipients, counterparties and payment requests of
// groups A, B, C and E, every create of group D) and behind partnerPaymentUniqueId (groups C and E: the same
// mechanism, keyed by the partner). The create's work and the record of its response commit in one transaction,
// keyed by (scope, key); the scope names the caller and the operation, so keys of different callers or operations
// never meet. A "request" is what the hash covers: the body, plus the path's ids where there are any. A replay
// comes back `replayed`, which the HTTP layer answers as `Idempotent-Replayed: true` (http/mount-group.ts).
//
// | case                               | answer                                                                 |
// |------------------------------------|------------------------------------------------------------------------|
// | new key                            | the work runs; its response is stored for 24 h (1)                     |
// | same key, same request             | the stored status, with the resource as it is now (2)                  |
// | same key, other request            | 409 idempotency-conflict; nothing runs                                 |
// | concurrent duplicates of one key   | one runs; the others wait until it commits, then replay its response   |
// | the work is refused (4xx) or fails | nothing is stored: a retry with the same key runs the work again       |
// | no key                             | the work runs every time                                               |
// | key older than its lifetime        | as a new key                                                           |
//
// (2) `Idempotent-Replayed: true`; the body is what the create's `current` reads now from the first answer: a
// replay never shows a state the resource has left (a rotated webhook secret, a payout since completed), and a
// resource removed since answers 404 not-found. Every create must give `current` (the type requires it), so none
// can replay a stale copy.
// partnerPaymentUniqueId, as its contract says: (1) kept for ever; (2) answered 200 with the payment as it is now.
// A payment request may carry both keys: it is then claimed under both at once (each key's turn, in one order),
// must match every live record, and the first claim with one answers (the unique id's, as partners expect).
//
// Why duplicates wait rather than race: a loser whose own work fails (the first of 20 duplicate debits leaves
// too little for the rest) would answer 422 instead of replaying. So each key's transaction first takes its turn
// (turns.ts: an advisory lock on PostgreSQL; SQLite runs one transaction at a time, across processes too), then looks for the stored
// response. On SQLite the creates of one turn of the event loop share a commit (group-commit.ts). The key's primary
// key stays as the last resort: should two writers still both get past the turn
// (an instance of an earlier release during a rolling upgrade), the second's insert fails and it replays.
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { Problem } from '../problems.js';
import type { Store } from './database.js';
import { inGroupCommit } from './group-commit.js';
import type { Database } from './schema.js';
import { takeTurn } from './turns.js';
import { isUniqueViolation } from './unique-violation.js';

/** How long a key holds by default: the contract's promise. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

export interface IdempotencyClaim {
  /** Whose keys these are, per operation (`merchant:42:createPayout`), so callers cannot collide. */
  scope: string;
  key: string;
  /** A hash of what the request asked for; see requestHash. */
  hash: string;
  /** How long the stored response answers for the key; null: for ever. */
  lifetimeMs: number | null;
  /** The 409 for the key used again with another request. */
  conflict: () => Problem;
}

export interface StoredResponse<T> {
  status: number;
  body: T;
  replayed: boolean;
  /** On a replay, the claim whose record answered (a payment request may carry two). */
  replayOf?: IdempotencyClaim;
}

/** A stable hash of a JSON value: object keys sorted, so field order does not matter. */
export function requestHash(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

const headerConflict = (key: string) => () =>
  new Problem('idempotency-conflict', `The key ${key} was first used with a different request.`, {
    errors: [{ header: 'Idempotency-Key', detail: 'already used with a different request' }],
  });

/**
 * The claim of a request on its key: `caller` is whose keys they are (`merchant:42`), `operation` which create
 * (`createPayout`), `request` everything it asks for. Undefined when no key was sent: the work runs every time.
 */
export function claimOf(
  caller: string,
  operation: string,
  key: string | null | undefined,
  request: unknown,
  options: { lifetimeMs?: number | null; conflict?: () => Problem } = {},
): IdempotencyClaim | undefined {
  if (!key) return undefined;
  return {
    scope: `${caller}:${operation}`,
    key,
    hash: requestHash(request),
    lifetimeMs: options.lifetimeMs === undefined ? idempotencyKeyLifetimeMs : options.lifetimeMs,
    conflict: options.conflict ?? headerConflict(key),
  };
}

type KeyRecord = Awaited<ReturnType<typeof findRecord>>;

function findRecord(db: Kysely<Database>, claim: IdempotencyClaim) {
  return db.selectFrom('idempotency_keys').selectAll().where('scope', '=', claim.scope).where('key', '=', claim.key).executeTakeFirst();
}

/** One query at a time: a transaction holds one connection. */
async function recordsOf(db: Kysely<Database>, claims: IdempotencyClaim[]): Promise<KeyRecord[]> {
  const records: KeyRecord[] = [];
  for (const claim of claims) records.push(await findRecord(db, claim));
  return records;
}

const isLive = (record: NonNullable<KeyRecord>, claim: IdempotencyClaim) =>
  claim.lifetimeMs === null || Number(record.created_at) > Date.now() - claim.lifetimeMs;

function replay<T>(record: NonNullable<KeyRecord>, claim: IdempotencyClaim): StoredResponse<T> {
  return { status: record.status, body: JSON.parse(record.body) as T, replayed: true, replayOf: claim };
}

/**
 * What the claims' records say: a conflict (any live record of another request) throws; else the first claim
 * with a live record replays; else undefined, and the work runs.
 */
function answerOf<T>(records: KeyRecord[], claims: IdempotencyClaim[]): StoredResponse<T> | undefined {
  const live = claims.map((claim, i) => ({ claim, record: records[i] })).filter(({ claim, record }) => record && isLive(record, claim));
  const conflict = live.find(({ claim, record }) => record!.request_hash !== claim.hash);
  if (conflict) throw conflict.claim.conflict();
  return live[0] && replay<T>(live[0].record!, live[0].claim);
}

/** A create run under idempotency: the work, and how to read what it created as it is now. */
export interface Creation<T> {
  run: (trx: Transaction<Database>) => Promise<{ status: number; body: T }>;
  /**
   * The resource of a replayed answer (`first`, the body stored at creation) as it is now, read after the key's
   * transaction; throws a not-found Problem when the resource was removed since.
   */
  current: (first: T) => Promise<T>;
}

/**
 * Runs the creation once per claim (the behaviour matrix above); without a claim, every time. With several claims (a
 * payment request's Idempotency-Key and partnerPaymentUniqueId), the request must match every live record, the
 * first claim with one answers, and a run records them all; claims come in order of precedence.
 */
export async function idempotent<T>(
  store: Store,
  claimed: IdempotencyClaim | undefined | readonly (IdempotencyClaim | undefined)[],
  creation: Creation<T>,
): Promise<StoredResponse<T>> {
  const answer = await storedOrRun(store, claimed, creation.run);
  return answer.replayed ? { ...answer, body: await creation.current(answer.body) } : answer;
}

async function storedOrRun<T>(
  store: Store,
  claimed: IdempotencyClaim | undefined | readonly (IdempotencyClaim | undefined)[],
  work: Creation<T>['run'],
): Promise<StoredResponse<T>> {
  const claims = (Array.isArray(claimed) ? claimed : [claimed]).filter((c): c is IdempotencyClaim => c !== undefined);
  if (claims.length === 0) return { ...(await inGroupCommit(store, work)), replayed: false };
  const turns = [...new Set(claims.map((c) => `${c.scope}\n${c.key}`))].sort(); // one order for all: no deadlock
  try {
    return await inGroupCommit(store, async (trx) => {
      for (const turn of turns) await takeTurn(trx, store.dialect, turn);
      const records = await recordsOf(trx, claims);
      const earlier = answerOf<T>(records, claims);
      if (earlier) return earlier;
      const result = await work(trx);
      for (const [i, { scope, key, hash }] of claims.entries()) {
        // An expired record gives way to this request's.
        if (records[i]) await trx.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).execute();
        const record = { scope, key, request_hash: hash, status: result.status, body: JSON.stringify(result.body), created_at: Date.now() };
        await trx.insertInto('idempotency_keys').values(record).execute();
      }
      return { ...result, replayed: false };
    });
  } catch (err) {
    // The last resort (see above): a writer that got past the turn lost on a unique index; the winner's answer stands.
    if (!isUniqueViolation(err)) throw err;
    const winner = answerOf<T>(await recordsOf(store.db, claims), claims);
    if (!winner) throw err;
    return winner;
  }
}

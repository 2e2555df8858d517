// The results a handler returns (ts-rest style `{status, body, headers}`), built by the same small helpers in
// every group, so a create answers 201 with its Location and its replay flag the same way everywhere. Each is
// checked by tsc against the operation's documented responses (operation-handler.ts).

/** 200 with the body. */
export const ok = <B>(body: B) => ({ status: 200 as const, body });

/** What a create stored under its Idempotency-Key: the body, and whether this answer replays it. */
export interface Stored<B> {
  body: B;
  replayed?: boolean;
}

const locate = <B>(body: B, location: string | ((body: B) => string)) => (typeof location === 'string' ? location : location(body));

/** 201 with the created body, read at `location`; `Idempotent-Replayed: true` when it replays an earlier create (a
 * create without an Idempotency-Key, whose response documents no replay, passes `{ body }` alone). */
export function created<B>(
  result: { body: B; replayed?: never },
  location: string | ((body: B) => string),
): { status: 201; body: B; headers: { Location: string } };
export function created<B>(
  result: Stored<B>,
  location: string | ((body: B) => string),
): { status: 201; body: B; replayed: boolean | undefined; headers: { Location: string } };
export function created<B>(result: Stored<B>, location: string | ((body: B) => string)) {
  const answer = { status: 201 as const, body: result.body, headers: { Location: locate(result.body, location) } };
  return 'replayed' in result ? { ...answer, replayed: result.replayed } : answer;
}

/** 201 with what was issued that is not kept as a resource of its own (a console session's access token). */
export const issued = <B>(body: B) => ({ status: 201 as const, body });

/** 202 (accepted, not yet done) with the body, read at `location`; replayed as `created`. */
export const accepted = <B>(result: Stored<B>, location: string | ((body: B) => string)) => ({
  status: 202 as const,
  body: result.body,
  replayed: result.replayed,
  headers: { Location: locate(result.body, location) },
});

/** 204, no body. */
export const noContent = () => ({ status: 204 as const });

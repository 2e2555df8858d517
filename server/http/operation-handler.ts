// The typed handler contract. From an openapi-typescript `operations[Id]` type it derives what a handler
// receives (path params, query, body) and what it may return: one of the operation's documented success
// responses, as { status, body }. Returning an undocumented status or a body of the wrong shape fails tsc.
// Failures are thrown as Problem (problem.ts), never returned. Results are built by results.ts's helpers.
import type { RequestContext } from '../domain/auth/principal.js';

type Never<T> = [T] extends [never] ? true : [T] extends [undefined] ? true : false;
type Or<T, Fallback> = Never<T> extends true ? Fallback : Exclude<T, undefined>;

type ParametersOf<Op> = Op extends { parameters: infer P } ? P : {};
export type PathParams<Op> = Or<ParametersOf<Op> extends { path?: infer P } ? P : never, Record<string, never>>;
export type QueryParams<Op> = Or<ParametersOf<Op> extends { query?: infer Q } ? Q : never, Record<string, never>>;
export type RequestBody<Op> = Op extends { requestBody: { content: infer C } }
  ? C[keyof C]
  : Op extends { requestBody?: { content: infer C } }
    ? C[keyof C] | undefined
    : undefined;

type ResponsesOf<Op> = Op extends { responses: infer R } ? R : never;
export type SuccessStatus<Op> = Extract<keyof ResponsesOf<Op>, 200 | 201 | 202 | 204>;
type BodyOf<R> = R extends { content: infer C } ? ([C] extends [undefined] ? undefined : C[keyof C]) : undefined;

/** The header names a response documents (openapi-typescript adds an index signature, left out here). */
type HeaderNames<R> = R extends { headers: infer H } ? keyof { [K in keyof H as string extends K ? never : K]: H[K] } : never;
/**
 * `replayed: true` answers `Idempotent-Replayed: true` (mountGroup sets it, the one place that does), allowed
 * only on a response that documents the header.
 */
type Replay<R> = 'Idempotent-Replayed' extends HeaderNames<R> ? { replayed?: boolean } : { replayed?: never };

export type OperationResult<Op> = {
  [S in SuccessStatus<Op>]: (BodyOf<ResponsesOf<Op>[S]> extends undefined
    ? { status: S; body?: undefined; headers?: Record<string, string> }
    : { status: S; body: BodyOf<ResponsesOf<Op>[S]>; headers?: Record<string, string> }) &
    Replay<ResponsesOf<Op>[S]>;
}[SuccessStatus<Op>];

export interface OperationRequest<Op, Ctx> {
  params: PathParams<Op>;
  query: QueryParams<Op>;
  body: RequestBody<Op>;
  headers: Readonly<Record<string, string | undefined>>;
  context: Ctx;
}

export type OperationHandler<Op, Ctx> = (request: OperationRequest<Op, Ctx>) => Promise<OperationResult<Op>>;

/**
 * Every route operation of a group (webhooks excluded), each with its typed handler. A secured operation's handler
 * gets the group's context (`Ctx`: what its security handler decided, request-context.ts); an unsecured one's
 * (token issuance, `Anonymous`) the request's alone.
 */
export type GroupHandlers<Operations, Id extends keyof Operations, Ctx, Anonymous extends Id = never> = {
  [K in Id]: OperationHandler<Operations[K], K extends Anonymous ? RequestContext : Ctx>;
};

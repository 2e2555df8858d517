// Problem responses (RFC 9457) as a typed Error: `unwrap()` turns an openapi-fetch result into its data or
// throws ApiProblemError carrying the status, the stable type and its kind, the detail, the fields at fault and
// the request id.
import type { components } from '../generated/merchant/schema.js';

/** One field at fault, as the contract's ProblemFieldError schema says. */
export type ProblemFieldError = components['schemas']['ProblemFieldError'];
/** A problem response body, as the contract's Problem schema says (every group shares it). */
export type ProblemDetails = components['schemas']['Problem'];

const problemTypeBase = 'https://payouts.example/problems/';
/** The kinds of the contract's problem catalogue (`validation-error`, `not-found`, ...), read off the Problem type. */
export type KnownProblemKind = ProblemDetails['type'] extends infer T
  ? T extends `${typeof problemTypeBase}${infer K}`
    ? K
    : never
  : never;
/** A problem's kind: one of the catalogue, or one added after this version of the client (problems are open). */
export type ProblemKind = KnownProblemKind | (string & {});

/** Where a field at fault is: its body pointer, its parameter or its header. */
const fieldOf = (e: ProblemFieldError) => e.pointer ?? e.parameter ?? (e.header ? `header ${e.header}` : '(request)');
/** Node's hook for how `console.log` and an uncaught error print an object (no import, so browsers load this too). */
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

export class ApiProblemError extends Error implements ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly requestId?: string;
  readonly errors: ProblemFieldError[];
  readonly error?: ProblemDetails['error'];
  /** The HTTP response the problem came in (not enumerable: it would fill a printed error with its internals). */
  declare readonly response?: Response;

  constructor(problem: ProblemDetails, response?: Response) {
    const errors = problem.errors ?? [];
    const kind = kindOf(problem.type);
    // The message names the fields at fault: it is often all a log keeps of an error.
    const fields = errors.map((e) => `${fieldOf(e)} ${e.detail}`).join('; ');
    super(`${problem.status} ${kind}: ${problem.detail}${fields ? ` (${fields})` : ''}`);
    Object.defineProperty(this, 'response', { value: response, enumerable: false });
    this.name = 'ApiProblemError';
    this.type = problem.type;
    this.title = problem.title;
    this.status = problem.status;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.requestId = problem.requestId ?? response?.headers.get('X-Request-Id') ?? undefined;
    this.errors = errors;
    this.error = problem.error;
  }

  /** The kind of problem: `type` without the catalogue's base (`validation-error`, `payout-not-cancellable`, ...). */
  get kind(): ProblemKind {
    return kindOf(this.type);
  }

  /** A few lines: the status and kind, the title and detail, each field at fault, the request id, where it was thrown. */
  [inspectCustom](): string {
    const frames = (this.stack ?? '')
      .split('\n')
      .filter((l) => l.trimStart().startsWith('at '))
      .slice(0, 3);
    return [
      `${this.name}: ${this.status} ${this.kind}: ${this.title}`,
      `  ${this.detail}`,
      ...this.errors.map((e) => `  - ${fieldOf(e)}: ${e.detail}`),
      ...(this.requestId ? [`  request id: ${this.requestId}`] : []),
      ...frames,
    ].join('\n');
  }
}

const kindOf = (type: string): ProblemKind => (type.startsWith(problemTypeBase) ? type.slice(problemTypeBase.length) : type);

function isProblem(value: unknown): value is ProblemDetails {
  const v = value as Partial<ProblemDetails> | undefined;
  return typeof v?.type === 'string' && typeof v.status === 'number' && typeof v.title === 'string';
}

/** The problem an error body describes, or a synthesised one for a failure without a problem body. */
export function toProblemError(body: unknown, response: Response): ApiProblemError {
  if (isProblem(body)) return new ApiProblemError(body, response);
  return new ApiProblemError(
    {
      type: 'about:blank',
      title: response.statusText || 'Request failed',
      status: response.status,
      detail: typeof body === 'string' ? body : `HTTP ${response.status}`,
    },
    response,
  );
}

type Result = { data?: unknown; error?: unknown; response: Response };
/** What `unwrap()` resolves to: the success body, or `undefined` for an operation that answers no content (204). */
export type Unwrapped<T extends Result> = [NonNullable<T['data']>] extends [never] ? undefined : NonNullable<T['data']>;

/** The data of a successful openapi-fetch result; throws ApiProblemError for a failed one. */
export async function unwrap<T extends Result>(result: T | Promise<T>): Promise<Unwrapped<T>> {
  const r = await result;
  if (r.response.ok) return r.data as Unwrapped<T>;
  throw toProblemError(r.error, r.response);
}

// Problem responses (RFC 9457) as a typed Error: `unwrap()` turns an openapi-fetch result into its data or
// throws ApiProblemError carrying the status, the stable type, the detail and the fields at fault.
import type { components } from '../generated/merchant/schema.js';

/** One field at fault, as the contract's ProblemFieldError schema says. */
export type ProblemFieldError = components['schemas']['ProblemFieldError'];
/** A problem response body, as the contract's Problem schema says (every group shares it). */
export type ProblemDetails = components['schemas']['Problem'];

export class ApiProblemError extends Error implements ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly requestId?: string;
  readonly errors: ProblemFieldError[];
  readonly error?: ProblemDetails['error'];

  constructor(
    problem: ProblemDetails,
    readonly response?: Response,
  ) {
    super(`${problem.status} ${problem.title} ${problem.detail}`);
    this.name = 'ApiProblemError';
    this.type = problem.type;
    this.title = problem.title;
    this.status = problem.status;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.requestId = problem.requestId;
    this.errors = problem.errors ?? [];
    this.error = problem.error;
  }

  /** The kind of problem: the last segment of `type` (`validation-error`, `payout-not-cancellable`, ...). */
  get kind(): string {
    return this.type.slice(this.type.lastIndexOf('/') + 1);
  }
}

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

/** The data of a successful openapi-fetch result; throws ApiProblemError for a failed one. */
export async function unwrap<T extends { data?: unknown; error?: unknown; response: Response }>(
  result: T | Promise<T>,
): Promise<NonNullable<T['data']>> {
  const r = await result;
  if (r.response.ok) return r.data as NonNullable<T['data']>;
  throw toProblemError(r.error, r.response);
}

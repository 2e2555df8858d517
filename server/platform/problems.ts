// RFC 9457 problem details: the one shape of every failure. Domain code throws a Problem; the HTTP layer
// (http/errors.ts) writes it as application/problem+json. The kinds, with their statuses and titles, and the
// body's shape are the contract's (openapi/shared/schemas/Problem.yaml, generated into problem-types.ts and
// the group types), so the server, the client and the docs cannot disagree on them.
import type { components } from '../../generated/merchant/schema.js';
import { problemTypeBase, problemTypes, type ProblemKind } from '../../generated/problem-types.js';

export { problemTypeBase, problemTypes, type ProblemKind };

/** One field at fault: exactly one of pointer (body), parameter (path or query) or header. */
export type FieldError = components['schemas']['ProblemFieldError'];
export type ProblemBody = components['schemas']['Problem'];
export type OAuthErrorCode = NonNullable<ProblemBody['error']>;

/**
 * How a refused caller may authenticate, as data: the HTTP layer writes it as `WWW-Authenticate`
 * (http/errors.ts, `challengeHeader`), so no domain module names a header.
 */
export interface Challenge {
  scheme: 'Basic' | 'Bearer' | 'Cookie';
  realm: string;
  /** RFC 6750 §3's error code (a Bearer challenge). */
  error?: string;
  /** RFC 6750 §3's error_description: said in the challenge too. */
  description?: string;
  /** Where a Cookie challenge's session is made. */
  formAction?: string;
}

/** What a Problem says besides its kind and detail. */
export interface ProblemExtra {
  errors?: FieldError[];
  error?: OAuthErrorCode;
  challenge?: Challenge;
  /** How long to wait before trying again: written as `Retry-After`. */
  retryAfterSeconds?: number;
  /** Headers of the HTTP layer's own refusals (a 404's Cache-Control); domain modules state data above instead. */
  headers?: Record<string, string>;
}

export class Problem extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly extra: ProblemExtra = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.status = problemTypes[kind].status;
    this.title = problemTypes[kind].title;
  }

  body(instance: string, requestId: string): ProblemBody {
    return {
      type: problemTypeBase + this.kind,
      title: this.title,
      status: this.status,
      detail: this.detail,
      instance,
      requestId,
      ...(this.extra.errors?.length ? { errors: this.extra.errors } : {}),
      // RFC 6749 §5.2's pair: OAuth libraries show error_description, problem readers detail.
      ...(this.extra.error ? { error: this.extra.error, error_description: this.detail } : {}),
    };
  }
}

/** The request has no body where the operation requires one. */
export const missingBody: FieldError = { pointer: '#', detail: 'The request body is required.' };

/** A 400 naming each field at fault: the one way an invalid request is answered. */
export function invalidRequest(errors: FieldError[]): Problem {
  return new Problem('validation-error', `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`, { errors });
}

/** A body field at fault, as a JSON Pointer fragment (`#/address/city`). */
export const bodyField = (path: string, detail: string): FieldError => ({ pointer: `#/${path.split('.').join('/')}`, detail });

// RFC 9457 problem details: the one shape of every failure. A handler throws a Problem; the error
// middleware (errors.ts) writes it as application/problem+json. `kind` is the last segment of the stable
// `type` URI that clients branch on; the catalogue below is what the docs' error section lists.
export const problemTypeBase = 'https://payouts.example/problems/';

export const problemKinds = {
  'validation-error': { status: 400, title: 'Your request is not valid.' },
  'malformed-json': { status: 400, title: 'The request body is not valid JSON.' },
  unauthorized: { status: 401, title: 'Authentication is required.' },
  'invalid-client': { status: 401, title: 'The client credentials are not valid.' },
  forbidden: { status: 403, title: 'This credential cannot call this operation.' },
  'not-found': { status: 404, title: 'The resource was not found.' },
  'method-not-allowed': { status: 405, title: 'The method is not allowed on this resource.' },
  conflict: { status: 409, title: 'The request conflicts with the current state.' },
  'payout-not-cancellable': { status: 409, title: 'The payout can no longer be cancelled.' },
  'idempotency-conflict': { status: 409, title: 'The idempotency key was used with a different request.' },
  'payload-too-large': { status: 413, title: 'The request body is too large.' },
  'unsupported-media-type': { status: 415, title: 'The request body has an unsupported media type.' },
  'business-rule': { status: 422, title: 'The request breaks a business rule.' },
  'invalid-amount': { status: 422, title: 'The amount is not valid for its currency.' },
  'inactive-account': { status: 422, title: 'The account is not active.' },
  'unsupported-route': { status: 422, title: 'The fee schedule does not serve this route.' },
  'insufficient-funds': { status: 422, title: 'The account has insufficient funds.' },
  'limit-reached': { status: 422, title: 'A limit on the number of resources was reached.' },
  'rate-limited': { status: 429, title: 'Too many requests.' },
  'internal-error': { status: 500, title: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemKind = keyof typeof problemKinds;
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_token';

/** One field at fault: exactly one of pointer (body), parameter (path or query) or header. */
export interface FieldError {
  detail: string;
  pointer?: string;
  parameter?: string;
  header?: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
  error?: OAuthErrorCode;
}

export class Problem extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; error?: OAuthErrorCode; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.status = problemKinds[kind].status;
    this.title = problemKinds[kind].title;
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
      ...(this.extra.error ? { error: this.extra.error } : {}),
    };
  }
}

/** A body field at fault, as a JSON Pointer fragment (`#/address/city`). */
export const bodyField = (path: string, detail: string): FieldError => ({ pointer: `#/${path.split('.').join('/')}`, detail });

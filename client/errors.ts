// Failures without an answer from the service. A problem answer (4xx/5xx with a body) is ApiProblemError
// (problem-error.ts); these are for when no answer came: the connection failed, or the deadline passed.

/** No response arrived: the server is unreachable, refused the connection or closed it mid-request. */
export class ConnectionError extends Error {
  /** The `X-Request-Id` the client sent with the last attempt: what to quote to support. */
  readonly requestId?: string;

  constructor(message: string, options: { requestId?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ConnectionError';
    this.requestId = options.requestId;
  }
}

/** No response arrived before the deadline: the client's `timeout` per attempt, or a caller's `AbortSignal.timeout()`. */
export class TimeoutError extends ConnectionError {
  constructor(message: string, options: { requestId?: string; cause?: unknown } = {}) {
    super(message, options);
    this.name = 'TimeoutError';
  }
}

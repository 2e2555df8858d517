// Automatic retries, as stripe-node and openai-node do them: a failed attempt is tried again after an exponential
// backoff with jitter (or the server's Retry-After), on a network failure, a timeout, 429 and 500/502/503/504,
// and only when repeating the request is safe: a read (GET, HEAD), or a write carrying an Idempotency-Key (the
// server then answers a repeat with the first answer instead of acting twice). Each attempt is reported to the
// caller's hook, without headers or bodies, so no token or secret reaches a log.
import { ConnectionError, TimeoutError } from './errors.js';
import { callerAbort, type Fetch } from './transport.js';

export interface RetryOptions {
  /** How many times a failed attempt is retried (default 2; 0 turns retries off). */
  maxRetries?: number;
  /** The first retry's delay before jitter, doubled for each further retry (default 500 ms). */
  retryBaseDelayMs?: number;
  /** The longest backoff delay (default 8000 ms). A Retry-After of up to 60 s is honoured as sent. */
  retryMaxDelayMs?: number;
  /** Called once per attempt, when it ends: for logs and metrics. */
  onAttempt?: (attempt: AttemptLog) => void;
}

/** What the `onAttempt` hook is told about one attempt. Never a header value other than the request id. */
export interface AttemptLog {
  method: string;
  url: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  /** The response status; absent when no response arrived. */
  status?: number;
  /** Why no response arrived. */
  error?: 'connection' | 'timeout';
  durationMs: number;
  /** The `X-Request-Id` of this attempt (the server echoes it; quote it to support). */
  requestId: string;
  /** Set when the client will try again after this many milliseconds. */
  retryInMs?: number;
}

const retriedStatuses = new Set([429, 500, 502, 503, 504]);
/** A longer Retry-After is not waited for: the answer is returned and the caller decides. */
const longestRetryAfterMs = 60_000;

export const newRequestId = (): string =>
  `req_${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Whether sending the request twice cannot act twice. */
export const isSafeToRetry = (request: Request): boolean =>
  request.method === 'GET' || request.method === 'HEAD' || request.headers.has('Idempotency-Key');

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined without a usable one. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The delay before retry number `retry` (1-based): exponential, capped, less up to a quarter at random. */
export const backoffMs = (retry: number, baseMs: number, maxMs: number): number =>
  Math.min(baseMs * 2 ** (retry - 1), maxMs) * (1 - Math.random() * 0.25);

/** Waits `ms`, or rejects as the request's caller aborts it. */
function pause(ms: number, request: Request): Promise<void> {
  const { signal } = request;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(callerAbort(request));
    const onAbort = () => {
      clearTimeout(timer);
      reject(callerAbort(request));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `attempt` with retries. `safe` decides whether a request may be repeated (default: `isSafeToRetry`). Each attempt
 * gets its own X-Request-Id unless the caller set one.
 */
export function retrying(attempt: Fetch, options: RetryOptions = {}, safe: (request: Request) => boolean = isSafeToRetry): Fetch {
  const maxRetries = options.maxRetries ?? 2;
  const baseMs = options.retryBaseDelayMs ?? 500;
  const maxMs = options.retryMaxDelayMs ?? 8000;
  return async (request) => {
    const retriable = maxRetries > 0 && safe(request);
    for (let n = 1; ; n++) {
      const headers = new Headers(request.headers);
      const requestId = headers.get('X-Request-Id') ?? newRequestId();
      headers.set('X-Request-Id', requestId);
      // The original stays unread so that every attempt can send its body again. The signal is passed on
      // explicitly: undici's Request follows its input's signal through a weak reference, lost with the clone.
      const sent = new Request(retriable ? request.clone() : request, { headers, signal: request.signal });
      const log: AttemptLog = { method: request.method, url: request.url, attempt: n, requestId, durationMs: 0 };
      const started = performance.now();
      let outcome: { response: Response } | { error: unknown };
      try {
        outcome = { response: await attempt(sent) };
      } catch (error) {
        outcome = { error };
      }
      log.durationMs = Math.round(performance.now() - started);
      let waitMs: number | undefined;
      if ('response' in outcome) {
        log.status = outcome.response.status;
        if (retriedStatuses.has(log.status)) {
          const asked = retryAfterMs(outcome.response.headers.get('Retry-After'));
          waitMs = asked === undefined ? backoffMs(n, baseMs, maxMs) : asked <= longestRetryAfterMs ? asked : undefined;
        }
      } else if (outcome.error instanceof ConnectionError) {
        log.error = outcome.error instanceof TimeoutError ? 'timeout' : 'connection';
        waitMs = backoffMs(n, baseMs, maxMs);
      }
      const again = retriable && waitMs !== undefined && n <= maxRetries && !request.signal.aborted;
      if (again) log.retryInMs = Math.round(waitMs!);
      options.onAttempt?.(log);
      if (!again) {
        if ('error' in outcome) throw outcome.error;
        return outcome.response;
      }
      if ('response' in outcome) await outcome.response.body?.cancel();
      await pause(waitMs!, request);
    }
  };
}

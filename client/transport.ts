// One HTTP attempt: the fetch under every client, with a deadline for the response headers and failures as
// typed errors, so a caller never sees undici's bare `TypeError: fetch failed`.
import { ConnectionError, TimeoutError } from './errors.js';

export type Fetch = (request: Request) => Promise<Response>;

const defaultFetch: Fetch = (request) => globalThis.fetch(request);

/** The error for a request its caller aborted: the signal's reason, but a deadline's as a TimeoutError. */
export function callerAbort(request: Request): unknown {
  const reason: unknown = request.signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    const requestId = request.headers.get('X-Request-Id') ?? undefined;
    return new TimeoutError(`${request.method} ${request.url}: the caller's deadline passed`, { requestId, cause: reason });
  }
  return reason;
}

// Node 20's undici links a Request's signal to its input's through a weak reference, so an abort stops reaching
// the socket once a Request of the chain is collected. An attempt's requests stay referenced while it waits
// (`waiting`) and while its response is in use (`held`: its body may still be read); and the race below settles
// the attempt on an abort whatever undici does.
const waiting = new Set<Request>();
const held = new WeakMap<Response, Request[]>();

/**
 * `base` with a deadline of `timeoutMs` per call. A caller's abort is passed on as it is (an AbortError, not
 * retried), except a caller's `AbortSignal.timeout()`, which is a TimeoutError like the client's own deadline.
 */
export function transport(timeoutMs: number, base: Fetch = defaultFetch): Fetch {
  return async (request) => {
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, timeoutMs);
    const { signal } = request;
    const onAbort = () => attempt.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const aborted = new Promise<never>((_, reject) => {
      attempt.signal.addEventListener('abort', () => reject(attempt.signal.reason), { once: true });
    });
    aborted.catch(() => undefined); // an abort after the answer (while its body is read) settles nothing here
    const sent = new Request(request, { signal: attempt.signal });
    const requestId = request.headers.get('X-Request-Id') ?? undefined;
    waiting.add(request).add(sent);
    try {
      const response = await Promise.race([base(sent), aborted]);
      held.set(response, [request, sent]);
      return response;
    } catch (cause) {
      if (signal.aborted) throw callerAbort(request);
      if (timedOut) throw new TimeoutError(`${request.method} ${request.url}: no response within ${timeoutMs} ms`, { requestId, cause });
      const why = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
      throw new ConnectionError(`${request.method} ${request.url}: ${why}`, { requestId, cause });
    } finally {
      clearTimeout(timer);
      waiting.delete(request);
      waiting.delete(sent);
    }
  };
}

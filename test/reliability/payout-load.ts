// A steady payout load through the generated merchant client: `concurrency` requests in flight, spread
// over the given clients in turn, bounded both in count (maxPayouts) and in time (maxMs). Records every
// payout the service accepted (202) and counts what else happened, so a test can tell a refused
// connection (the server is down) from a wrong answer.
import { setTimeout as pause } from 'node:timers/promises';
import type { MerchantClient } from '../../client/create-clients.js';
import type { components } from '../../generated/merchant/schema.js';

type PayoutCreateRequest = components['schemas']['PayoutCreateRequest'];

export interface PayoutLoadOptions {
  clients: MerchantClient[];
  /** The body of the i-th request. */
  body(i: number): PayoutCreateRequest;
  concurrency: number;
  maxPayouts: number;
  maxMs: number;
}

export interface AcceptedPayout {
  reference: string;
  /** Which request it was (its body is body(index)). */
  index: number;
}

export interface PayoutLoadResult {
  accepted: AcceptedPayout[];
  attempts: number;
  /** Requests that got no answer at all (connection refused or reset). */
  connectionErrors: number;
  /** Answers other than 202, by status. */
  otherAnswers: Record<number, number>;
  elapsedMs: number;
}

export interface PayoutLoad {
  /** Accepted so far. */
  readonly accepted: readonly AcceptedPayout[];
  /** Stops sending, waits for the requests in flight and returns the result. */
  stop(): Promise<PayoutLoadResult>;
  /** Resolves when the load ends by itself (count or time bound reached). */
  done: Promise<PayoutLoadResult>;
}

export function startPayoutLoad(options: PayoutLoadOptions): PayoutLoad {
  const started = Date.now();
  const deadline = started + options.maxMs;
  const result: PayoutLoadResult = { accepted: [], attempts: 0, connectionErrors: 0, otherAnswers: {}, elapsedMs: 0 };
  let stopped = false;
  let next = 0;

  const worker = async () => {
    while (!stopped && next < options.maxPayouts && Date.now() < deadline) {
      const index = next++;
      const client = options.clients[index % options.clients.length]!;
      result.attempts++;
      try {
        const { data, response } = await client.POST('/v1/payouts', { body: options.body(index) });
        if (response.status === 202 && data) result.accepted.push({ reference: data.PayoutUniqueReference, index });
        else result.otherAnswers[response.status] = (result.otherAnswers[response.status] ?? 0) + 1;
      } catch {
        result.connectionErrors++;
        await pause(50); // the server is down: try again shortly, as a client with a retry policy would
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.concurrency }, worker)).then(() => {
    result.elapsedMs = Date.now() - started;
    return result;
  });
  return {
    accepted: result.accepted,
    done,
    stop() {
      stopped = true;
      return done;
    },
  };
}

// A webhook receiver that answers 200 at once and keeps, for each delivery, how long after its event was
// written it arrived: now minus the payload's `timestamp` (the event's creation time, written by the service
// on this machine, so one clock).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LatencyReceiver {
  url: string;
  /** Milliseconds from event creation to arrival, in arrival order. */
  latenciesMs: number[];
  /** Deliveries per (payout, state), to tell that none came twice. */
  seen: Map<string, number>;
  /** Resolves when `count` deliveries have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<void>;
  /** Forgets what arrived so far (after a warm-up). */
  reset(): void;
  close(): Promise<void>;
}

export async function startLatencyReceiver(): Promise<LatencyReceiver> {
  const receiver = { latenciesMs: [] as number[], seen: new Map<string, number>() };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { payout_request_id: string; state: string; timestamp: string };
      receiver.latenciesMs.push(arrived - Date.parse(event.timestamp));
      const key = `${event.payout_request_id}:${event.state}`;
      receiver.seen.set(key, (receiver.seen.get(key) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fast`,
    get latenciesMs() {
      return receiver.latenciesMs;
    },
    get seen() {
      return receiver.seen;
    },
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.latenciesMs.length < count) {
        const got = receiver.latenciesMs.length;
        if (Date.now() > deadline) throw new Error(`only ${got} of ${count} deliveries arrived within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    reset() {
      receiver.latenciesMs = [];
      receiver.seen = new Map();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

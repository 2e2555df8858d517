// A webhook receiver that only counts: each payout.completed delivery by payout, the time of the last one,
// and every delivery by event, so a pipeline run can tell when all its payouts are done and that none was
// delivered twice. (test/support/webhook-receiver.ts keeps every body; at thousands a second, counting is enough.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookCounter {
  url: string;
  /** Deliveries by event state (created, processing, sent, completed, ...). */
  byState: Map<string, number>;
  /** payout.completed deliveries per payout reference. */
  completed: Map<string, number>;
  /** performance.now() of the latest payout.completed delivery. */
  lastCompletedAt: number;
  /** Resolves when `count` distinct payouts have a payout.completed delivery, or rejects after `timeoutMs`. */
  waitForCompleted(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookCounter(): Promise<WebhookCounter> {
  const counter = { byState: new Map<string, number>(), completed: new Map<string, number>(), lastCompletedAt: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { payout_request_id: string; state: string };
      counter.byState.set(event.state, (counter.byState.get(event.state) ?? 0) + 1);
      if (event.state === 'completed') {
        counter.completed.set(event.payout_request_id, (counter.completed.get(event.payout_request_id) ?? 0) + 1);
        counter.lastCompletedAt = performance.now();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    ...counter,
    get lastCompletedAt() {
      return counter.lastCompletedAt;
    },
    async waitForCompleted(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (counter.completed.size < count) {
        if (Date.now() > deadline)
          throw new Error(`only ${counter.completed.size} of ${count} payouts delivered payout.completed within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A real HTTP server that receives webhooks, as a merchant's would: records every delivery (headers and
// raw body) and answers with a configurable status.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** Resolves when `count` deliveries matching `where` have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, where?: (d: Delivery) => boolean, timeoutMs?: number): Promise<Delivery[]>;
  respondWith(status: number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    // A last resort against a hang, not a measure of speed: it returns as soon as the deliveries are there.
    async waitFor(count, where = () => true, timeoutMs = 40_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = deliveries.filter(where);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`expected ${count} deliveries, got ${matching.length}: ${JSON.stringify(matching.map((d) => d.body))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    respondWith(s) {
      status = s;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

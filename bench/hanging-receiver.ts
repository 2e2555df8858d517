// A webhook receiver that never answers: it reads each request and holds it, so every delivery to it lasts
// the service's whole timeout. Counts requests and the most held at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HangingReceiver {
  url: string;
  received(): number;
  open(): number;
  maxOpen(): number;
  /** Drops every held connection and stops listening. */
  close(): Promise<void>;
}

export async function startHangingReceiver(): Promise<HangingReceiver> {
  let received = 0;
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((req) => {
    received += 1;
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    req.socket.once('close', () => (open -= 1));
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hangs`,
    received: () => received,
    open: () => open,
    maxOpen: () => maxOpen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Waiting for a group D transfer to reach a state. ACH and wire transfers are answered `pending`; the transfer
// engine then takes them a step at a time (SANDBOX_STEP_MS apart, 0 in the test services), so a test reads the
// transfer back through getTransfer until it shows the state it expects, instead of sleeping. A loop of its own
// rather than expect.poll, which works only inside a test: fixtures built in beforeAll wait too.
import { expect } from 'vitest';
import type { BankingClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/banking/schema.js';

type Transfer = components['schemas']['Transfer'];
type Status = components['schemas']['TransferStatus'];

/** States a transfer never leaves: reaching one of them other than the awaited one fails at once. */
const final: readonly string[] = ['failed', 'returned'] satisfies Status[];

/** Reads the transfer until it is in `status` (10 s at most), and returns it as that read showed it. */
export async function settled(client: BankingClient, transferId: number, status: Status, timeoutMs = 10_000): Promise<Transfer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const transfer = await unwrap(client.GET('/finance/api/v1/transaction/{transferId}', { params: { path: { transferId } } }));
    const done = transfer.status === status || final.includes(transfer.status) || Date.now() > deadline;
    if (done) {
      expect(transfer.status, `transfer ${transferId} (waited for ${status})`).toBe(status);
      return transfer;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

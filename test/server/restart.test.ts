// Stopping and starting the service on the same store, on each store: everything persists, payouts in
// flight continue from where they were, tokens stay valid (the signing key persists), and no event is
// delivered twice.
import { describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { bankAccount, individual, newMerchant } from '../support/merchants.js';
import { startService } from '../support/service.js';
import { unsettled } from '../support/settled-events.js';
import { stores } from '../support/stores.js';
import { startReceiver } from '../support/webhook-receiver.js';

describe.each(stores)('restart on $name', (kind) => {
  it('resumes in-flight payouts and keeps every record', async () => {
    const db = await kind.fresh();
    const receiver = await startReceiver();
    try {
      const first = await startService(db.url, { sandboxStepMs: 400 });
      const m = await newMerchant(first);
      await unwrap(m.a.POST('/v1/webhooks', { body: { url: receiver.url } }));
      const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
      await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() }));
      const payouts = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: i + 1, Currency: 'USD' } })),
        ),
      );
      await receiver.waitFor(5, (d) => JSON.parse(d.body).state === 'created');
      const token = (await first.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      await first.stop();

      const second = await startService(db.url, { sandboxStepMs: 400 });
      try {
        const again = {
          ...m,
          a: (await import('../../client/create-clients.js')).createMerchantClient({ baseUrl: second.baseUrl, token }),
        };
        expect(await unwrap(again.a.GET('/v1/payees/{id}', { params: { path: { id: payee.id } } }))).toEqual(payee);
        for (const p of payouts) {
          const params = { path: { PayoutUniqueReference: p.PayoutUniqueReference } };
          const status = () => unwrap(again.a.GET('/v1/payouts/{PayoutUniqueReference}', { params })).then((payout) => payout.Status);
          const message = `${p.PayoutUniqueReference} completes after the restart`;
          await expect.poll(status, { timeout: 10_000, interval: 50, message }).toBe('completed');
        }
        await receiver.waitFor(20);
        // Every event dispatched and every answer recorded: a second copy of any event would be in by now.
        const references = payouts.map((p) => p.PayoutUniqueReference);
        const settled = async () => expect(await unsettled(second.services.store, { payouts: references })).toEqual([]);
        await vi.waitFor(settled, { timeout: 10_000, interval: 50 });
        const seen = receiver.deliveries.map((d) => {
          const e = JSON.parse(d.body);
          return `${e.payout_request_id}:${e.state}`;
        });
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toHaveLength(20);
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
      await db.drop();
    }
  });
});

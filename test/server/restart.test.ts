// Stopping and starting the service on the same store, on each store: everything persists, payouts in
// flight continue from where they were, tokens stay valid (the signing key persists), and no event is
// delivered twice.
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { bankAccount, individual, newMerchant } from '../support/merchants.js';
import { startService } from '../support/service.js';
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
      const payouts = await Promise.all(Array.from({ length: 5 }, (_, i) => unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: i + 1, Currency: 'USD' } }))));
      await receiver.waitFor(5, (d) => JSON.parse(d.body).state === 'created');
      const token = (await first.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      await first.stop();

      const second = await startService(db.url, { sandboxStepMs: 400 });
      try {
        const again = { ...m, a: (await import('../../client/create-clients.js')).createMerchantClient({ baseUrl: second.baseUrl, token }) };
        expect(await unwrap(again.a.GET('/v1/payees/{id}', { params: { path: { id: payee.id } } }))).toEqual(payee);
        for (const p of payouts) {
          const params = { path: { PayoutUniqueReference: p.PayoutUniqueReference } };
          const deadline = Date.now() + 10_000;
          while ((await unwrap(again.a.GET('/v1/payouts/{PayoutUniqueReference}', { params }))).Status !== 'completed') {
            if (Date.now() > deadline) throw new Error(`${p.PayoutUniqueReference} did not complete after the restart`);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        await receiver.waitFor(20);
        await new Promise((r) => setTimeout(r, 300));
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

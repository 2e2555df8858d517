// An event carries the environment of the resource it is about, kept on the resource's row from its creation
// (openapi/DECISIONS.md, "The environment an event carries"): a payment made in the sandbox keeps sending sandbox
// events after the same store is served as production, and a payment made there sends production events. On each
// store, through the partner API; the engines are not started, so each payment waits in `created` for its cancel.
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { newMerchant } from '../support/merchants.js';
import { createPartnerClient } from '../../client/create-clients.js';
import { newPartner } from '../support/partners.js';
import { type RunningService, startService } from '../support/service.js';
import { stores } from '../support/stores.js';

describe.each(stores)('the environment of events on $name', (kind) => {
  it("is the payment's own, whatever the environment serving it later", async () => {
    const db = await kind.fresh();
    const running: RunningService[] = [];
    try {
      const sandbox = await startService(db.url, { environment: 'sandbox' }, { workers: false });
      running.push(sandbox);
      const acme = await newMerchant(sandbox, 'Acme');
      const partner = await newPartner(sandbox, [acme.merchantId]);
      const recipient = await unwrap(
        partner.c.POST('/finance/v1/recipient-ach', {
          body: {
            email: 'payee@example.com',
            name: 'Ada',
            type: 'INDIVIDUAL',
            merchantId: acme.merchantId,
            ach: { accountNumber: '000123456789', bankAccountType: 'CHECKING', routingNumber: '021000021' },
          },
        }),
      );
      const body = {
        payeeId: recipient.id,
        amount: 3,
        currency: 'USD',
        paymentMethodType: 'STANDARD' as const,
        merchantId: acme.merchantId,
      };
      const made = await unwrap(partner.c.POST('/finance/v1/payment_request', { body: { ...body, description: 'in the sandbox' } }));
      await sandbox.stop();
      running.pop();

      const production = await startService(db.url, { environment: 'production' }, { workers: false });
      running.push(production);
      // The same partner (its payment is its own), now served by the production deployment.
      const options = { baseUrl: production.baseUrl, credentials: { clientId: partner.clientId, clientSecret: partner.clientSecret } };
      const again = { c: createPartnerClient(options) };
      const cancel = (paymentId: number) =>
        unwrap(again.c.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId } } }));
      await cancel(made.paymentId);
      const later = await unwrap(again.c.POST('/finance/v1/payment_request', { body: { ...body, description: 'in production' } }));
      await cancel(later.paymentId);

      const events = await production.services.store.db
        .selectFrom('events')
        .select(['type', 'subject', 'environment', 'payload'])
        .where('merchant_id', '=', acme.merchantId)
        .where('partner_id', 'is', null)
        .orderBy('id')
        .execute();
      const of = (paymentId: number) =>
        events.filter((e) => e.subject === `payment:${paymentId}`).map((e) => [e.type, e.environment, JSON.parse(e.payload).environment]);
      expect(of(made.paymentId)).toEqual([
        ['payment.created', 'sandbox', 'sandbox'],
        ['payment.cancelled', 'sandbox', 'sandbox'],
      ]);
      expect(of(later.paymentId)).toEqual([
        ['payment.created', 'production', 'production'],
        ['payment.cancelled', 'production', 'production'],
      ]);
    } finally {
      for (const service of running) await service.stop();
      await db.drop();
    }
  });
});

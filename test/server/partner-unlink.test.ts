// Unlinking a partner from a merchant (`npm run admin -- unlink`, test/server/admin-cli.test.ts runs the command) on
// each store: every partner operation of groups C and E on that merchant's resources, which a linked partner reaches,
// answers 404 once the link is gone, exactly as for a merchant never linked; the list of linked merchants drops it.
// The table covers every partner operation the documents list, so a new one must say how it is reached.
import { beforeAll, describe, expect, it } from 'vitest';
import { distinctOperations, requestExamples, type ServedOperation } from '../support/operations.js';
import { fill } from '../support/requests.js';
import { stores } from '../support/stores.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

interface Call {
  path?: Record<string, string | number>;
  query?: Record<string, string | number>;
  /** The documented example of this name, made the tenant's. */
  example?: string;
  body?: Record<string, unknown>;
}

/** How each partner operation on a merchant's resources is reached for the tenant's merchant. */
const onTheMerchant: Record<string, (t: Tenant) => Call> = {
  createAchRecipient: () => ({ example: 'individual' }),
  createWireRecipient: () => ({ example: 'domestic' }),
  listRecipients: (t) => ({ query: { MerchantId: t.merchantId } }),
  updateRecipient: (t) => ({ path: { payeeId: t.ids.achRecipient }, example: 'notificationOfChange' }),
  createPaymentRequest: (t) => ({ example: 'ach', body: { payeeId: t.ids.achRecipient } }),
  getPayment: (t) => ({ path: { paymentId: t.ids.partnerPayment } }),
  cancelPayment: (t) => ({ path: { paymentId: t.ids.counterpartyPayment } }),
  simulatePaymentReturn: (t) => ({ path: { paymentId: t.ids.partnerPayment }, example: 'noAccount' }),
  simulatePaymentNotificationOfChange: (t) => ({ path: { paymentId: t.ids.partnerPayment }, example: 'accountNumber' }),
  searchPartnerTransactions: (t) => ({ body: { merchantId: t.merchantId } }),
  listCounterparties: (t) => ({ query: { MerchantId: t.merchantId } }),
  createCounterparty: () => ({ example: 'achIndividual' }),
  getCounterparty: (t) => ({ path: { payeeId: t.ids.counterparty } }),
  updateCounterparty: (t) => ({ path: { payeeId: t.ids.counterparty }, example: 'contact' }),
  searchTransactions: (t) => ({ body: { customerId: t.merchantId } }),
};
/**
 * Partner operations on no one merchant's resources: the partner's own webhooks and events (an unlink stops new
 * events, test/server/partner-webhooks.test.ts).
 */
const acrossMerchants = [
  'listPartnerMerchants',
  'createPartnerWebhook',
  'listPartnerWebhooks',
  'getPartnerWebhook',
  'updatePartnerWebhook',
  'deletePartnerWebhook',
  'rotatePartnerWebhookSecret',
  'testPartnerWebhook',
  'listPartnerWebhookDeliveries',
  'redeliverPartnerWebhookDelivery',
  'listPartnerEvents',
  'getPartnerEvent',
];

const partnerOperations = distinctOperations.filter((o) => (o.group === 'partner' || o.group === 'counterparty') && o.caller === 'partner');

/** The request's body: the named example with the tenant's merchant, partner and payees, and `call.body` over it. */
function bodyOf(o: ServedOperation, t: Tenant, call: Call): Record<string, unknown> | undefined {
  if (call.example === undefined) return call.body;
  const example = requestExamples(o)[call.example] as Record<string, unknown> | undefined;
  if (!example) throw new Error(`${o.operationId} documents no example ${call.example}`);
  const own = { ...example, ...call.body };
  if ('merchantId' in own) own.merchantId = t.merchantId;
  if ('partnerId' in own) own.partnerId = t.partnerId;
  delete own.partnerPaymentUniqueId;
  return own;
}

describe.each(stores)('unlinking a partner from a merchant on $name', (kind) => {
  const service = useService(kind, {}, { resolve: loopbackResolver, workers: false });
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant(service, 'Unlinked');
  });

  const request = (o: ServedOperation) => {
    const call = onTheMerchant[o.operationId]!(tenant);
    return service.send(o.method.toUpperCase(), fill(o.url, call.path), {
      token: tenant.partnerToken,
      query: call.query,
      body: bodyOf(o, tenant, call),
    });
  };

  it('classifies every partner operation of groups C and E', () => {
    expect(partnerOperations.map((o) => o.operationId).sort()).toEqual([...Object.keys(onTheMerchant), ...acrossMerchants].sort());
  });

  it("answers 404 to every partner operation on the merchant's resources once the link is gone", async () => {
    const table = partnerOperations.filter((o) => o.operationId in onTheMerchant);
    // Linked, the partner reaches each of them (what it may do with them is another matter: a 409 is not a 404).
    for (const o of table) {
      const answer = await request(o);
      expect(answer.status, `${o.operationId} while linked: ${answer.text}`).not.toBe(404);
      expect(answer.status, `${o.operationId} while linked: ${answer.text}`).toBeLessThan(500);
    }
    const list = () => service.send('GET', '/finance/v1/partner/list', { token: tenant.partnerToken });
    expect((await list()).body.data.map((m: { merchantId: number }) => m.merchantId)).toEqual([tenant.merchantId]);

    expect(await service.services.credentials.unlink(tenant.partnerId, tenant.merchantId)).toBe('unlinked');

    for (const o of table) {
      const answer = await request(o);
      expect(answer.status, `${o.operationId} after the unlink: ${answer.text}`).toBe(404);
      expect(answer.body.type, o.operationId).toBe('https://payouts.example/problems/not-found');
    }
    expect((await list()).body.data).toEqual([]);
    // Only the link went: the merchant's payments are still there.
    const payments = await service.services.store.db
      .selectFrom('payments')
      .select('payment_id')
      .where('merchant_id', '=', tenant.merchantId)
      .execute();
    expect(payments.length).toBeGreaterThanOrEqual(2);
  });

  it('says why when there is no link to end', async () => {
    const other = await service.services.credentials.createMerchant('Never linked');
    expect(await service.services.credentials.unlink(tenant.partnerId, other.merchantId)).toBe('not-linked');
    expect(await service.services.credentials.unlink(tenant.partnerId + 100, other.merchantId)).toBe('no-partner');
    expect(await service.services.credentials.unlink(tenant.partnerId, other.merchantId + 100)).toBe('no-merchant');
  });
});

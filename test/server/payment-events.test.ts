// A partner's payment followed end to end through real HTTP, on each store (issue 13): read back with getPayment
// as it moves, its `payment.*` events delivered to the merchant's webhook registration and listed by the merchant's
// events API with the same ids, a simulated return (`payment.returned`, `returnCode`, `returnedOn`, and the status
// in the search), a cancel's `payment.cancelled`, and the simulation refused where it does not apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachEvent } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/partner/schema.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { documentedRequest, newPartner, type TestPartner } from '../support/partners.js';
import { startService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

type S = components['schemas'];

describe.each(stores)('payment events and returns on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });
  let receiver: WebhookReceiver;
  let acme: TestMerchant;
  let partner: TestPartner;
  let payeeId: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    acme = await newMerchant(service);
    partner = await newPartner(service, [acme.merchantId]);
    await unwrap(
      acme.a.POST('/v1/webhooks', {
        body: {
          url: `${receiver.url}/payments`,
          events: ['payment.completed', 'payment.returned', 'payment.cancelled', 'payment.created', 'noc.received'],
        },
      }),
    );
    const recipient = await unwrap(
      partner.c.POST('/finance/v1/recipient-ach', {
        body: {
          ...documentedRequest<S['AchRecipientRequest']>('partner', '/finance/v1/recipient-ach', 'individual'),
          merchantId: acme.merchantId,
        },
      }),
    );
    payeeId = recipient.id;
  });
  afterAll(async () => {
    await receiver.close();
  });

  const request = (amount: number): S['PaymentRequest'] => ({
    payeeId,
    amount,
    currency: 'USD',
    paymentMethodType: 'STANDARD',
    description: 'November commission',
    merchantId: acme.merchantId,
  });
  const read = (paymentId: number) => unwrap(partner.c.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId } } }));
  const delivered = (type: string, paymentId: number) =>
    receiver.deliveries.filter((d) => {
      const body = JSON.parse(d.body);
      return body.type === type && body.payment?.paymentId === paymentId;
    });

  it('follows a payment to completed and returned: read back, delivered and listed with the same ids', async () => {
    const made = await unwrap(partner.c.POST('/finance/v1/payment_request', { body: request(125) }));
    expect(made).toMatchObject({ status: 'created', returnCode: null, returnedOn: null });
    await expect.poll(async () => (await read(made.paymentId)).status, { timeout: 10_000, interval: 25 }).toBe('completed');
    await receiver.waitFor(1, (d) => d.body.includes('"payment.completed"') && JSON.parse(d.body).payment.paymentId === made.paymentId);
    const created = delivered('payment.created', made.paymentId);
    const completed = delivered('payment.completed', made.paymentId);
    expect([created.length, completed.length]).toEqual([1, 1]);
    expect(JSON.parse(completed[0]!.body).payment).toMatchObject({
      paymentId: made.paymentId,
      status: 'completed',
      merchantId: acme.merchantId,
    });
    // Every state it entered is an event of the merchant, including those no registration selected.
    const listed = [];
    for await (const e of eachEvent(acme.a, {}))
      if ((e as { payment?: { paymentId: number } }).payment?.paymentId === made.paymentId) listed.push(e);
    expect(listed.map((e) => e.type)).toEqual(['payment.completed', 'payment.sent', 'payment.processing', 'payment.created']);
    for (const d of [...created, ...completed]) {
      expect(d.headers['webhook-id']).toBe(JSON.parse(d.body).id);
      expect(listed).toContainEqual(JSON.parse(d.body));
    }

    // Returned (simulated): the payment, the search and the event all say so.
    const returned = await unwrap(
      partner.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
        params: { path: { paymentId: made.paymentId } },
        body: { returnCode: 'R03' },
      }),
    );
    expect(returned).toMatchObject({ status: 'returned', returnCode: 'R03' });
    expect(returned.returnedOn).not.toBeNull();
    expect(await read(made.paymentId)).toEqual(returned);
    const found = await unwrap(partner.e.POST('/finance/v1/search_transactions', { body: { paymentId: String(made.paymentId) } }));
    expect(found.data[0]).toMatchObject({ transactionStatus: 'returned', returnCode: 'R03' });
    expect(found.data[0]!.statusHistory.map((h) => h.status)).toEqual(['created', 'processing', 'sent', 'completed', 'returned']);
    await receiver.waitFor(1, (d) => d.body.includes('"payment.returned"') && JSON.parse(d.body).payment.paymentId === made.paymentId);
    // Final: a second return is refused and changes nothing.
    const again = await partner.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
      params: { path: { paymentId: made.paymentId } },
      body: { returnCode: 'R01' },
    });
    expect(again.response.status).toBe(409);
    expect((await read(made.paymentId)).returnCode).toBe('R03');
  });

  it('receives a notification of change, and applies it with updateRecipient: the next payment uses the corrected account', async () => {
    const made = await unwrap(partner.c.POST('/finance/v1/payment_request', { body: request(40) }));
    await expect.poll(async () => (await read(made.paymentId)).status, { timeout: 10_000, interval: 25 }).toBe('completed');
    const noc = await unwrap(
      partner.c.POST('/finance/v1/simulations/payment_request/{paymentId}/notification-of-change', {
        params: { path: { paymentId: made.paymentId } },
        body: { changeCode: 'C01', correctedData: { accountNumber: '000987654321' } },
      }),
    );
    expect(noc).toMatchObject({
      status: 'completed',
      notificationOfChange: { changeCode: 'C01', correctedData: { accountNumber: '000987654321' } },
    });
    expect(await read(made.paymentId)).toEqual(noc);
    // It shows in the search record too, and goes to the merchant as noc.received with the payment.
    const found = await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { paymentId: made.paymentId } }));
    expect(found.data[0]!.notificationOfChange).toMatchObject({ changeCode: 'C01' });
    const [event] = await receiver.waitFor(
      1,
      (d) => d.body.includes('"noc.received"') && JSON.parse(d.body).payment.paymentId === made.paymentId,
    );
    expect(JSON.parse(event!.body).payment.notificationOfChange.correctedData).toEqual({ accountNumber: '000987654321' });

    // Applied: the recipient's account changes; the old payment keeps the number it was made with, the next uses the new.
    const before = found.data[0]!.accountNumber;
    await unwrap(
      partner.c.PATCH('/finance/v1/payees/{payeeId}', { params: { path: { payeeId } }, body: { ach: { accountNumber: '000987654321' } } }),
    );
    const next = await unwrap(partner.c.POST('/finance/v1/payment_request', { body: request(41) }));
    const records = await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { pageSize: 100 } }));
    const account = (id: number) => records.data.find((t) => t.paymentId === id)!.accountNumber;
    expect(account(made.paymentId)).toBe(before);
    expect(account(next.paymentId)).toBe('4321');
    // No NOC for a payment that never reached the network.
    const cancelled = await unwrap(partner.c.POST('/finance/v1/payment_request', { body: request(42) }));
    await partner.c.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId: cancelled.paymentId } } });
    const refused = await partner.c.POST('/finance/v1/simulations/payment_request/{paymentId}/notification-of-change', {
      params: { path: { paymentId: cancelled.paymentId } },
      body: { changeCode: 'C05', correctedData: { bankAccountType: 'SAVINGS' } },
    });
    // The cancel may lose the race with the engine (SANDBOX_STEP_MS=0): then the payment reached the network.
    const cancelledWon = (await read(cancelled.paymentId)).status === 'cancelled';
    expect(refused.response.status).toBe(cancelledWon ? 409 : 200);
  });

  it('sends payment.cancelled for a cancel; refuses a return of what did not complete, a bad code and a stranger', async () => {
    const paced = await startService(':memory:', { sandboxStepMs: 3_600_000 }, { workers: true });
    try {
      const m = await newMerchant(paced);
      const p = await newPartner(paced, [m.merchantId]);
      const rival = await newPartner(paced, []);
      const hooks = await startReceiver();
      try {
        await unwrap(m.a.POST('/v1/webhooks', { body: { url: hooks.url, events: ['payment.cancelled'] } }));
        const recipient = await unwrap(
          p.c.POST('/finance/v1/recipient-ach', {
            body: {
              ...documentedRequest<S['AchRecipientRequest']>('partner', '/finance/v1/recipient-ach', 'individual'),
              merchantId: m.merchantId,
            },
          }),
        );
        const made = await unwrap(
          p.c.POST('/finance/v1/payment_request', { body: { ...request(30), payeeId: recipient.id, merchantId: m.merchantId } }),
        );
        const early = await p.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
          params: { path: { paymentId: made.paymentId } },
          body: { returnCode: 'R01' },
        });
        expect(early.response.status).toBe(409);
        const bad = await p.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
          params: { path: { paymentId: made.paymentId } },
          body: { returnCode: 'C01' },
        });
        expect(bad.response.status).toBe(400);
        expect(bad.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/returnCode' }));
        const stranger = await rival.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
          params: { path: { paymentId: made.paymentId } },
          body: { returnCode: 'R01' },
        });
        expect(stranger.response.status).toBe(404);
        await unwrap(p.c.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId: made.paymentId } } }));
        const [d] = await hooks.waitFor(1);
        expect(JSON.parse(d!.body)).toMatchObject({
          type: 'payment.cancelled',
          payment: { paymentId: made.paymentId, status: 'cancelled' },
        });
        expect(d!.headers['webhook-id']).toBe(JSON.parse(d!.body).id);
      } finally {
        await hooks.close();
      }
    } finally {
      await paced.stop();
    }
  });

  it('answers the simulation 404 in production', async () => {
    const prod = await startService(':memory:', { environment: 'production' }, { workers: false });
    try {
      const m = await newMerchant(prod);
      const p = await newPartner(prod, [m.merchantId]);
      const r = await p.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
        params: { path: { paymentId: 1 } },
        body: { returnCode: 'R01' },
      });
      expect(r.response.status).toBe(404);
      expect(r.error!.detail).toBe('No operation at POST /finance/v1/simulations/payment_request/1/return.');
    } finally {
      await prod.stop();
    }
  });
});

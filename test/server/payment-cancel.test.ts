// Cancelling payment requests (`cancelPayment`, groups C and E) over real HTTP on each store, with the payment
// engine driven by hand on the sandbox's pacing (SANDBOX_STEP_MS): a payment waits one step before processing
// starts, and only then. Before, a cancel wins and is answered again unchanged; after, it is refused with 409 and the
// payment goes on; when a cancel races the engine's first step, exactly one of them wins. A round that moved a payment
// wakes the webhook dispatcher.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/partner/schema.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { newPartner, type TestPartner } from '../support/partners.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

type S = components['schemas'];
const stepMs = 1000;

describe.each(stores)('cancelling payments on $name', (kind) => {
  // The engine is not started: each test decides when processing happens.
  const service = useService(kind, { sandboxStepMs: stepMs }, { workers: false });
  let acme: TestMerchant;
  let partner: TestPartner;
  let completes: number;
  let failsAtSent: number;
  // The engine's clock: each tick is one sandbox step later, so every payment due by then takes its next step.
  let clock = Date.now();
  const tick = () => {
    clock = Math.max(clock, Date.now()) + stepMs;
    return service.services.paymentEngine.round(clock);
  };

  beforeAll(async () => {
    acme = await newMerchant(service, 'Acme');
    partner = await newPartner(service, [acme.merchantId]);
    const recipient = (accountNumber: string) =>
      unwrap(
        partner.c.POST('/finance/v1/recipient-ach', {
          body: {
            email: 'payee@example.com',
            name: `Account ${accountNumber}`,
            type: 'INDIVIDUAL',
            merchantId: acme.merchantId,
            ach: { accountNumber, bankAccountType: 'CHECKING', routingNumber: '021000021' },
          },
        }),
      );
    completes = (await recipient('000123456789')).id;
    failsAtSent = (await recipient('000111110004')).id;
  });

  const pay = (payeeId = completes) =>
    unwrap(
      partner.c.POST('/finance/v1/payment_request', {
        body: { payeeId, amount: 3, currency: 'USD', paymentMethodType: 'STANDARD', description: 'cancel me', merchantId: acme.merchantId },
      }),
    );
  const params = (p: S['Payment']) => ({ params: { path: { paymentId: p.paymentId } } });
  const cancel = (p: S['Payment']) => partner.c.POST('/finance/v1/payment_request/{paymentId}/cancel', params(p));
  const read = (p: S['Payment']) => unwrap(partner.c.GET('/finance/v1/payment_request/{paymentId}', params(p)));
  const history = async (p: S['Payment']) =>
    (
      await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { paymentId: p.paymentId } }))
    ).data[0]!.statusHistory.map((h) => h.status);
  /** Steps the engine until the payment is in a final state. */
  async function settle(p: S['Payment']): Promise<S['Payment']> {
    for (let i = 0; i < 10; i++) {
      const now = await read(p);
      if (['completed', 'failed', 'cancelled'].includes(now.status)) return now;
      await tick();
    }
    throw new Error(`payment ${p.paymentId} never settled`);
  }

  it('cancels a payment before its first step, answers a repeat unchanged, and the engine never sends it', async () => {
    const made = await pay();
    expect(await read(made)).toEqual(made);
    // Processing starts one step after creation: a round now finds nothing of it to do.
    await service.services.paymentEngine.round(Date.now());
    expect((await read(made)).status).toBe('created');
    const { data: cancelled, response } = await cancel(made);
    expect(response.status).toBe(200);
    expect(cancelled).toEqual({ ...made, status: 'cancelled', updatedOn: expect.any(String) });
    expect(await unwrap(cancel(made))).toEqual(cancelled);
    // Group E's copy of the operation is the same one.
    expect(await unwrap(partner.e.POST('/finance/v1/payment_request/{paymentId}/cancel', params(made)))).toEqual(cancelled);
    await tick();
    await tick();
    expect(await read(made)).toEqual(cancelled);
    expect(await history(made)).toEqual(['created', 'cancelled']);
  });

  it('refuses to cancel a processing, completed or failed payment (409) and leaves it to the engine', async () => {
    for (const [payeeId, final] of [
      [completes, 'completed'],
      [failsAtSent, 'failed'],
    ] as const) {
      const made = await pay(payeeId);
      await tick();
      const processing = await cancel(made);
      expect(processing.response.status).toBe(409);
      expect(processing.error).toMatchObject({ type: 'https://payouts.example/problems/payment-not-cancellable', status: 409 });
      expect(processing.error!.detail).toContain('processing');
      const settled = await settle(made);
      expect(settled.status).toBe(final);
      const refused = await cancel(made);
      expect(refused.response.status).toBe(409);
      expect(refused.error!.detail).toContain(final);
      expect(await read(made)).toEqual(settled);
    }
  });

  it('lets exactly one of a cancel and the engine win when they race', async () => {
    const payments = [];
    for (let i = 0; i < 30; i++) payments.push(await pay());
    // The engine steps the payments oldest first; the cancels go newest first, one after another, and the newest is
    // cancelled before the engine starts: the two meet somewhere in between, each payment taken by one of them.
    const [newest, ...older] = [...payments].reverse();
    const answers = new Map([[newest!.paymentId, await cancel(newest!)]]);
    const cancelOlder = async () => {
      for (const made of older) answers.set(made.paymentId, await cancel(made));
    };
    await Promise.all([cancelOlder(), tick()]);
    const outcomes = new Set<string>();
    for (const made of payments) {
      const answer = answers.get(made.paymentId)!;
      const final = await settle(made);
      if (answer.response.status === 200) {
        expect(final.status).toBe('cancelled');
        expect(await history(made)).toEqual(['created', 'cancelled']);
      } else {
        expect(answer.response.status).toBe(409);
        expect(final.status).toBe('completed');
        expect(await history(made)).toEqual(['created', 'processing', 'sent', 'completed']);
      }
      outcomes.add(final.status);
    }
    expect([...outcomes].sort()).toEqual(['cancelled', 'completed']);
  });

  it('wakes the webhook dispatcher after a round that moved a payment, not after one that moved none', async () => {
    const made = await pay();
    const wake = vi.spyOn(service.services.dispatcher, 'wake');
    try {
      // Not due yet: the round takes nothing and writes no event.
      expect(await service.services.paymentEngine.round(Date.now())).toBe(0);
      expect(wake).not.toHaveBeenCalled();
      expect(await tick()).toBe(1);
      expect((await read(made)).status).toBe('processing');
      expect(wake).toHaveBeenCalledTimes(1);
    } finally {
      wake.mockRestore();
    }
  });
});

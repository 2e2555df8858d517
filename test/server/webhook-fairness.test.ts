// Webhook delivery is fair across merchants, over real HTTP on each store: a merchant whose receiver never
// answers (each of its deliveries lasts the whole timeout) has a backlog of events filling its target's
// bound, and another merchant's events still all arrive, in order per payout, before the first of the
// hanging deliveries has even timed out. The hanging receiver never holds more than the per-target bound.
// Then the bounds and the merchant turns themselves, at the function level.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHangingReceiver, type HangingReceiver } from '../../bench/hanging-receiver.js';
import { unwrap } from '../../client/problem-error.js';
import { ownerKey } from '../../server/domain/events/owners.js';
import { DeliverySlots, type Registration } from '../../server/domain/webhooks/delivery-slots.js';
import { inMerchantTurns } from '../../server/domain/webhooks/merchant-turns.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

/** Far longer than the fast merchant's events take, even on a busy machine running test files side by side: none of
 * the hanging deliveries may time out before they all arrived. The test ends by closing the hanging receiver. */
const webhookTimeoutMs = 20_000;
/** More payouts than the per-target bound (a payout has one event in flight at a time): 4 events each. */
const hangingPayouts = 80;
const fastPayouts = 10;
const states = ['created', 'processing', 'sent', 'completed'];

async function payouts(m: TestMerchant, count: number): Promise<string[]> {
  const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
  await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() }));
  const created = await Promise.all(
    Array.from({ length: count }, () => unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 10, Currency: 'USD' } }))),
  );
  return created.map((p) => p.PayoutUniqueReference);
}

describe.each(stores)('webhook fairness on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0, webhookTimeoutMs });
  let fast: WebhookReceiver;
  let hanging: HangingReceiver;

  beforeAll(async () => {
    fast = await startReceiver();
    hanging = await startHangingReceiver();
  });
  afterAll(async () => {
    // First the hanging receiver, so its deliveries end now rather than at the timeout.
    await hanging.close();
    await fast.close();
  });

  it("delivers another merchant's events while one merchant's receiver hangs with a backlog", { timeout: 60_000 }, async () => {
    const slow = await newMerchant(service, 'Hanging Receiver Co');
    const quick = await newMerchant(service, 'Fast Receiver Co');
    await unwrap(slow.a.POST('/v1/webhooks', { body: { url: hanging.url } }));
    await unwrap(quick.a.POST('/v1/webhooks', { body: { url: `${fast.url}/fast` } }));
    const { perTarget } = service.services.dispatcher.limits;
    expect(hangingPayouts).toBeGreaterThan(perTarget);

    // The hanging merchant's events come first, older than everything the fast merchant sends, and fill its
    // target's bound: the rest of its backlog waits.
    await payouts(slow, hangingPayouts);
    await expect.poll(() => hanging.received(), { timeout: 10_000 }).toBe(perTarget);

    const references = await payouts(quick, fastPayouts);
    await vi.waitFor(() => expect(fast.deliveries).toHaveLength(fastPayouts * states.length), {
      timeout: webhookTimeoutMs - 2_000,
      interval: 20,
    });

    // All of them arrived while the hanging receiver still held its first deliveries: none had timed out yet,
    // and all but those of the hanging merchant's events were still pending.
    expect(hanging.received()).toBe(perTarget);
    const received = fast.deliveries.map((d) => JSON.parse(d.body) as { payout_request_id: string; state: string });
    for (const reference of references) {
      expect(
        received.filter((e) => e.payout_request_id === reference).map((e) => e.state),
        reference,
      ).toEqual(states);
    }
    expect(hanging.maxOpen()).toBe(perTarget);
  });
});

describe('the delivery slots and merchant turns', () => {
  const registration = (id: string, merchantId: number, url: string): Registration => ({
    id,
    merchant_id: merchantId,
    partner_id: null,
    url,
    events: '["payout.created"]',
    environment: 'sandbox',
    secret: null,
    enabled: 1,
    retries: 0,
    previous_secret: null,
    previous_secret_until: null,
    created_at: 0,
    deleted_at: null,
  });

  it('bounds deliveries per target (scheme, host and port), per merchant and overall, and names what is blocked', () => {
    const slots = new DeliverySlots({ perTarget: 2, perMerchant: 3, overall: 4 });
    const a = registration('a', 1, 'https://hooks.example/a');
    const b = registration('b', 2, 'https://HOOKS.example:443/b'); // the same target as a
    const c = registration('c', 3, 'https://hooks.example:8443/c'); // another port, another target
    expect(slots.take(1, [a])).toBe(true);
    expect(slots.take(2, [b])).toBe(true);
    expect(slots.take(1, [a])).toBe(false); // the target is full, whoever asks
    expect(
      slots
        .blocked()
        .registrations.map((r) => r.id)
        .sort(),
    ).toEqual(['a', 'b']);
    slots.note([c, registration('d', 4, 'https://hooks.example/d')]); // d points at the full target, c does not
    expect(
      slots
        .blocked()
        .registrations.map((r) => r.id)
        .sort(),
    ).toEqual(['a', 'b', 'd']);
    expect(slots.take(3, [c])).toBe(true);
    expect(slots.take(3, [c])).toBe(true);
    expect(slots.take(4, [registration('e', 4, 'https://other.example/e')])).toBe(false); // 4 in flight overall
    expect(slots.free).toBe(0);
    slots.release(b);
    expect(
      slots
        .blocked()
        .registrations.map((r) => r.id)
        .sort(),
    ).toEqual(['c']); // two in flight at :8443
    expect(slots.inFlightOf(1)).toBe(1);
    expect(slots.inFlightOf(2)).toBe(0);
  });

  it('bounds a merchant across its targets, but an idle merchant or target always admits one event', () => {
    const slots = new DeliverySlots({ perTarget: 2, perMerchant: 3, overall: 10 });
    const hooks = ['p', 'q', 'r', 's'].map((host) => registration(host, 1, `https://${host}.example/hook`));
    expect(slots.take(1, hooks)).toBe(true); // four deliveries of one event: more than the merchant's bound
    expect(slots.take(1, [hooks[0]!])).toBe(false);
    expect(slots.blocked().merchants).toEqual([1]);
    slots.release(hooks[0]!);
    expect(slots.take(1, hooks.slice(1, 3))).toBe(false); // 3 in flight, 2 more wanted: turned away...
    expect(slots.blocked().merchants).toEqual([1]); // ...and left out of the selection until a slot of its frees
    expect(slots.take(1, [hooks[0]!])).toBe(false);
    for (const h of hooks.slice(1)) slots.release(h);
    for (const h of hooks.slice(0, 1)) expect(slots.take(1, [h])).toBe(true);
    slots.release(hooks[0]!);
    expect(slots.blocked()).toEqual({ merchants: [], registrations: [] });
    expect(slots.free).toBe(10);
  });

  it('offers events in merchant turns, oldest first, merchants with fewer deliveries in flight first', () => {
    const events = [
      { id: 1, merchant_id: 7 },
      { id: 2, merchant_id: 7 },
      { id: 3, merchant_id: 7 },
      { id: 4, merchant_id: 8 },
      { id: 5, merchant_id: 9 },
      { id: 6, merchant_id: 8 },
    ];
    const inFlight: Record<number, number> = { 7: 5, 8: 0, 9: 1 };
    expect(inMerchantTurns(events, (m) => inFlight[m] ?? 0).map((e) => e.id)).toEqual([4, 5, 1, 6, 2, 3]);
  });

  it("takes a partner's copies of a merchant's payment events as another owner's turn and slots", () => {
    // Merchant 7's events and partner 7's copies of them: two owners, neither waiting behind the other.
    const events = [
      { id: 1, merchant_id: 7, partner_id: null },
      { id: 2, merchant_id: 7, partner_id: 7 },
      { id: 3, merchant_id: 7, partner_id: null },
      { id: 4, merchant_id: 7, partner_id: 7 },
    ];
    const inFlight: Record<number, number> = { 7: 3, [-7]: 0 };
    expect(inMerchantTurns(events, (owner) => inFlight[owner] ?? 0).map((e) => e.id)).toEqual([2, 1, 4, 3]);
    const slots = new DeliverySlots({ perTarget: 10, perMerchant: 1, overall: 10 });
    const merchantHook = { ...registration('m', 7, 'https://m.example/'), partner_id: null };
    const partnerHook = { ...registration('p', 7, 'https://p.example/'), merchant_id: null, partner_id: 7 };
    expect(slots.take(ownerKey(merchantHook), [merchantHook])).toBe(true);
    expect(slots.take(ownerKey(partnerHook), [partnerHook])).toBe(true); // the merchant's bound is not the partner's
    expect(slots.take(ownerKey(partnerHook), [partnerHook])).toBe(false);
    expect(slots.blocked().merchants.sort()).toEqual([-7, 7]);
    slots.release(partnerHook);
    expect(slots.inFlightOf(ownerKey(partnerHook))).toBe(0);
    expect(slots.inFlightOf(ownerKey(merchantHook))).toBe(1);
  });
});

// Payouts through groups A and B over real HTTP, on each store, with a real webhook receiver: the full
// life cycle and its events, every failure outcome of the sandbox rail, exact amounts, cancellation rules,
// the cancel/process race, listing and isolation. Idempotency is in the table of idempotency.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { isPayoutEvent, parseUnsignedEvent, type PayoutEvent } from '../../client/webhooks.js';
import { eachPayout } from '../../client/paginate.js';
import testAccounts from '../../server/domain/rails/sandbox-test-accounts.json' with { type: 'json' };
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

async function payeeWithAccount(m: TestMerchant, accountNumber = '000123456789', Currency: string | null = 'USD') {
  const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
  const body = { ...bankAccount(accountNumber), Currency };
  const { PayeeAccountId } = await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body }));
  return { payeeId: payee.id, accountId: PayeeAccountId };
}

function waitForStatus(m: TestMerchant, reference: string, status: string, timeoutMs = 10_000) {
  const reached = async () => {
    const payout = await unwrap(m.a.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } }));
    if (payout.Status !== status) throw new Error(`payout ${reference} is ${payout.Status}, not ${status}`);
    return payout;
  };
  return vi.waitFor(reached, { timeout: timeoutMs, interval: 20 });
}

describe.each(stores)('payouts on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });
  let receiver: WebhookReceiver;
  let acme: TestMerchant;

  beforeAll(async () => {
    receiver = await startReceiver();
    acme = await newMerchant(service);
    await unwrap(acme.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/acme` } }));
  });
  afterAll(async () => {
    await receiver.close();
  });

  const eventsOf = async (reference: string, count: number): Promise<PayoutEvent[]> => {
    const deliveries = await receiver.waitFor(count, (d) => d.body.includes(reference));
    // An unsigned registration's deliveries: read as they came, each a payout event.
    const events = deliveries.map((d) => parseUnsignedEvent(d.body));
    expect(events.every(isPayoutEvent)).toBe(true);
    return events as PayoutEvent[];
  };

  it('accepts a payout at once (202, created) and takes it to completed, POSTing created → processing → sent → completed', async () => {
    const { payeeId, accountId } = await payeeWithAccount(acme);
    const { data, response } = await acme.a.POST('/v1/payouts', {
      body: { PayeeId: payeeId, Amount: 1250, Currency: 'USD', Description: 'November commission' },
    });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({
      PayeeId: payeeId,
      PayeeAccountId: accountId,
      Amount: '1250.00',
      Currency: 'USD',
      Status: 'created',
      Reasons: [],
      MerchantId: acme.merchantId,
      Description: 'November commission',
    });
    expect(response.headers.get('location')).toBe(`/v1/payouts/${data!.PayoutUniqueReference}`);
    const events = await eventsOf(data!.PayoutUniqueReference, 4);
    expect(events.map((e) => e.state)).toEqual(['created', 'processing', 'sent', 'completed']);
    for (const e of events) {
      expect(e).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-hjkmnp-tv-z]{26}$/),
        type: `payout.${e.state}`,
        environment: 'sandbox',
        payout_request_id: data!.PayoutUniqueReference,
        amount: '1250.00',
        currency: 'USD',
        metadata: {},
        timestamp: expect.stringMatching(/Z$/),
        state: e.state,
      });
    }
    const done = await waitForStatus(acme, data!.PayoutUniqueReference, 'completed');
    expect(done.Reasons).toEqual([]);
  });

  it.each(testAccounts.outcomes.map((o) => [o.reason, o] as const))(
    'fails a payout to a %s test account with that reason',
    async (_, outcome) => {
      const { payeeId } = await payeeWithAccount(acme, `00011111${outcome.endsWith}`);
      const payout = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 80, Currency: 'USD' } }));
      const failed = await waitForStatus(acme, payout.PayoutUniqueReference, 'failed');
      expect(failed.Reasons).toEqual([{ code: outcome.reason, message: outcome.message }]);
      const expected = outcome.failsAt === 'processing' ? ['created', 'processing', 'failed'] : ['created', 'processing', 'sent', 'failed'];
      const events = await eventsOf(payout.PayoutUniqueReference, expected.length);
      expect(events.map((e) => e.state)).toEqual(expected);
      expect(events.at(-1)!.reasons).toEqual([{ code: outcome.reason, message: outcome.message }]);
    },
  );

  it('keeps amounts exact and refuses more decimals than the currency has', async () => {
    const { payeeId } = await payeeWithAccount(acme);
    const cents = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 0.3, Currency: 'USD' } }));
    expect(cents.Amount).toBe('0.30');
    const yenPayee = (await payeeWithAccount(acme, '000123456789', 'JPY')).payeeId;
    const yen = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: yenPayee, Amount: 1500, Currency: 'JPY' } }));
    expect(yen.Amount).toBe('1500');
    const dinarPayee = (await payeeWithAccount(acme, '000123456789', 'BHD')).payeeId;
    const dinar = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: dinarPayee, Amount: 10.125, Currency: 'BHD' } }));
    expect(dinar.Amount).toBe('10.125');
    for (const [Amount, Currency] of [
      [12.555, 'USD'],
      [1500.5, 'JPY'],
    ] as const) {
      const { response, error } = await acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount, Currency } });
      expect(response.status).toBe(422);
      expect(error).toMatchObject({
        type: 'https://payouts.example/problems/invalid-amount',
        errors: [expect.objectContaining({ pointer: '#/Amount' })],
      });
    }
    const unknown = await acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 5, Currency: 'XXX' } });
    expect(unknown.response.status).toBe(422);
  });

  const mismatch = 'group %s: refuses a payout in a currency its account does not take (422 naming Currency), writing nothing';
  it.each(['a', 'b'] as const)(mismatch, async (group) => {
    const pay = (body: { PayeeId: number; PayeeAccountId?: string; Amount: number; Currency: string }) =>
      group === 'a' ? acme.a.POST('/v1/payouts', { body }) : acme.b.POST('/v1/payouts', { body });
    const { payeeId, accountId } = await payeeWithAccount(acme);
    const euros = { PayeeId: payeeId, Amount: 25, Currency: 'EUR' };
    for (const body of [euros, { ...euros, PayeeAccountId: accountId }]) {
      const { response, error } = await pay(body);
      expect(response.status).toBe(422);
      expect(error!.type).toBe('https://payouts.example/problems/business-rule');
      expect(error!.errors).toEqual([expect.objectContaining({ pointer: '#/Currency' })]);
    }
    const params = { query: { PayeeId: payeeId } };
    const listed = group === 'a' ? acme.a.GET('/v1/payouts', { params }) : acme.b.GET('/v1/payouts', { params });
    expect((await unwrap(listed)).data).toEqual([]);

    // With a EUR account as well, each currency is paid into the account that takes it, whichever is newer.
    const iban = { type: 'IBAN' as const, accountHolderName: null, IBAN: 'DE89370400440532013000', Currency: 'EUR' };
    const eur = await unwrap(acme.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payeeId } }, body: iban }));
    const inEuro = await pay({ PayeeId: payeeId, Amount: 25, Currency: 'EUR' });
    expect(inEuro.response.status).toBe(202);
    expect(inEuro.data).toMatchObject({ PayeeAccountId: eur.PayeeAccountId, Amount: '25.00', Currency: 'EUR' });
    const inDollars = await pay({ PayeeId: payeeId, Amount: 25, Currency: 'USD' });
    expect(inDollars.data).toMatchObject({ PayeeAccountId: accountId, Currency: 'USD' });
  });

  it('pays an account recorded without a Currency in any currency', async () => {
    const { payeeId, accountId } = await payeeWithAccount(acme, '000123456789', null);
    const payout = await unwrap(acme.b.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 40, Currency: 'GBP' } }));
    expect(payout).toMatchObject({ PayeeAccountId: accountId, Currency: 'GBP' });
  });

  it('refuses a payout to a missing payee (404) or a payee without an active account (422)', async () => {
    const missing = await acme.a.POST('/v1/payouts', { body: { PayeeId: 987_654, Amount: 5, Currency: 'USD' } });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/PayeeId' }));
    const bare = await unwrap(acme.a.POST('/v1/payees', { body: individual }));
    const none = await acme.a.POST('/v1/payouts', { body: { PayeeId: bare.id, Amount: 5, Currency: 'USD' } });
    expect(none.response.status).toBe(422);
    const { payeeId, accountId } = await payeeWithAccount(acme);
    await unwrap(acme.a.DELETE('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: payeeId, account_id: accountId } } }));
    const disabled = await acme.a.POST('/v1/payouts', {
      body: { PayeeId: payeeId, PayeeAccountId: accountId, Amount: 5, Currency: 'USD' },
    });
    expect(disabled.response.status).toBe(422);
    expect(disabled.error!.type).toBe('https://payouts.example/problems/inactive-account');
    expect(disabled.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/PayeeAccountId' }));
    expect(none.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/PayeeId' }));
  });

  it("refuses (404) an account the payee does not have, and another merchant's payee or account", async () => {
    const { payeeId, accountId } = await payeeWithAccount(acme);
    const other = await payeeWithAccount(acme);
    const elsewhere = await newMerchant(service, 'Elsewhere');
    const theirs = await payeeWithAccount(elsewhere);
    const cases = [
      { body: { PayeeId: payeeId, PayeeAccountId: 'pa_00000000000000000000000000' }, pointer: '#/PayeeAccountId' },
      { body: { PayeeId: payeeId, PayeeAccountId: other.accountId }, pointer: '#/PayeeAccountId' },
      { body: { PayeeId: theirs.payeeId }, pointer: '#/PayeeId' },
      { body: { PayeeId: theirs.payeeId, PayeeAccountId: theirs.accountId }, pointer: '#/PayeeId' },
      { body: { PayeeId: payeeId, PayeeAccountId: theirs.accountId }, pointer: '#/PayeeAccountId' },
    ];
    for (const { body, pointer } of cases) {
      const refused = await acme.a.POST('/v1/payouts', { body: { ...body, Amount: 5, Currency: 'USD' } });
      expect(refused.response.status, JSON.stringify(body)).toBe(404);
      expect(refused.error!.errors).toEqual([expect.objectContaining({ pointer })]);
    }
    // The account named, and not only the newest, is paid into.
    const second = await unwrap(
      acme.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payeeId } }, body: bankAccount('000123456789') }),
    );
    const named = await unwrap(
      acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, PayeeAccountId: accountId, Amount: 5, Currency: 'USD' } }),
    );
    expect(named.PayeeAccountId).toBe(accountId);
    const newest = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 5, Currency: 'USD' } }));
    expect(newest.PayeeAccountId).toBe(second.PayeeAccountId);
    expect((await unwrap(elsewhere.a.GET('/v1/payouts', {}))).data).toEqual([]);
  });

  it('lists newest first with cursor pages and filters, through A and B alike', async () => {
    const m = await newMerchant(service, 'Lister');
    const { payeeId } = await payeeWithAccount(m);
    const created = [];
    for (let i = 1; i <= 7; i++)
      created.push(await unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: i, Currency: 'USD' } })));
    const first = await unwrap(m.a.GET('/v1/payouts', { params: { query: { PageSize: 3 } } }));
    expect(first.data.map((p) => p.Amount)).toEqual(['7.00', '6.00', '5.00']);
    expect(first.nextCursor).toBeTruthy();
    const second = await unwrap(m.b.GET('/v1/payouts', { params: { query: { PageSize: 3, Cursor: first.nextCursor! } } }));
    expect(second.data.map((p) => p.Amount)).toEqual(['4.00', '3.00', '2.00']);
    const all = [];
    for await (const p of eachPayout(m.b, {})) all.push(p.PayoutUniqueReference);
    expect(all).toEqual(created.map((p) => p.PayoutUniqueReference).reverse());
    for (const p of created) await waitForStatus(m, p.PayoutUniqueReference, 'completed');
    expect((await unwrap(m.a.GET('/v1/payouts', { params: { query: { Status: 'completed', PayeeId: payeeId } } }))).data).toHaveLength(7);
    expect((await unwrap(m.a.GET('/v1/payouts', { params: { query: { Status: 'created' } } }))).data).toHaveLength(0);
    const bad = await m.a.GET('/v1/payouts', { params: { query: { PageSize: 500 } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.errors).toContainEqual(expect.objectContaining({ parameter: 'PageSize' }));
  });

  it('creates payouts through group B too, with the same events', async () => {
    const { payeeId } = await payeeWithAccount(acme);
    const { data, response } = await acme.b.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 9.99, Currency: 'USD' } });
    expect(response.status).toBe(202);
    expect((await eventsOf(data!.PayoutUniqueReference, 4)).map((e) => e.state)).toEqual(['created', 'processing', 'sent', 'completed']);
  });

  it('hides payouts from other merchants', async () => {
    const { payeeId } = await payeeWithAccount(acme);
    const payout = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 1, Currency: 'USD' } }));
    const other = await newMerchant(service, 'Other');
    const params = { path: { PayoutUniqueReference: payout.PayoutUniqueReference } };
    expect((await other.a.GET('/v1/payouts/{PayoutUniqueReference}', { params })).response.status).toBe(404);
    expect((await other.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', { params })).response.status).toBe(404);
    expect((await unwrap(other.a.GET('/v1/payouts', {}))).data).toEqual([]);
    const payToTheirPayee = await other.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 1, Currency: 'USD' } });
    expect(payToTheirPayee.response.status).toBe(404);
  });
});

describe.each(stores)('cancelling payouts on $name', (kind) => {
  // The engine is started and stopped by hand so that each test controls when processing happens.
  const service = useService(kind, { sandboxStepMs: 0 }, { workers: false });
  let receiver: WebhookReceiver;
  let acme: TestMerchant;

  beforeAll(async () => {
    service.services.dispatcher.start();
    receiver = await startReceiver();
    acme = await newMerchant(service);
    await unwrap(acme.a.POST('/v1/webhooks', { body: { url: receiver.url } }));
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('cancels a payout not yet processed, sends payout.cancelled, and answers a repeat the same', async () => {
    const { payeeId } = await payeeWithAccount(acme);
    const payout = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 5, Currency: 'USD' } }));
    const params = { path: { PayoutUniqueReference: payout.PayoutUniqueReference } };
    const cancelled = await unwrap(acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', { params }));
    expect(cancelled).toMatchObject({
      Status: 'cancelled',
      Reasons: [{ code: 'cancelled_by_request', message: 'The merchant cancelled the payout.' }],
    });
    expect(await unwrap(acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', { params }))).toEqual(cancelled);
    const deliveries = await receiver.waitFor(2, (d) => d.body.includes(payout.PayoutUniqueReference));
    expect(deliveries.map((d) => JSON.parse(d.body).state)).toEqual(['created', 'cancelled']);
    await service.services.engine.round();
    expect((await unwrap(acme.a.GET('/v1/payouts/{PayoutUniqueReference}', { params }))).Status).toBe('cancelled');
  });

  it('refuses to cancel a processing, completed or failed payout (409) and leaves it unchanged', async () => {
    for (const [accountNumber, finalStatus] of [
      ['000123456789', 'completed'],
      ['000111110004', 'failed'],
    ] as const) {
      const { payeeId } = await payeeWithAccount(acme, accountNumber);
      const payout = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 5, Currency: 'USD' } }));
      const params = { path: { PayoutUniqueReference: payout.PayoutUniqueReference } };
      await service.services.engine.round();
      const processing = await acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', { params });
      expect(processing.response.status).toBe(409);
      expect(processing.error!.type).toBe('https://payouts.example/problems/payout-not-cancellable');
      while ((await unwrap(acme.a.GET('/v1/payouts/{PayoutUniqueReference}', { params }))).Status !== finalStatus)
        await service.services.engine.round();
      const refused = await acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', { params });
      expect(refused.response.status).toBe(409);
      expect(refused.error!.detail).toContain(finalStatus);
      expect((await unwrap(acme.a.GET('/v1/payouts/{PayoutUniqueReference}', { params }))).Status).toBe(finalStatus);
    }
  });

  it('lets exactly one of cancel and processing win when they race', async () => {
    const { payeeId } = await payeeWithAccount(acme);
    const payouts = await Promise.all(
      Array.from({ length: 30 }, () => unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 3, Currency: 'USD' } }))),
    );
    const [cancels] = await Promise.all([
      Promise.all(
        payouts.map((p) =>
          acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', {
            params: { path: { PayoutUniqueReference: p.PayoutUniqueReference } },
          }),
        ),
      ),
      service.services.engine.round(),
    ]);
    for (let i = 0; i < payouts.length; i++) {
      const reference = payouts[i]!.PayoutUniqueReference;
      const cancel = cancels[i]!;
      while (
        !['cancelled', 'completed'].includes(
          (await unwrap(acme.a.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } })))
            .Status,
        )
      ) {
        await service.services.engine.round();
      }
      const final = await unwrap(
        acme.a.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } }),
      );
      if (cancel.response.status === 200) expect(final.Status).toBe('cancelled');
      else {
        expect(cancel.response.status).toBe(409);
        expect(final.Status).toBe('completed');
      }
      const states = (
        await service.services.store.db.selectFrom('events').select('type').where('subject', '=', reference).orderBy('id').execute()
      ).map((e) => e.type.replace(/^payout\./, ''));
      expect(states).toEqual(final.Status === 'cancelled' ? ['created', 'cancelled'] : ['created', 'processing', 'sent', 'completed']);
    }
  });
});

// The sandbox's payout test helpers and payout returns, through real HTTP on each store (groups A and B): a payout
// created with `Sandbox.Hold` stays `created` while the engine runs, so cancelling it is deterministic, and moves on
// once released; a completed payout is returned once (`returned`, its R code and reason, `payout.returned` delivered
// and listed with the same id; a second return is a 409 and changes nothing); a processing or sent payout is failed
// on demand. Production's 404 for these paths is in production-mode.test.ts, which walks every simulation.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eachEvent } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import { parseUnsignedEvent } from '../../client/webhooks.js';
import testAccounts from '../../server/domain/rails/sandbox-test-accounts.json' with { type: 'json' };
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

async function payeeOf(m: TestMerchant) {
  const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
  await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: { ...bankAccount(), Currency: 'USD' } }));
  return payee.id;
}

const at = (reference: string) => ({ params: { path: { PayoutUniqueReference: reference } } });

describe.each(stores)('payout holds and returns on $name', (kind) => {
  // The engine and the dispatcher run, with every step due at once: a payout not held completes within a few rounds.
  const service = useService(kind, { sandboxStepMs: 0 });
  let receiver: WebhookReceiver;
  let acme: TestMerchant;
  let other: TestMerchant;
  let payeeId: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    acme = await newMerchant(service);
    other = await newMerchant(service, 'Other');
    // Made without `events`: it selects every type, payout.returned included.
    const registration = await unwrap(acme.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/acme` } }));
    expect(registration.events).toContain('payout.returned');
    payeeId = await payeeOf(acme);
  });
  afterAll(async () => {
    await receiver.close();
  });

  const read = async (reference: string) => unwrap(acme.a.GET('/v1/payouts/{PayoutUniqueReference}', at(reference)));
  const completed = (reference: string) =>
    vi.waitFor(
      async () => {
        const payout = await read(reference);
        if (payout.Status !== 'completed') throw new Error(`${reference} is ${payout.Status}`);
        return payout;
      },
      { timeout: 10_000, interval: 20 },
    );
  const stateEvents = async (reference: string) =>
    (await service.services.store.db.selectFrom('events').select('type').where('subject', '=', reference).orderBy('id').execute()).map(
      (e) => e.type,
    );

  it('holds a payout in created while the engine runs, so a cancel wins every time; a cancelled payout is not released', async () => {
    const held = await unwrap(
      acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 7, Currency: 'USD', Sandbox: { Hold: true } } }),
    );
    expect(held).toMatchObject({ Status: 'created', ReturnCode: null, ReturnedOn: null });
    // A payout made after it goes all the way: the engine has run rounds since the held one was created.
    const after = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 8, Currency: 'USD' } }));
    await completed(after.PayoutUniqueReference);
    expect((await read(held.PayoutUniqueReference)).Status).toBe('created');

    const cancelled = await unwrap(acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', at(held.PayoutUniqueReference)));
    expect(cancelled).toMatchObject({ Status: 'cancelled', Reasons: [{ code: 'cancelled_by_request' }] });
    const release = await acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/release', at(held.PayoutUniqueReference));
    expect(release.response.status).toBe(409);
    expect(release.error!.type).toBe('https://payouts.example/problems/conflict');
    expect(release.error!.detail).toBe(
      `Payout ${held.PayoutUniqueReference} is cancelled, not held in created; only a payout created with Sandbox.Hold and not yet released can be released.`,
    );
    expect(await read(held.PayoutUniqueReference)).toEqual(cancelled);
    expect(await stateEvents(held.PayoutUniqueReference)).toEqual(['payout.created', 'payout.cancelled']);
  });

  it('releases a held payout, which then completes; a payout not held (or released twice) is a 409', async () => {
    const held = await unwrap(
      acme.b.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 9, Currency: 'USD', Sandbox: { Hold: true } } }),
    );
    const released = await unwrap(acme.b.POST('/v1/simulations/payouts/{PayoutUniqueReference}/release', at(held.PayoutUniqueReference)));
    expect(released).toMatchObject({ PayoutUniqueReference: held.PayoutUniqueReference, Status: 'created' });
    await completed(held.PayoutUniqueReference);
    const again = await acme.b.POST('/v1/simulations/payouts/{PayoutUniqueReference}/release', at(held.PayoutUniqueReference));
    expect(again.response.status).toBe(409);
    expect(again.error!.detail).toBe(
      `Payout ${held.PayoutUniqueReference} is completed, not held in created; only a payout created with Sandbox.Hold and not yet released can be released.`,
    );
    expect(await stateEvents(held.PayoutUniqueReference)).toEqual([
      'payout.created',
      'payout.processing',
      'payout.sent',
      'payout.completed',
    ]);
  });

  it('returns a completed payout once: returned with its code and reason, payout.returned delivered and listed with the same id', async () => {
    const payout = await unwrap(
      acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 1250, Currency: 'USD', Description: 'November commission' } }),
    );
    const done = await completed(payout.PayoutUniqueReference);
    const returned = await unwrap(
      acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', {
        ...at(payout.PayoutUniqueReference),
        body: { ReturnCode: 'R03' },
      }),
    );
    expect(returned).toMatchObject({
      Status: 'returned',
      Amount: '1250.00',
      ReturnCode: 'R03',
      Reasons: [
        {
          code: 'returned_by_bank',
          message: 'The receiving bank returned the payout: R03 (no account, or the account cannot be located).',
        },
      ],
    });
    expect(Date.parse(returned.ReturnedOn!)).toBeGreaterThanOrEqual(Date.parse(done.UpdatedOn));
    expect(returned.UpdatedOn).toBe(returned.ReturnedOn);
    // Groups A and B read it the same, and the list filters on the new state.
    expect(await read(payout.PayoutUniqueReference)).toEqual(returned);
    expect(await unwrap(acme.b.GET('/v1/payouts/{PayoutUniqueReference}', at(payout.PayoutUniqueReference)))).toEqual(returned);
    const listed = await unwrap(acme.a.GET('/v1/payouts', { params: { query: { Status: 'returned' } } }));
    expect(listed.data.map((p) => p.PayoutUniqueReference)).toContain(payout.PayoutUniqueReference);

    // Delivered once to the registration, and listed by the events API with the same id and body.
    const [delivery] = await receiver.waitFor(
      1,
      (d) => d.body.includes('"payout.returned"') && d.body.includes(payout.PayoutUniqueReference),
    );
    const event = parseUnsignedEvent(delivery!.body);
    expect(event).toMatchObject({
      type: 'payout.returned',
      state: 'returned',
      payout_request_id: payout.PayoutUniqueReference,
      amount: '1250.00',
      currency: 'USD',
      return_code: 'R03',
      reasons: returned.Reasons,
      environment: 'sandbox',
    });
    expect(delivery!.headers['webhook-id']).toBe(event.id);
    const query = { Type: ['payout.returned' as const], PayoutUniqueReference: payout.PayoutUniqueReference };
    const events = [];
    for await (const e of eachEvent(acme.b, query)) events.push(e);
    expect(events).toEqual([JSON.parse(delivery!.body)]);
    expect(await unwrap(acme.a.GET('/v1/events/{eventId}', { params: { path: { eventId: event.id } } }))).toEqual(events[0]);

    // Final: a second return (another code, or the same) is a 409 and changes nothing; no second event.
    for (const ReturnCode of ['R01', 'R03']) {
      const again = await acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', {
        ...at(payout.PayoutUniqueReference),
        body: { ReturnCode },
      });
      expect(again.response.status).toBe(409);
      expect(again.error!.type).toBe('https://payouts.example/problems/conflict');
      expect(again.error!.detail).toBe(
        `Payout ${payout.PayoutUniqueReference} is returned, not completed; only a completed payout can be returned.`,
      );
    }
    expect(await read(payout.PayoutUniqueReference)).toEqual(returned);
    expect(await stateEvents(payout.PayoutUniqueReference)).toEqual([
      'payout.created',
      'payout.processing',
      'payout.sent',
      'payout.completed',
      'payout.returned',
    ]);
    // A cancel of a returned payout is refused like that of any payout past `created`.
    const cancel = await acme.a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', at(payout.PayoutUniqueReference));
    expect(cancel.response.status).toBe(409);
  });

  it('returns a payout once when returns race: one 200, every other a 409, one payout.returned', async () => {
    const payout = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 40, Currency: 'USD' } }));
    await completed(payout.PayoutUniqueReference);
    // Through both groups at once.
    const body = (ReturnCode: string) => ({ ...at(payout.PayoutUniqueReference), body: { ReturnCode } });
    const answers = await Promise.all([
      ...['R02', 'R03', 'R04'].map((code) => acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', body(code))),
      ...['R16', 'R23', 'R29'].map((code) => acme.b.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', body(code))),
    ]);
    const won = answers.filter((a) => a.response.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.response.status === 409)).toHaveLength(answers.length - 1);
    expect(await read(payout.PayoutUniqueReference)).toEqual(won[0]!.data);
    expect((await stateEvents(payout.PayoutUniqueReference)).filter((t) => t === 'payout.returned')).toHaveLength(1);
  });

  it('returns only a completed payout, of the caller, with a well-formed R code', async () => {
    const held = await unwrap(
      acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 3, Currency: 'USD', Sandbox: { Hold: true } } }),
    );
    const early = await acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', {
      ...at(held.PayoutUniqueReference),
      body: { ReturnCode: 'R02' },
    });
    expect(early.response.status).toBe(409);
    expect(early.error!.detail).toBe(
      `Payout ${held.PayoutUniqueReference} is created, not completed; only a completed payout can be returned.`,
    );
    for (const ReturnCode of ['AC04', 'R1', 'r01']) {
      const bad = await acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', {
        ...at(held.PayoutUniqueReference),
        body: { ReturnCode },
      });
      expect(bad.response.status, ReturnCode).toBe(400);
      expect(JSON.stringify(bad.error!.errors)).toContain('ReturnCode');
    }
    // Another merchant's payout, or none: not found.
    for (const [m, reference] of [
      [other, held.PayoutUniqueReference],
      [acme, 'po_00000000000000000000000000'],
    ] as const) {
      for (const path of ['return', 'failure', 'release'] as const) {
        const body = path === 'return' ? { ReturnCode: 'R02' } : path === 'failure' ? { Reason: 'bank_rejected' } : undefined;
        const answer = await m.a.POST(
          `/v1/simulations/payouts/{PayoutUniqueReference}/${path}` as '/v1/simulations/payouts/{PayoutUniqueReference}/return',
          {
            ...at(reference),
            body: body as never,
          },
        );
        expect(answer.response.status, `${path} ${reference}`).toBe(404);
      }
    }
    expect(await read(held.PayoutUniqueReference)).toEqual(held);
    expect(await stateEvents(held.PayoutUniqueReference)).toEqual(['payout.created']);
  });
});

describe.each(stores)('failing payouts on demand on $name', (kind) => {
  // The engine takes one round when the test says so: a payout stays `processing` or `sent` as long as needed.
  const service = useService(kind, { sandboxStepMs: 0 }, { workers: false });
  let receiver: WebhookReceiver;
  let acme: TestMerchant;
  let payeeId: number;

  beforeAll(async () => {
    service.services.dispatcher.start();
    receiver = await startReceiver();
    acme = await newMerchant(service);
    await unwrap(acme.a.POST('/v1/webhooks', { body: { url: receiver.url, events: ['payout.failed'] } }));
    payeeId = await payeeOf(acme);
  });
  afterAll(async () => {
    await receiver.close();
  });

  const create = () => unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payeeId, Amount: 11, Currency: 'USD' } }));
  const fail = (reference: string, Reason: 'account_frozen' | 'compliance_rejected' | 'bank_rejected') =>
    acme.b.POST('/v1/simulations/payouts/{PayoutUniqueReference}/failure', { ...at(reference), body: { Reason } });
  const read = async (reference: string) => unwrap(acme.a.GET('/v1/payouts/{PayoutUniqueReference}', at(reference)));

  it('fails a processing or a sent payout with the rail reason and message, and sends payout.failed', async () => {
    for (const [rounds, from, Reason] of [
      [1, 'processing', 'compliance_rejected'],
      [2, 'sent', 'account_frozen'],
    ] as const) {
      const payout = await create();
      for (let i = 0; i < rounds; i++) await service.services.engine.round();
      expect((await read(payout.PayoutUniqueReference)).Status).toBe(from);
      const failed = await unwrap(fail(payout.PayoutUniqueReference, Reason));
      const { message } = testAccounts.outcomes.find((o) => o.reason === Reason)!;
      expect(failed).toMatchObject({ Status: 'failed', Reasons: [{ code: Reason, message }], ReturnCode: null, ReturnedOn: null });
      expect(await read(payout.PayoutUniqueReference)).toEqual(failed);
      // The engine has nothing more to do with it.
      await service.services.engine.round();
      expect(await read(payout.PayoutUniqueReference)).toEqual(failed);
      const [delivery] = await receiver.waitFor(1, (d) => d.body.includes(payout.PayoutUniqueReference));
      expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'payout.failed', state: 'failed', reasons: [{ code: Reason, message }] });
    }
  });

  it('refuses to fail a created or a completed payout (409) and leaves it unchanged; refuses an unknown reason (400)', async () => {
    const payout = await create();
    const early = await fail(payout.PayoutUniqueReference, 'bank_rejected');
    expect(early.response.status).toBe(409);
    expect(early.error!.detail).toMatch(
      /^Payout \S+ is created[a-z ]*, not processing or sent; only a processing or sent payout can be failed\.$/,
    );
    while ((await read(payout.PayoutUniqueReference)).Status !== 'completed') await service.services.engine.round();
    const late = await fail(payout.PayoutUniqueReference, 'bank_rejected');
    expect(late.response.status).toBe(409);
    expect(late.error!.detail).toBe(
      `Payout ${payout.PayoutUniqueReference} is completed, not processing or sent; only a processing or sent payout can be failed.`,
    );
    expect((await read(payout.PayoutUniqueReference)).Status).toBe('completed');

    const unknown = await acme.a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/failure', {
      ...at(payout.PayoutUniqueReference),
      body: { Reason: 'cancelled_by_request' as 'bank_rejected' },
    });
    expect(unknown.response.status).toBe(400);
    expect(JSON.stringify(unknown.error!.errors)).toContain('Reason');
  });
});

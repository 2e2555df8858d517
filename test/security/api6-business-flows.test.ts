// OWASP API6:2023 Unrestricted Access to Sensitive Business Flows: the flows that move money.
// Payouts (A and B), every banking transfer (D) and payment requests (C and E) cannot be duplicated by
// retries or a flood of concurrent copies: one idempotency key makes one payout, transfer or payment,
// replayed to every copy, and never another caller's. Creation is rate limited per caller, not per token,
// so minting more tokens buys no more payouts. Token requests cannot be sprayed either (see also API2).
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { problemType, type Answer } from '../support/requests.js';
import { bankAccount, individual } from '../support/merchants.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

const copies = 12;
const count = async (service: RunningService, table: 'payouts' | 'banking_transfers' | 'payments') =>
  Number(
    (
      await service.services.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** All answers share one body; exactly one was the original, the others say they are replays. */
function expectOneOriginal(answers: Answer[], status: number, idOf: (body: any) => unknown, replayed: (a: Answer) => boolean) {
  expect(
    answers.map((a) => a.status),
    answers.find((a) => a.status !== status)?.text,
  ).toEqual(Array(answers.length).fill(status));
  expect(new Set(answers.map((a) => idOf(a.body))).size).toBe(1);
  expect(answers.filter((a) => !replayed(a))).toHaveLength(1);
}
const replayHeader = (a: Answer) => a.headers.get('idempotent-replayed') === 'true';

describe.each(stores)('money-moving flows are idempotent under concurrent copies on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 3_600_000 }, { resolve: loopbackResolver });
  let t: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    t = await newTenant(service, 'Payer');
    other = await newTenant(service, 'Bystander');
  });

  it('payouts: one key, many concurrent copies through groups A and B, one payout', async () => {
    const before = await count(service, 'payouts');
    const body = { PayeeId: t.ids.payee, Amount: 25, Currency: 'USD', Description: 'bonus' };
    const key = `payout-${kind.name}`;
    const answers = await Promise.all(
      Array.from({ length: copies }, (_, i) =>
        service.send('POST', i % 2 ? '/payouts/v1/payouts' : '/v1/payouts', {
          token: t.merchantToken,
          body,
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    expectOneOriginal(answers, 202, (b) => b.PayoutUniqueReference, replayHeader);
    expect(await count(service, 'payouts')).toBe(before + 1);
    // The same key for another payout is a conflict, not a second payout.
    const changed = await service.send('POST', '/v1/payouts', {
      token: t.merchantToken,
      body: { ...body, Amount: 2500 },
      headers: { 'idempotency-key': key },
    });
    expect(changed.status).toBe(409);
    expect(changed.body.type).toBe(problemType('idempotency-conflict'));
    // Another merchant's identical key is its own: no replay of the first merchant's payout.
    const theirs = await service.send('POST', '/v1/payouts', {
      token: other.merchantToken,
      body: { ...body, PayeeId: other.ids.payee },
      headers: { 'idempotency-key': key },
    });
    expect(theirs.status).toBe(202);
    expect(replayHeader(theirs)).toBe(false);
    expect(theirs.body.PayoutUniqueReference).not.toBe(answers[0]!.body.PayoutUniqueReference);
    expect(await count(service, 'payouts')).toBe(before + 2);
  });

  const transfers = [
    [
      'ACH pull',
      '/finance/api/v1/transaction/ach/pull',
      (x: Tenant) => ({ accountId: x.ids.account, counterpartyId: x.ids.achCounterparty }),
    ],
    [
      'ACH push',
      '/finance/api/v1/transaction/ach/push',
      (x: Tenant) => ({ accountId: x.ids.account, counterpartyId: x.ids.achCounterparty }),
    ],
    [
      'domestic wire',
      '/finance/api/v1/transaction/wire/domestic',
      (x: Tenant) => ({ accountId: x.ids.account, counterpartyId: x.ids.abaCounterparty }),
    ],
    [
      'international wire',
      '/finance/api/v1/transaction/wire/international',
      (x: Tenant) => ({ accountId: x.ids.account, counterpartyId: x.ids.bicCounterparty, purposeOfPayment: 'GOODS' }),
    ],
    [
      'internal transfer',
      '/finance/api/v1/transaction/internal/transfer',
      (x: Tenant) => ({ accountId: x.ids.account, toAccountId: x.ids.reserveAccount }),
    ],
    [
      'simulated inbound credit',
      '/finance/api/v1/simulations/inbound-transfer',
      (x: Tenant) => ({ accountId: x.ids.account, rail: 'ACH', originatorName: `${x.label} Funding` }),
    ],
  ] as const;

  it.each(transfers)('%s: one key, many concurrent copies, one transfer and one balance change', async (name, path, parties) => {
    const balance = async () =>
      (await service.send('GET', `/finance/api/v1/account/${t.ids.account}/balance`, { token: t.merchantToken })).body.available as string;
    const [transfersBefore, balanceBefore] = [await count(service, 'banking_transfers'), await balance()];
    const body = { ...parties(t), amount: 1.25, currency: 'USD' };
    const key = `${name.replace(/ /g, '-')}-${kind.name}`;
    const answers = await Promise.all(
      Array.from({ length: copies }, () =>
        service.send('POST', path, { token: t.merchantToken, body, headers: { 'idempotency-key': key } }),
      ),
    );
    expectOneOriginal(answers, 201, (b) => b.id, replayHeader);
    expect(await count(service, 'banking_transfers')).toBe(transfersBefore + 1);
    const moved = (Number(await balance()) - Number(balanceBefore)).toFixed(2);
    // Held once: a debit (push, wires, internal) takes 1.25 from available at acceptance; a pull's credit counts only
    // once it settles, so available has not moved yet; a simulated inbound credit completes at once.
    expect(moved).toBe({ 'ACH pull': '0.00', 'simulated inbound credit': '1.25' }[name as string] ?? '-1.25');
    const conflict = await service.send('POST', path, {
      token: t.merchantToken,
      body: { ...body, amount: 99 },
      headers: { 'idempotency-key': key },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.type).toBe(problemType('idempotency-conflict'));
  });

  it.each([
    ['group C', '/finance/v1/payment_request', (x: Tenant) => x.ids.achRecipient],
    ['group E', '/finance/v1/payment_request', (x: Tenant) => x.ids.counterparty],
  ] as const)('payment requests (%s): one partnerPaymentUniqueId, many concurrent copies, one payment', async (name, path, payee) => {
    const before = await count(service, 'payments');
    const unique = `pay-${name.replace(/ /g, '-')}-${kind.name}`;
    const body = {
      payeeId: payee(t),
      amount: 3.5,
      currency: 'USD',
      paymentMethodType: 'STANDARD',
      description: 'duplicate me',
      merchantId: t.merchantId,
      partnerPaymentUniqueId: unique,
    };
    const answers = await Promise.all(Array.from({ length: copies }, () => service.send('POST', path, { token: t.partnerToken, body })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(copies - 1);
    expect(new Set(answers.map((a) => a.body.paymentId)).size).toBe(1);
    expect(await count(service, 'payments')).toBe(before + 1);
    const theirs = await service.send('POST', path, {
      token: other.partnerToken,
      body: { ...body, payeeId: payee(other), merchantId: other.merchantId },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.paymentId).not.toBe(answers[0]!.body.paymentId);
  });
});

describe('creation is rate limited per caller, not per token', () => {
  const limit = 6;
  // The clock of token issue, moved on instead of waited for.
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const service = useService(':memory:', { rateLimitPerMinute: limit, sandboxStepMs: 3_600_000 }, { now });
  let merchant: { merchantId: number; clientId: string; clientSecret: string };
  let payeeId: number;

  beforeAll(async () => {
    // Provisioned in-process, so that the whole minute's budget is left for the flood.
    merchant = await service.services.credentials.createMerchant('Flooder');
    payeeId = (await service.services.payees.create(merchant.merchantId, individual)).body.id;
    await service.services.accounts.create(merchant.merchantId, payeeId, bankAccount());
  });

  const mint = async () =>
    (
      await service.send('POST', '/oauth/token', {
        body: { client_id: merchant.clientId, client_secret: merchant.clientSecret, grant_type: 'client_credentials' },
      })
    ).body.access_token as string;

  it('payouts past the budget are refused with 429 and Retry-After, and fresh tokens of the same merchant do not reset it', async () => {
    const body = { PayeeId: payeeId, Amount: 1, Currency: 'USD' };
    const token = await mint();
    const answers: Answer[] = [];
    for (let i = 0; i < limit + 1; i++)
      answers.push(await service.send('POST', i % 2 ? '/payouts/v1/payouts' : '/v1/payouts', { token, body }));
    expect(answers.slice(0, limit).map((a) => a.status)).toEqual(Array(limit).fill(202));
    expect(answers[limit]!.status).toBe(429);
    expect(Number(answers[limit]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The merchant asks for new tokens: a token names its second of issue, so each is a new credential.
    for (let i = 0; i < 2; i++) {
      offsetMs += 1100;
      const fresh = await mint();
      expect(fresh).not.toBe(token);
      const again = await service.send('POST', '/v1/payouts', { token: fresh, body });
      expect(again.status, 'a new token of the same merchant').toBe(429);
    }
    expect(await count(service, 'payouts')).toBe(limit);
  });
});

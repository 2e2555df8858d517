// Group E over real HTTP with the generated client, on each store: counterparties with ACH or wire
// details (masked in responses) and a business of their merchant, payment requests shared with group C, and
// the payment history search with every filter of the seed.
import { beforeAll, describe, expect, it } from 'vitest';
import { createBankingClient } from '../../client/create-clients.js';
import { eachCounterparty, eachTransaction } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import { PaymentState } from '../../generated/counterparty/enums.js';
import type { components, operations } from '../../generated/counterparty/schema.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { documentedRequest, newPartner, type TestPartner } from '../support/partners.js';
import type { RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

type S = components['schemas'];
type Search = S['TransactionSearchRequest'];
type ListQuery = NonNullable<operations['listCounterparties']['parameters']['query']>;
const counterparty = (
  merchantId: number,
  example: 'achIndividual' | 'wireBusiness' | 'internationalAch' = 'achIndividual',
): S['CounterpartyCreateRequest'] => ({
  ...documentedRequest<S['CounterpartyCreateRequest']>('counterparty', '/finance/v1/payee', example),
  merchantId,
});

/** A business of the merchant, created through group D with the merchant's own credentials. */
async function businessOf(service: RunningService, m: TestMerchant, taxId: string): Promise<number> {
  const d = createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: m.clientId, clientSecret: m.clientSecret } });
  const address = { line1: '2200 Alaskan Way', line2: null, city: 'Seattle', state: 'WA', postalCode: '98121', countryCode: 'US' };
  const body = {
    ...{ legalName: 'Cascade Parts LLC', entityType: 'LLC' as const, taxId, formationDate: '2015-06-01', incorporationCountry: 'US' },
    ...{ incorporationState: 'WA', address, phone: '+12065550123', email: 'ap@cascade.example' },
  };
  return (await unwrap(d.POST('/finance/api/v1/business', { body }))).id;
}

describe.each(stores)('counterparty API on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });
  let acme: TestMerchant;
  let outsider: TestMerchant;
  let partner: TestPartner;
  let acmeBusiness: number;
  let achId: number;
  let wireId: number;
  const made: number[] = [];

  beforeAll(async () => {
    acme = await newMerchant(service, 'Acme');
    outsider = await newMerchant(service, 'Outsider');
    partner = await newPartner(service, [acme.merchantId]);
    await newPartner(service, [outsider.merchantId], 'Rival');
    acmeBusiness = await businessOf(service, acme, '91-1234567');
  });

  it('registers an ACH counterparty, echoing it with numbers masked', async () => {
    const body = counterparty(acme.merchantId);
    const { data, response } = await partner.e.POST('/finance/v1/payee', { body });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/finance/v1/payee/${data!.id}`);
    expect(data).toMatchObject({
      merchantId: acme.merchantId,
      name: body.name,
      PaymentMethodType: 'STANDARD',
      type: 'INDIVIDUAL',
      productId: 12,
      individualId: 73105,
      wire: null,
    });
    expect(data!.ach).toMatchObject({
      accountNumber: '6789',
      routingNumber: body.ach!.routingNumber,
      gatewayRoutingNumber: null,
      rdfiNumberQualifier: null,
    });
    achId = data!.id;
  });

  it('registers a business wire counterparty with its ID number masked, and an international ACH one', async () => {
    const wireBody = { ...counterparty(acme.merchantId, 'wireBusiness'), businessId: acmeBusiness };
    const wire = await unwrap(partner.e.POST('/finance/v1/payee', { body: wireBody }));
    expect(wire).toMatchObject({ type: 'BUSINESS', PaymentMethodType: 'DOMESTIC_WIRE', idNumber: '4567', idType: 'EIN', ach: null });
    expect(wire.businessId).toBe(acmeBusiness);
    expect(wire.wire).toMatchObject({ beneficiaryFIIdType: 'ABA' });
    wireId = wire.id;
    const iat = await unwrap(partner.e.POST('/finance/v1/payee', { body: counterparty(acme.merchantId, 'internationalAch') }));
    expect(iat.ach).toMatchObject({ rdfiNumberQualifier: '02', gatewayRoutingNumber: '021000021' });
  });

  it('refuses a counterparty of an unlinked merchant (404) and one without the details its method needs', async () => {
    expect((await partner.e.POST('/finance/v1/payee', { body: counterparty(outsider.merchantId) })).response.status).toBe(404);
    const noAch = { ...counterparty(acme.merchantId), ach: undefined };
    // @ts-expect-error refused by the service, and by the types (a conditional requirement)
    const r = await partner.e.POST('/finance/v1/payee', { body: noAch });
    expect([400, 422]).toContain(r.response.status);
    expect(r.error!.errors!.length).toBeGreaterThan(0);
  });

  it.each([
    ['that does not exist', async () => 987_654_321],
    ['of another merchant', async () => businessOf(service, outsider, '92-7654321')],
  ])('refuses a businessId %s (404 naming businessId) and records nothing', async (_, businessId) => {
    const name = `Refused ${Math.random().toString(36).slice(2, 10)}`;
    const body = { ...counterparty(acme.merchantId, 'wireBusiness'), name, businessId: await businessId() };
    const { response, error } = await partner.e.POST('/finance/v1/payee', { body });
    expect(response.status).toBe(404);
    expect(error!.type).toBe('https://payouts.example/problems/not-found');
    expect(error!.errors).toEqual([expect.objectContaining({ pointer: '#/businessId' })]);
    // Counterparties are the merchant's payees: group A's list would show a new one.
    expect(await unwrap(acme.a.POST('/v1/payees/list', { body: { name } }))).toEqual([]);
  });

  it('pays counterparties through the shared payment request and finds them by every filter', async () => {
    const pay = (
      payeeId: number,
      amount: number,
      method: S['PaymentRequest']['paymentMethodType'],
      extra: Partial<S['PaymentRequest']> = {},
    ) =>
      unwrap(
        partner.e.POST('/finance/v1/payment_request', {
          body: {
            payeeId,
            amount,
            currency: 'USD',
            paymentMethodType: method,
            description: `pay ${amount}`,
            merchantId: acme.merchantId,
            ...extra,
          },
        }),
      );
    const small = await pay(achId, 10, 'STANDARD', { externalId: 'EXT-10' });
    const large = await pay(wireId, 5000, 'DOMESTIC_WIRE');
    const mid = await pay(achId, 250.25, 'SAME_DAY');
    made.push(small.paymentId, large.paymentId, mid.paymentId);
    // Let them complete.
    const search = { body: { transactionStatus: ['completed' as const] } };
    const completed = async () => (await unwrap(partner.e.POST('/finance/v1/search_transactions', search))).totalCount;
    await expect.poll(completed, { timeout: 10_000, interval: 25, message: 'the payments complete' }).toBeGreaterThanOrEqual(3);
    const ids = async (body: Search) =>
      (await unwrap(partner.e.POST('/finance/v1/search_transactions', { body }))).data.map((t) => t.paymentId).sort((a, b) => a - b);
    const all = [...made].sort((a, b) => a - b);
    const before = new Date(Date.now() - 60_000).toISOString();
    const after = new Date(Date.now() + 60_000).toISOString();
    expect(await ids({})).toEqual(all);
    // A status filter may name every payment state (each array filter takes all of its values).
    expect(await ids({ transactionStatus: [...PaymentState], processingStatus: [...PaymentState] })).toEqual(all);
    expect(await ids({ minAmount: 100 })).toEqual([mid.paymentId, large.paymentId].sort((a, b) => a - b));
    expect(await ids({ minAmount: 250.25, maxAmount: 250.25 })).toEqual([mid.paymentId]);
    expect(await ids({ maxAmount: 250.24 })).toEqual([small.paymentId]);
    expect(await ids({ excludeWire: true })).toEqual([small.paymentId, mid.paymentId].sort((a, b) => a - b));
    expect(await ids({ excludeAch: true })).toEqual([large.paymentId]);
    expect(await ids({ transactionType: ['WIRE'] })).toEqual([large.paymentId]);
    expect(await ids({ counterpartyId: wireId })).toEqual([large.paymentId]);
    expect(await ids({ customerId: acme.merchantId, externalId: 'EXT-10' })).toEqual([small.paymentId]);
    expect(await ids({ paymentId: String(mid.paymentId) })).toEqual([mid.paymentId]);
    expect(await ids({ beginDate: before, endDate: after, updatedStart: before, postDateStart: before, postDateEnd: after })).toEqual(all);
    expect(await ids({ endDate: before })).toEqual([]);
    expect(
      await ids({ processingStatus: ['completed'], reconStatuses: ['UNRECONCILED'], direction: 'OUTBOUND', isInbound: false }),
    ).toEqual(all);
    expect(await ids({ isInbound: true })).toEqual([]);
    expect(await ids({ loadedFromFile: 'false', showAchNoc: true })).toEqual(all);
    expect(await ids({ loadedFromFile: 'true' })).toEqual([]);
    expect(await ids({ batchId: 'B1' })).toEqual([]);
    expect(await ids({ productId: 12 })).toEqual(all);
    expect(await ids({ productId: 13 })).toEqual([]);
    expect(await ids({ accountNumber: '000123456789' })).toEqual([small.paymentId, mid.paymentId].sort((a, b) => a - b));
    // The last 4 characters (what every response shows) find the same payments; other suffixes do not.
    expect(await ids({ accountNumber: '6789' })).toEqual([small.paymentId, mid.paymentId].sort((a, b) => a - b));
    expect(await ids({ accountNumber: '2277' })).toEqual([large.paymentId]);
    expect(await ids({ accountNumber: '56789' })).toEqual([]);
    expect(await ids({ accountNumber: '0000' })).toEqual([]);
    expect(await ids({ requesterUsername: partner.clientId, requesterIpAddress: '127.0.0.1' })).toEqual(all);
    const page = await unwrap(partner.e.POST('/finance/v1/search_transactions', { body: { paymentId: String(large.paymentId) } }));
    expect(page.data[0]).toMatchObject({
      amount: '5000.00',
      transactionType: 'WIRE',
      direction: 'OUTBOUND',
      accountNumber: expect.stringMatching(/^[0-9A-Za-z]{4}$/),
      partnerId: partner.partnerId,
    });
    const newestFirst = (await unwrap(partner.e.POST('/finance/v1/search_transactions', { body: {} }))).data.map((t) => t.paymentId);
    expect(newestFirst).toEqual([...all].reverse());
    const iterated = [];
    for await (const t of eachTransaction(partner.e, { pageSize: 1 })) iterated.push(t.paymentId);
    expect(iterated).toEqual([...all].reverse());
  });

  it.each([
    ['an inverted date range', { beginDate: '2026-12-01T00:00:00Z', endDate: '2026-11-01T00:00:00Z' }, '#/endDate'],
    ['minAmount above maxAmount', { minAmount: 10, maxAmount: 5 }, '#/minAmount'],
    ['excluding both rails', { excludeAch: true, excludeWire: true }, '#/excludeWire'],
    ['isInbound against direction', { isInbound: true, direction: 'OUTBOUND' }, '#/isInbound'],
  ] as const)('refuses %s (422)', async (_, body, pointer) => {
    const { response, error } = await partner.e.POST('/finance/v1/search_transactions', { body: body as Search });
    expect(response.status).toBe(422);
    expect(error!.errors).toContainEqual(expect.objectContaining({ pointer }));
  });

  it('refuses an unlinked customerId (404) and unknown filters (400)', async () => {
    expect((await partner.e.POST('/finance/v1/search_transactions', { body: { customerId: outsider.merchantId } })).response.status).toBe(
      404,
    );
    expect(
      (await partner.e.POST('/finance/v1/search_transactions', { body: { transactionStatus: ['lost'] } as unknown as Search })).response
        .status,
    ).toBe(400);
    expect((await partner.e.POST('/finance/v1/search_transactions', { body: { pageSize: 500 } })).response.status).toBe(400);
  });

  it('shows group C the same payments group E made (one operation, one store)', async () => {
    const viaC = await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { merchantId: acme.merchantId } }));
    expect(viaC.data.map((t) => t.paymentId).sort((a, b) => a - b)).toEqual([...made].sort((a, b) => a - b));
  });

  describe('reading, listing and changing counterparties', () => {
    const register = (body: S['CounterpartyCreateRequest']) => unwrap(partner.e.POST('/finance/v1/payee', { body }));
    const read = (payeeId: number, p: TestPartner = partner) => p.e.GET('/finance/v1/payee/{payeeId}', { params: { path: { payeeId } } });
    const change = (payeeId: number, body: S['CounterpartyUpdateRequest'], p: TestPartner = partner) =>
      p.e.PATCH('/finance/v1/payee/{payeeId}', { params: { path: { payeeId } }, body });

    it('reads each counterparty as its registration returned it, for any partner linked to its merchant', async () => {
      const colleague = await newPartner(service, [acme.merchantId], 'Colleague');
      for (const example of ['achIndividual', 'wireBusiness', 'internationalAch'] as const) {
        const registered = await register(
          example === 'wireBusiness'
            ? { ...counterparty(acme.merchantId, example), businessId: acmeBusiness }
            : counterparty(acme.merchantId, example),
        );
        expect(await unwrap(read(registered.id))).toEqual(registered);
        expect(await unwrap(read(registered.id, colleague))).toEqual(registered);
      }
    });

    it("answers another merchant's counterparty, a recipient and an unknown id alike (404)", async () => {
      const stranger = await newPartner(service, [outsider.merchantId], 'Stranger');
      const registered = await register(counterparty(acme.merchantId));
      const recipient = await unwrap(
        partner.c.POST('/finance/v1/recipient-ach', {
          body: {
            email: 'r@example.com',
            name: 'A Recipient',
            type: 'INDIVIDUAL',
            merchantId: acme.merchantId,
            ach: { accountNumber: '000123456789', bankAccountType: 'CHECKING', routingNumber: '021000021' },
          },
        }),
      );
      const missing = await read(999_999_999);
      const foreign = await read(registered.id, stranger);
      expect([missing.response.status, foreign.response.status]).toEqual([404, 404]);
      expect(foreign.error!.detail.replace(String(registered.id), 'X')).toBe(missing.error!.detail.replace('999999999', 'X'));
      expect((await read(recipient.id)).response.status).toBe(404);
      expect((await change(recipient.id, { name: 'Stolen' })).response.status).toBe(404);
      expect((await change(registered.id, { name: 'Stolen' }, stranger)).response.status).toBe(404);
      expect((await unwrap(read(registered.id))).name).toBe(registered.name);
    });

    it('lists counterparties newest first, by merchant, a cursor page at a time', async () => {
      const globex = await newMerchant(service, 'Globex');
      const lister = await newPartner(service, [acme.merchantId, globex.merchantId], 'Lister');
      const mine = [];
      for (let i = 0; i < 3; i++)
        mine.push(await unwrap(lister.e.POST('/finance/v1/payee', { body: { ...counterparty(globex.merchantId), name: `Globex ${i}` } })));
      const list = (query: ListQuery) => lister.e.GET('/finance/v1/payee', { params: { query } });
      const first = await unwrap(list({ MerchantId: globex.merchantId, PageSize: 2 }));
      expect(first.data).toEqual([mine[2], mine[1]]);
      expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      const second = await unwrap(list({ MerchantId: globex.merchantId, PageSize: 2, Cursor: first.nextCursor! }));
      expect(second).toEqual({ data: [mine[0]], nextCursor: null });
      // Without MerchantId: every linked merchant's, which the pager walks whole.
      const all = [];
      for await (const c of eachCounterparty(lister.e, { PageSize: 1 })) all.push(c);
      expect(all.map((c) => c.id)).toEqual([...all.map((c) => c.id)].sort((a, b) => b - a));
      expect(all.filter((c) => c.merchantId === globex.merchantId)).toEqual([...mine].reverse());
      expect(all.some((c) => c.merchantId === acme.merchantId)).toBe(true);
      expect(new Set(all.map((c) => c.merchantId))).toEqual(new Set([acme.merchantId, globex.merchantId]));
      // A partner sees only its linked merchants' counterparties; an unlinked MerchantId is 404, a forged cursor 400.
      expect(
        (await unwrap(partner.e.GET('/finance/v1/payee', { params: { query: { PageSize: 100 } } }))).data.map((c) => c.merchantId),
      ).not.toContain(globex.merchantId);
      const unlinked = await partner.e.GET('/finance/v1/payee', { params: { query: { MerchantId: globex.merchantId } } });
      expect(unlinked.response.status).toBe(404);
      expect(unlinked.error!.errors).toEqual([expect.objectContaining({ parameter: 'MerchantId' })]);
      const forged = await list({ Cursor: 'bm90LWFuLWlk' });
      expect(forged.response.status).toBe(400);
      expect(forged.error!.errors).toEqual([expect.objectContaining({ parameter: 'Cursor' })]);
    });

    it('applies a notification of change to ACH details: earlier payments keep their number, later ones pay the new', async () => {
      const registered = await register(counterparty(acme.merchantId));
      const pay = () =>
        unwrap(
          partner.e.POST('/finance/v1/payment_request', {
            body: {
              payeeId: registered.id,
              amount: 7,
              currency: 'USD',
              paymentMethodType: 'STANDARD',
              description: 'noc',
              merchantId: acme.merchantId,
            },
          }),
        );
      const before = await pay();
      const corrected = await unwrap(change(registered.id, { ach: { routingNumber: '026009593', accountNumber: '000987654321' } }));
      expect(corrected).toEqual({ ...registered, ach: { ...registered.ach!, routingNumber: '026009593', accountNumber: '4321' } });
      expect(await unwrap(read(registered.id))).toEqual(corrected);
      const after = await pay();
      const numbers = async (paymentId: number) =>
        (await unwrap(partner.e.POST('/finance/v1/search_transactions', { body: { paymentId: String(paymentId) } }))).data[0]!
          .accountNumber;
      expect([await numbers(before.paymentId), await numbers(after.paymentId)]).toEqual(['6789', '4321']);
      const contact = await unwrap(change(registered.id, { email: 'new@example.com', phone: null }));
      expect(contact).toEqual({ ...corrected, email: 'new@example.com', phone: null });
    });

    it('checks an international ACH account against its recorded qualifier, and a wire like the create', async () => {
      const iat = await register(counterparty(acme.merchantId, 'internationalAch'));
      const digits = await change(iat.id, { ach: { routingNumber: '021000021' } });
      expect(digits.response.status).toBe(422);
      expect(digits.error!.errors).toEqual([expect.objectContaining({ pointer: '#/ach/routingNumber' })]);
      const bic = await unwrap(change(iat.id, { ach: { routingNumber: 'BBVAMXMM', accountNumber: '012180015099990000' } }));
      expect(bic.ach).toMatchObject({ routingNumber: 'BBVAMXMM', accountNumber: '0000', rdfiNumberQualifier: '02' });
      const wired = await register({
        ...counterparty(acme.merchantId, 'wireBusiness'),
        businessId: acmeBusiness,
        name: `Wired ${kind.name}`,
      });
      const checksum = await change(wired.id, { wire: { receiverRoutingNumber: '026009594' } });
      expect(checksum.response.status).toBe(422);
      expect(checksum.error!.errors).toEqual([expect.objectContaining({ pointer: '#/wire/receiverRoutingNumber' })]);
      const moved = await unwrap(change(wired.id, { wire: { receiverRoutingNumber: '021000021', beneficiaryAccountNumber: '55501234' } }));
      expect(moved.wire).toEqual({ ...wired.wire!, receiverRoutingNumber: '021000021', beneficiaryAccountNumber: '1234' });
    });

    it.each([
      ['an empty body', {}, '#', 400],
      ['ACH details for a counterparty paid by wire', { ach: { bankName: 'Other Bank' } }, '#/ach', 422],
      ['no phone number for a business', { phone: null }, '#/phone', 422],
      ['a field that cannot change here', { idNumber: '98-7654321' }, '#/idNumber', 400],
    ] as const)('refuses %s (%s: the schema, or the counterparty as recorded) and changes nothing', async (_, body, pointer, status) => {
      const wired = await register({
        ...counterparty(acme.merchantId, 'wireBusiness'),
        businessId: acmeBusiness,
        name: `Unchanged ${pointer}`,
      });
      const sent = Object.keys(body).length > 0 ? { name: 'Changed Name', ...body } : body;
      const { response, error } = await change(wired.id, sent as S['CounterpartyUpdateRequest']);
      expect(response.status).toBe(status);
      expect(error!.errors).toContainEqual(expect.objectContaining({ pointer }));
      expect(await unwrap(read(wired.id))).toEqual(wired);
    });
  });
});

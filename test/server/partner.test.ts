// Group C over real HTTP with the generated client, on each store: partner tokens, partner scoping both
// ways, merchant list, ACH and wire recipients with their rules, the recipient list's every parameter,
// payment requests (idempotency under concurrency, the seed's rules) moving through states, and the
// partner transaction search.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createPartnerClient } from '../../client/create-clients.js';
import { eachPartnerTransaction, eachRecipient } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import type { components, operations } from '../../generated/partner/schema.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { documentedRequest, newPartner, type TestPartner } from '../support/partners.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

type S = components['schemas'];
type RecipientQuery = NonNullable<operations['listRecipients']['parameters']['query']>;
const ach = (merchantId: number, patch: Partial<S['AchRecipientRequest']> = {}): S['AchRecipientRequest'] =>
  ({ ...documentedRequest('partner', '/finance/v1/recipient-ach', 'individual'), merchantId, ...patch }) as S['AchRecipientRequest'];
const wire = (merchantId: number, example: 'domestic' | 'international' = 'domestic'): S['WireRecipientRequest'] => {
  const body = documentedRequest<S['WireRecipientRequest']>('partner', '/finance/v1/recipient-wire', example);
  delete body.partnerId;
  return { ...body, merchantId };
};

function waitForStatus(p: TestPartner, paymentId: number, status: string) {
  const reached = async () => {
    const page = await unwrap(p.c.POST('/finance/v1/partner/search_transactions', { body: { paymentId } }));
    const payment = page.data[0];
    if (payment?.transactionStatus !== status) throw new Error(`payment ${paymentId} never reached ${status}: ${JSON.stringify(payment)}`);
    return payment;
  };
  return vi.waitFor(reached, { timeout: 10_000, interval: 25 });
}

describe.each(stores)('partner API on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });
  let acme: TestMerchant;
  let globex: TestMerchant;
  let outsider: TestMerchant;
  let partner: TestPartner;
  let rival: TestPartner;

  beforeAll(async () => {
    acme = await newMerchant(service, 'Acme');
    globex = await newMerchant(service, 'Globex');
    outsider = await newMerchant(service, 'Outsider');
    partner = await newPartner(service, [acme.merchantId, globex.merchantId], 'Partner');
    rival = await newPartner(service, [outsider.merchantId], 'Rival');
  });

  describe('tokens and caller kinds', () => {
    it('issues a partner token for partner credentials only', async () => {
      const ok = await partner.c.POST('/finance/v1/generate-token', {
        body: { clientId: partner.clientId, clientSecret: partner.clientSecret },
      });
      expect(ok.response.status).toBe(200);
      expect(ok.data).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      const merchantCredentials = await partner.c.POST('/finance/v1/generate-token', {
        body: { clientId: acme.clientId, clientSecret: acme.clientSecret },
      });
      expect(merchantCredentials.response.status).toBe(401);
      expect(merchantCredentials.error).toMatchObject({ error: 'invalid_client' });
      const viaE = await partner.e.POST('/api/v1/generate-token', {
        body: { clientId: partner.clientId, clientSecret: partner.clientSecret },
      });
      expect(viaE.response.status).toBe(200);
    });

    it('refuses a merchant token on partner operations and a partner token on merchant operations (403)', async () => {
      const merchantToken = await service.token({ kind: 'merchant', merchantId: acme.merchantId });
      const asMerchant = createPartnerClient({ baseUrl: service.baseUrl, token: merchantToken });
      expect(
        (await asMerchant.GET('/finance/v1/partner/list', { params: { query: { partnerId: partner.partnerId } } })).response.status,
      ).toBe(403);
      const partnerToken = await service.token({ kind: 'partner', partnerId: partner.partnerId });
      const r = await fetch(`${service.baseUrl}/v1/webhooks`, { headers: { authorization: `Bearer ${partnerToken}` } });
      expect(r.status).toBe(403);
    });
  });

  describe('merchant list', () => {
    it('lists exactly the linked merchants', async () => {
      const list = await unwrap(partner.c.GET('/finance/v1/partner/list', { params: { query: { partnerId: partner.partnerId } } }));
      expect(list.data.map((m) => [m.merchantId, m.name, m.status])).toEqual([
        [acme.merchantId, 'Acme', 'active'],
        [globex.merchantId, 'Globex', 'active'],
      ]);
    });

    it("answers another partner's id as not found", async () => {
      const { response } = await partner.c.GET('/finance/v1/partner/list', { params: { query: { partnerId: rival.partnerId } } });
      expect(response.status).toBe(404);
    });
  });

  describe('recipients', () => {
    it('creates an ACH recipient and echoes it with the account number masked', async () => {
      const body = ach(acme.merchantId);
      const { data, response } = await partner.c.POST('/finance/v1/recipient-ach', { body });
      expect(response.status).toBe(201);
      expect(data).toMatchObject({
        email: body.email,
        name: body.name,
        type: 'INDIVIDUAL',
        paymentMethodType: 'STANDARD',
        partnerId: partner.partnerId,
        merchantId: acme.merchantId,
      });
      expect(data!.ach).toEqual({ ...body.ach, accountNumber: '6789' });
      expect(data!.paymentNetworkRailPayeeId).toMatch(/^rp_[0-9a-z]{26}$/);
      expect(JSON.stringify(data)).not.toContain('000123456789');
      // A recipient is a payee of the merchant, visible to it through group A.
      expect(await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: data!.id } } }))).toMatchObject({
        name: body.name,
        EmailAddress: body.email,
        payeeType: 'individual',
      });
    });

    it('checks the ABA routing number checksum (422)', async () => {
      const { response, error } = await partner.c.POST('/finance/v1/recipient-ach', {
        body: ach(acme.merchantId, { ach: { ...ach(acme.merchantId).ach, routingNumber: '021000022' } }),
      });
      expect(response.status).toBe(422);
      expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/ach/routingNumber' }));
    });

    it("refuses an unlinked or unknown merchant, and another partner's id, alike (404)", async () => {
      const unlinked = await partner.c.POST('/finance/v1/recipient-ach', { body: ach(outsider.merchantId) });
      const unknown = await partner.c.POST('/finance/v1/recipient-ach', { body: ach(999_999) });
      expect(unlinked.response.status).toBe(404);
      expect(unknown.response.status).toBe(404);
      expect(unlinked.error!.detail.replace(String(outsider.merchantId), 'X')).toBe(unknown.error!.detail.replace('999999', 'X'));
      const foreignPartner = await partner.c.POST('/finance/v1/recipient-ach', {
        body: ach(acme.merchantId, { partnerId: rival.partnerId }),
      });
      expect(foreignPartner.response.status).toBe(404);
    });

    it('requires a phone number for a business recipient (400)', async () => {
      const { response, error } = await partner.c.POST('/finance/v1/recipient-ach', {
        body: ach(acme.merchantId, { type: 'BUSINESS', phone: undefined }),
      });
      expect(response.status).toBe(400);
      expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/phone' }));
    });

    it('creates domestic (ABA) and international (BIC) wire recipients', async () => {
      const domestic = await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'domestic') }));
      expect(domestic).toMatchObject({
        paymentMethodType: 'DOMESTIC_WIRE',
        wire: { type: 'DOMESTIC', beneficiaryFIIdType: 'ABA', beneficiaryAccountNumber: '2277' },
      });
      const international = await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'international') }));
      expect(international).toMatchObject({
        paymentMethodType: 'INTERNATIONAL_WIRE',
        wire: { type: 'INTERNATIONAL', beneficiaryFIIdType: 'BIC', receiverRoutingNumber: 'DEUTDEFFXXX', beneficiaryIdNumber: '6789' },
      });
    });

    it('rejects a wire without beneficiaryFIIdType, without paymentMethodType, or a domestic wire by BIC (400)', async () => {
      const base = wire(acme.merchantId, 'domestic');
      const noIdType = { ...base, wire: { ...base.wire, beneficiaryFIIdType: undefined } } as unknown as S['WireRecipientRequest'];
      expect((await partner.c.POST('/finance/v1/recipient-wire', { body: noIdType })).response.status).toBe(400);
      const noMethod = { ...base, paymentMethodType: undefined } as unknown as S['WireRecipientRequest'];
      expect((await partner.c.POST('/finance/v1/recipient-wire', { body: noMethod })).response.status).toBe(400);
      const byBic = { ...base, wire: { ...base.wire, beneficiaryFIIdType: 'BIC' as const, receiverRoutingNumber: 'DEUTDEFFXXX' } };
      expect((await partner.c.POST('/finance/v1/recipient-wire', { body: byBic })).response.status).toBe(400);
    });

    it('lists recipients of linked merchants with every filter, sorting and paging', async () => {
      const p = await newPartner(service, [globex.merchantId], 'Lister');
      const names = ['Delta Ltd', 'alpha co', 'Bravo Inc', 'charlie shop'];
      const made = [];
      for (const [i, name] of names.entries())
        made.push(
          await unwrap(
            p.c.POST('/finance/v1/recipient-ach', {
              body: ach(globex.merchantId, {
                name,
                email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
                type: i % 2 ? 'BUSINESS' : 'INDIVIDUAL',
                phone: '+12125550143',
                paymentMethodType: i === 3 ? 'SAME_DAY' : 'STANDARD',
              }),
            }),
          ),
        );
      const wired = await unwrap(p.c.POST('/finance/v1/recipient-wire', { body: wire(globex.merchantId) }));
      const query = (q: RecipientQuery) =>
        unwrap(p.c.GET('/finance/v1/payees', { params: { query: { MerchantId: globex.merchantId, ...q } } }));
      const mine = await query({ SortProperty: 'name' });
      expect(mine.data.map((r) => r.name).filter((n) => names.includes(n))).toEqual(['alpha co', 'Bravo Inc', 'charlie shop', 'Delta Ltd']);
      expect((await query({ PayeeType: 'BUSINESS', SearchText: 'ALPHA' })).data.map((r) => r.name)).toEqual(['alpha co']);
      expect((await query({ SearchText: 'bravo@example' })).data.map((r) => r.name)).toEqual(['Bravo Inc']);
      expect((await query({ Route: 'WIRE' })).data.map((r) => r.id)).toContain(wired.id);
      expect((await query({ Route: 'WIRE' })).data.every((r) => 'wire' in r)).toBe(true);
      expect((await query({ PayeePaymentMethodType: 'SAME_DAY', SearchText: 'charlie' })).data.map((r) => r.name)).toEqual([
        'charlie shop',
      ]);
      expect((await query({ PaymentNetworkRailPayeeId: made[0]!.paymentNetworkRailPayeeId })).data.map((r) => r.id)).toEqual([made[0]!.id]);
      const page2 = await query({ SortProperty: 'id', IsDescending: true, PageSize: 2, PageNumber: 2 });
      expect(page2).toMatchObject({ pageNumber: 2, pageSize: 2 });
      expect(page2.totalCount).toBeGreaterThanOrEqual(5);
      const all = [];
      for await (const r of eachRecipient(p.c, { MerchantId: globex.merchantId, PageSize: 2 })) all.push(r.id);
      expect(all).toHaveLength(page2.totalCount);
      expect(new Set(all).size).toBe(all.length);
    });

    it("never lists another partner's merchants' recipients; an unlinked MerchantId is 404", async () => {
      await unwrap(rival.c.POST('/finance/v1/recipient-ach', { body: ach(outsider.merchantId, { name: 'Hidden Person' }) }));
      const everything = [];
      for await (const r of eachRecipient(partner.c)) everything.push(r);
      expect(everything.some((r) => r.name === 'Hidden Person')).toBe(false);
      expect(everything.every((r) => [acme.merchantId, globex.merchantId].includes(r.merchantId))).toBe(true);
      expect((await partner.c.GET('/finance/v1/payees', { params: { query: { MerchantId: outsider.merchantId } } })).response.status).toBe(
        404,
      );
      expect((await partner.c.GET('/finance/v1/payees', { params: { query: { PartnerId: rival.partnerId } } })).response.status).toBe(404);
    });
  });

  describe('payment requests', () => {
    let payeeId: number;
    let wirePayeeId: number;
    beforeAll(async () => {
      payeeId = (await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }))).id;
      wirePayeeId = (await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'international') }))).id;
    });
    const payment = (patch: Partial<S['PaymentRequest']> = {}): S['PaymentRequest'] => ({
      payeeId,
      amount: 1250,
      currency: 'USD',
      paymentMethodType: 'STANDARD',
      description: 'November commission',
      merchantId: acme.merchantId,
      ...patch,
    });

    it('accepts a payment (201), masks the merchant account and moves it to completed', async () => {
      const { data, response } = await partner.c.POST('/finance/v1/payment_request', {
        body: payment({ merchantAccountNumber: '987654321012', externalId: 'INV-1' }),
      });
      expect(response.status).toBe(201);
      expect(data).toMatchObject({
        payeeId,
        amount: '1250.00',
        currency: 'USD',
        status: 'created',
        route: 'ACH',
        partnerId: partner.partnerId,
        merchantId: acme.merchantId,
        merchantAccountNumber: '1012',
        externalId: 'INV-1',
        internalNote: null,
        partnerPaymentUniqueId: null,
      });
      const done = await waitForStatus(partner, data!.paymentId, 'completed');
      expect(done.statusHistory.map((h) => h.status)).toEqual(['created', 'processing', 'sent', 'completed']);
      expect(done.postDate).not.toBeNull();
      expect(done.requesterUsername).toBe(partner.clientId);
    });

    it('is idempotent on partnerPaymentUniqueId: 20 concurrent duplicates make one payment; another body is 409', async () => {
      const body = payment({ partnerPaymentUniqueId: `dup-${kind.name}`, amount: 77.5 });
      const results = await Promise.all(Array.from({ length: 20 }, () => partner.c.POST('/finance/v1/payment_request', { body })));
      const ids = new Set(results.map((r) => r.data!.paymentId));
      expect(ids.size).toBe(1);
      expect(results.filter((r) => r.response.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.response.status === 200)).toHaveLength(19);
      const conflict = await partner.c.POST('/finance/v1/payment_request', { body: { ...body, amount: 78 } });
      expect(conflict.response.status).toBe(409);
      expect(conflict.error!.type).toBe('https://payouts.example/problems/idempotency-conflict');
      const found = await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { paymentId: [...ids][0] } }));
      expect(found.totalCount).toBe(1);
    });

    it("takes the seed's INTERNATIONAL_WIR spelling and records INTERNATIONAL_WIRE", async () => {
      const made = await unwrap(
        partner.c.POST('/finance/v1/payment_request', {
          body: payment({ payeeId: wirePayeeId, paymentMethodType: 'INTERNATIONAL_WIR', currency: 'EUR', amount: 8400.5 }),
        }),
      );
      expect(made).toMatchObject({ paymentMethodType: 'INTERNATIONAL_WIRE', route: 'WIRE', amount: '8400.50' });
    });

    it.each([
      ['no paymentMethodType', { paymentMethodType: undefined }, 400, '#/paymentMethodType'],
      ['no description', { description: undefined }, 400, '#/description'],
      ['a 501-character description', { description: 'x'.repeat(501) }, 400, '#/description'],
      ['no merchantId', { merchantId: undefined }, 400, '#/merchantId'],
      ['too many decimals', { amount: 10.001 }, 422, '#/amount'],
      ['ACH in euros', { currency: 'EUR' }, 422, '#/currency'],
      ['a wire to an ACH payee', { paymentMethodType: 'DOMESTIC_WIRE' }, 422, '#/paymentMethodType'],
      ['an unknown payee', { payeeId: 999_999 }, 404, '#/payeeId'],
    ] as const)('refuses %s', async (_, patch, status, pointer) => {
      const { response, error } = await partner.c.POST('/finance/v1/payment_request', {
        body: { ...payment(), ...patch } as S['PaymentRequest'],
      });
      expect(response.status).toBe(status);
      expect(error!.errors).toContainEqual(expect.objectContaining({ pointer }));
    });

    it("refuses a payment for an unlinked merchant, or to another merchant's payee (404)", async () => {
      expect(
        (await partner.c.POST('/finance/v1/payment_request', { body: payment({ merchantId: outsider.merchantId }) })).response.status,
      ).toBe(404);
      expect(
        (await partner.c.POST('/finance/v1/payment_request', { body: payment({ merchantId: globex.merchantId }) })).response.status,
      ).toBe(404);
      expect((await rival.c.POST('/finance/v1/payment_request', { body: payment() })).response.status).toBe(404);
    });

    it('fails a payment to a sandbox failure account with its history', async () => {
      const failing = await unwrap(
        partner.c.POST('/finance/v1/recipient-ach', {
          body: ach(acme.merchantId, { ach: { ...ach(acme.merchantId).ach, accountNumber: '000111110002' } }),
        }),
      );
      const made = await unwrap(partner.c.POST('/finance/v1/payment_request', { body: payment({ payeeId: failing.id }) }));
      const failed = await waitForStatus(partner, made.paymentId, 'failed');
      expect(failed.statusHistory.map((h) => h.status)).toEqual(['created', 'processing', 'failed']);
      expect(failed.postDate).toBeNull();
    });

    it('searches payments of linked merchants only, by route, merchant and id, with paging and sorting', async () => {
      const g = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(globex.merchantId) }));
      const gp = await unwrap(
        partner.c.POST('/finance/v1/payment_request', { body: payment({ merchantId: globex.merchantId, payeeId: g.id, amount: 3 }) }),
      );
      const byMerchant = await unwrap(
        partner.c.POST('/finance/v1/partner/search_transactions', { body: { merchantId: globex.merchantId } }),
      );
      expect(byMerchant.data.map((t) => t.paymentId)).toEqual([gp.paymentId]);
      const wires = await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { route: 'WIRE' } }));
      expect(wires.data.every((t) => t.transactionType === 'WIRE')).toBe(true);
      const sorted = await unwrap(
        partner.c.POST('/finance/v1/partner/search_transactions', { body: { sortProperty: 'amount', isDescending: true, pageSize: 3 } }),
      );
      const amounts = sorted.data.map((t) => Number(t.amount));
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
      expect(sorted.totalCount).toBeGreaterThan(3);
      // The client's pager walks the same search a page at a time.
      const all = (await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { pageSize: 100 } }))).data;
      const paged = [];
      for await (const t of eachPartnerTransaction(partner.c, { pageSize: 2 })) paged.push(t.paymentId);
      expect(paged).toEqual(all.map((t) => t.paymentId));
      expect(
        (await unwrap(rival.c.POST('/finance/v1/partner/search_transactions', { body: {} }))).data.some(
          (t) => t.merchantId !== outsider.merchantId,
        ),
      ).toBe(false);
      expect(
        (await partner.c.POST('/finance/v1/partner/search_transactions', { body: { merchantId: outsider.merchantId } })).response.status,
      ).toBe(404);
    });
  });

  describe('reading payments and changing recipients', () => {
    const request = (payeeId: number): S['PaymentRequest'] => ({
      payeeId,
      amount: 10,
      currency: 'USD',
      paymentMethodType: 'STANDARD',
      description: 'read me',
      merchantId: acme.merchantId,
    });
    const pay = (payeeId: number) => unwrap(partner.c.POST('/finance/v1/payment_request', { body: request(payeeId) }));
    /** The recipient as the list shows it (the read of group C), found by its rail id. */
    const listed = async (r: { paymentNetworkRailPayeeId: string }) =>
      (await unwrap(partner.c.GET('/finance/v1/payees', { params: { query: { PaymentNetworkRailPayeeId: r.paymentNetworkRailPayeeId } } })))
        .data[0];
    const patchRecipient = (payeeId: number, body: S['RecipientUpdateRequest'], p: TestPartner = partner) =>
      p.c.PATCH('/finance/v1/payees/{payeeId}', { params: { path: { payeeId } }, body });

    it('reads a payment as the create returned it, in its current state', async () => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }));
      const { data: made, response } = await partner.c.POST('/finance/v1/payment_request', {
        body: { ...request(recipient.id), externalId: 'READ-1', merchantAccountNumber: '987654321012' },
      });
      const params = { path: { paymentId: made!.paymentId } };
      // The create names its read.
      expect(response.headers.get('location')).toBe(`/finance/v1/payment_request/${made!.paymentId}`);
      const read = await unwrap(partner.c.GET('/finance/v1/payment_request/{paymentId}', { params }));
      expect({ ...read, status: made!.status, updatedOn: made!.updatedOn }).toEqual(made);
      const done = await waitForStatus(partner, made!.paymentId, 'completed');
      const later = await unwrap(partner.c.GET('/finance/v1/payment_request/{paymentId}', { params }));
      expect(later).toEqual({ ...made, status: 'completed', updatedOn: done.updatedOn });
    });

    // A payment belongs to the partner that requested it: another partner linked to the same merchant gets 404 on it
    // wherever it names it (exactly as for a payment that does not exist), finds it in no search, and gets none of
    // its events, while the requester keeps all of it.
    it('keeps a payment from every other partner, even one linked to the same merchant', async () => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }));
      const made = await pay(recipient.id);
      await waitForStatus(partner, made.paymentId, 'completed');
      const colleague = await newPartner(service, [acme.merchantId], 'Colleague');
      const own = await unwrap(colleague.c.POST('/finance/v1/payment_request', { body: request(recipient.id) }));
      const strip = (e: unknown, id: number) => JSON.stringify(e).replaceAll(String(id), 'X');
      const fields = ({ type, title, status, detail }: Record<string, unknown>) => ({ type, title, status, detail });
      const calls = {
        'read (C)': (p: TestPartner, paymentId: number) =>
          p.c.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId } } }),
        'read (E)': (p: TestPartner, paymentId: number) =>
          p.e.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId } } }),
        cancel: (p: TestPartner, paymentId: number) =>
          p.c.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId } } }),
        return: (p: TestPartner, paymentId: number) =>
          p.c.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
            params: { path: { paymentId } },
            body: { returnCode: 'R01' },
          }),
        'notification of change': (p: TestPartner, paymentId: number) =>
          p.c.POST('/finance/v1/simulations/payment_request/{paymentId}/notification-of-change', {
            params: { path: { paymentId } },
            body: { changeCode: 'C01', correctedData: { accountNumber: '000987654321' } },
          }),
      };
      for (const [name, call] of Object.entries(calls)) {
        const foreign = await call(colleague, made.paymentId);
        const missing = await call(colleague, 999_999_999);
        expect([foreign.response.status, missing.response.status], name).toEqual([404, 404]);
        expect(strip(fields(foreign.error as never), made.paymentId), name).toEqual(strip(fields(missing.error as never), 999_999_999));
      }
      // Nothing was changed by those refusals: the requester reads it completed, without a return or a correction.
      const mine = await unwrap(
        partner.c.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId: made.paymentId } } }),
      );
      expect(mine).toMatchObject({ status: 'completed', returnCode: null, notificationOfChange: null });
      // No search of the colleague's finds it, by id or at all; its own payment it finds.
      const searchC = async (body: S['PartnerTransactionSearchRequest']) =>
        (await unwrap(colleague.c.POST('/finance/v1/partner/search_transactions', { body: { pageSize: 100, ...body } }))).data.map(
          (t) => t.paymentId,
        );
      const searchE = async (body: Record<string, unknown>) =>
        (await unwrap(colleague.e.POST('/finance/v1/search_transactions', { body: { pageSize: 100, ...body } }))).data.map(
          (t) => t.paymentId,
        );
      expect(await searchC({})).toEqual([own.paymentId]);
      expect(await searchC({ paymentId: made.paymentId })).toEqual([]);
      expect(await searchC({ merchantId: acme.merchantId })).toEqual([own.paymentId]);
      expect(await searchE({})).toEqual([own.paymentId]);
      expect(await searchE({ paymentId: String(made.paymentId) })).toEqual([]);
      expect(await searchE({ customerId: acme.merchantId })).toEqual([own.paymentId]);
      // Its events reach only the requester.
      const events = async (p: TestPartner) =>
        JSON.stringify((await unwrap(p.c.GET('/finance/v1/events', { params: { query: { PageSize: 100 } } }))).data);
      expect(await events(partner)).toContain(`"paymentId":${made.paymentId}`);
      expect(await events(colleague)).not.toContain(`"paymentId":${made.paymentId}`);
      // And the requester finds it in both searches.
      const requesterC = await unwrap(partner.c.POST('/finance/v1/partner/search_transactions', { body: { paymentId: made.paymentId } }));
      expect(requesterC.data.map((t) => t.paymentId)).toEqual([made.paymentId]);
      const requesterE = await unwrap(partner.e.POST('/finance/v1/search_transactions', { body: { paymentId: String(made.paymentId) } }));
      expect(requesterE.data.map((t) => t.paymentId)).toEqual([made.paymentId]);
    });

    it('answers a payment of an unlinked merchant exactly like one that does not exist (404)', async () => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }));
      const made = await pay(recipient.id);
      const strip = (e: unknown, id: number) => JSON.stringify(e).replaceAll(String(id), 'X');
      for (const path of ['/finance/v1/payment_request/{paymentId}', '/finance/v1/payment_request/{paymentId}/cancel'] as const) {
        const call = (p: TestPartner, paymentId: number) =>
          path.endsWith('cancel')
            ? p.c.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId } } })
            : p.c.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId } } });
        const foreign = await call(rival, made.paymentId);
        const missing = await call(rival, 999_999_999);
        expect([foreign.response.status, missing.response.status]).toEqual([404, 404]);
        const fields = ({ type, title, status, detail }: Record<string, unknown>) => ({ type, title, status, detail });
        expect(strip(fields(foreign.error as never), made.paymentId)).toEqual(strip(fields(missing.error as never), 999_999_999));
      }
      expect(
        (await unwrap(partner.c.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId: made.paymentId } } })))
          .paymentId,
      ).toBe(made.paymentId);
    });

    it('applies a notification of change: a payment made before keeps its account number, a later one pays the new', async () => {
      // The recorded account is one the sandbox refuses (invalid_account), as a NOC would follow.
      const recipient = await unwrap(
        partner.c.POST('/finance/v1/recipient-ach', {
          body: ach(acme.merchantId, { ach: { ...ach(acme.merchantId).ach, accountNumber: '000987650002' } }),
        }),
      );
      const before = await pay(recipient.id);
      const updated = await unwrap(patchRecipient(recipient.id, { ach: { accountNumber: '000123450077', bankAccountType: 'SAVINGS' } }));
      // Only what was sent changed; the echo masks the new number as the create masked the old.
      expect(updated).toEqual({ ...recipient, ach: { ...recipient.ach, accountNumber: '0077', bankAccountType: 'SAVINGS' } });
      expect(await listed(recipient)).toEqual(updated);
      const after = await pay(recipient.id);
      const [old, now] = await Promise.all([
        waitForStatus(partner, before.paymentId, 'failed'),
        waitForStatus(partner, after.paymentId, 'completed'),
      ]);
      expect([old.accountNumber, now.accountNumber]).toEqual(['0002', '0077']);
      // The full numbers: group E's search matches each payment by the number it was made with.
      const byNumber = async (accountNumber: string) =>
        (await unwrap(partner.e.POST('/finance/v1/search_transactions', { body: { accountNumber } }))).data.map((t) => t.paymentId);
      expect(await byNumber('000987650002')).toEqual([before.paymentId]);
      expect(await byNumber('000123450077')).toEqual([after.paymentId]);
    });

    it('changes contact details only as sent, and group A sees them on the same payee', async () => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }));
      const payeeBefore = await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: recipient.id } } }));
      const renamed = await unwrap(patchRecipient(recipient.id, { name: 'Maria G. Lopez', phone: '+12125550199' }));
      expect(renamed).toEqual({ ...recipient, name: 'Maria G. Lopez', phone: '+12125550199' });
      const address = {
        line1: '1 Main Street',
        city: 'Albany',
        state: 'NY',
        postalCode: '12207',
        countryCode: 'US',
        type: 'MAILING' as const,
      };
      const moved = await unwrap(patchRecipient(recipient.id, { email: 'maria@lopez.example', ach: { address } }));
      expect(moved).toEqual({ ...renamed, email: 'maria@lopez.example', ach: { ...recipient.ach, address } });
      const payeeAfter = await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: recipient.id } } }));
      expect(payeeAfter).toMatchObject({
        name: 'Maria G. Lopez',
        EmailAddress: 'maria@lopez.example',
        phoneNumber: '+12125550199',
        address: { addressLine: '1 Main Street', city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' },
        createdOn: payeeBefore.createdOn,
      });
      // An individual's phone number can be removed.
      expect((await unwrap(patchRecipient(recipient.id, { phone: null }))).phone).toBeNull();
    });

    it('changes a wire recipient: its bank, and its intermediary bank replaced whole', async () => {
      const domestic = await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'domestic') }));
      const moved = await unwrap(
        patchRecipient(domestic.id, {
          wire: {
            receiverRoutingNumber: '021000021',
            beneficiaryFIName: 'JPMorgan Chase Bank, N.A.',
            beneficiaryAccountNumber: '7700112233',
          },
        }),
      );
      expect(moved).toEqual({
        ...domestic,
        wire: {
          ...domestic.wire,
          receiverRoutingNumber: '021000021',
          beneficiaryFIName: 'JPMorgan Chase Bank, N.A.',
          beneficiaryAccountNumber: '2233',
        },
      });
      const international = await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'international') }));
      const viaChase = await unwrap(
        patchRecipient(international.id, {
          wire: { intermediaryFIIdType: 'BIC', intermediaryFIIdNumber: 'CHASUS33', intermediaryFIName: 'JPMorgan Chase Bank, N.A.' },
        }),
      );
      expect((viaChase as S['WireRecipient']).wire).toMatchObject({
        intermediaryFIIdType: 'BIC',
        intermediaryFIIdNumber: 'CHASUS33',
        intermediaryFIName: 'JPMorgan Chase Bank, N.A.',
        intermediaryFIAddress: null,
        beneficiaryIdNumber: international.wire.beneficiaryIdNumber,
      });
      expect(await listed(international)).toEqual(viaChase);
    });

    it.each([
      ['an empty body', {}, 400, '#'],
      ['a field that cannot change', { type: 'BUSINESS' }, 400, '#/type'],
      ['a malformed routing number', { ach: { routingNumber: '12' } }, 400, '#/ach/routingNumber'],
      ['an empty ach object', { ach: {} }, 400, '#/ach'],
      ['wire details for an ACH recipient', { wire: { beneficiaryFIName: 'Other Bank' } }, 422, '#/wire'],
      ['a routing number that fails the ABA checksum', { ach: { routingNumber: '021000022' } }, 422, '#/ach/routingNumber'],
    ] as const)('refuses %s and changes nothing', async (_, body, status, pointer) => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }));
      const payee = await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: recipient.id } } }));
      // Each refused change also carries a valid one, which must not be written either.
      const sent = Object.keys(body).length > 0 ? { email: 'changed@example.com', ...body } : body;
      const { response, error } = await patchRecipient(recipient.id, sent as S['RecipientUpdateRequest']);
      expect(response.status).toBe(status);
      expect(error!.errors).toContainEqual(expect.objectContaining({ pointer }));
      expect(await listed(recipient)).toEqual(recipient);
      expect(await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: recipient.id } } }))).toEqual(payee);
    });

    it.each([
      ['a BIC for a bank identified by ABA', { receiverRoutingNumber: 'DEUTDEFFXXX' }, '#/wire/receiverRoutingNumber', 422],
      [
        'a domestic wire to a bank identified by BIC',
        { beneficiaryFIIdType: 'BIC', receiverRoutingNumber: 'DEUTDEFFXXX' },
        '#/wire/beneficiaryFIIdType',
        422,
      ],
      ['an id type without its bank identifier', { beneficiaryFIIdType: 'ABA' }, '#/wire/receiverRoutingNumber', 400],
      ['part of an intermediary bank', { intermediaryFIName: 'JPMorgan Chase Bank, N.A.' }, '#/wire/intermediaryFIIdType', 400],
    ] as const)(
      'refuses %s for a domestic wire recipient (%s: the schema, or the recipient as recorded) and changes nothing',
      async (_, change, pointer, status) => {
        const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'domestic') }));
        const { response, error } = await patchRecipient(recipient.id, { wire: change as S['WireDetailsUpdate'] });
        expect(response.status).toBe(status);
        expect(error!.errors).toContainEqual(expect.objectContaining({ pointer }));
        expect(await listed(recipient)).toEqual(recipient);
      },
    );

    it('refuses a business recipient without a phone number (422)', async () => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-wire', { body: wire(acme.merchantId, 'domestic') }));
      const { response, error } = await patchRecipient(recipient.id, { phone: null });
      expect(response.status).toBe(422);
      expect(error!.errors).toEqual([expect.objectContaining({ pointer: '#/phone' })]);
      expect(await listed(recipient)).toEqual(recipient);
    });

    it("answers another partner's recipient, a counterparty and a merchant's own payee as not found (404)", async () => {
      const recipient = await unwrap(partner.c.POST('/finance/v1/recipient-ach', { body: ach(acme.merchantId) }));
      const counterparty = await unwrap(
        partner.e.POST('/finance/v1/payee', {
          body: {
            ...documentedRequest<object>('counterparty', '/finance/v1/payee', 'achIndividual'),
            merchantId: acme.merchantId,
          } as never,
        }),
      );
      const payee = await unwrap(
        acme.a.POST('/v1/payees', {
          body: {
            payeeType: 'individual',
            name: 'Own Payee',
            EmailAddress: 'own@example.com',
            address: { addressLine: '1 A St', state: 'NY', city: 'NYC', country: 'US', postalCode: '10001' },
          },
        }),
      );
      expect((await patchRecipient(recipient.id, { name: 'Stolen' }, rival)).response.status).toBe(404);
      expect((await patchRecipient(counterparty.id, { name: 'Stolen' })).response.status).toBe(404);
      expect((await patchRecipient(payee.id, { name: 'Stolen' })).response.status).toBe(404);
      expect((await patchRecipient(999_999_999, { name: 'Stolen' })).response.status).toBe(404);
      expect((await listed(recipient))!.name).toBe(recipient.name);
    });
  });
});

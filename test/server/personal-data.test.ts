// Personal data through real HTTP on each store: a payee's tax id (groups A and B), a wire recipient's
// beneficiaryIdNumber (group C, echo and list) and a counterparty's idNumber (group E) all leave the service as
// the same mask, their last 4 letters or digits, never whole; and every answer of every group, successes
// and refusals alike, carries `Cache-Control: no-store`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as clients from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import type { components as C } from '../../generated/partner/schema.js';
import type { components as E } from '../../generated/counterparty/schema.js';
import { address, individual } from '../support/merchants.js';
import { documentedRequest } from '../support/partners.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const ssn = '078-05-1120';
const beneficiaryId = 'DE-1357-9246';
const ein = '91-8642097';

describe.each(stores)('personal data on $name', (kind) => {
  const service = useService(kind, {}, { workers: false });
  let merchantId: number;
  let merchantCredentials: { client_id: string; client_secret: string };
  let a: clients.MerchantClient;
  let b: clients.PlatformClient;
  let c: clients.PartnerClient;
  let d: clients.BankingClient;
  let e: clients.CounterpartyClient;
  /** Every response body of the suite, to show no full value ever left. */
  const bodies: string[] = [];
  const recording = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    bodies.push(await response.clone().text());
    return response;
  };

  beforeAll(async () => {
    const merchant = await service.services.credentials.createMerchant('Acme');
    const partner = await service.services.credentials.createPartner('Partner');
    await service.services.credentials.link(partner.partnerId, merchant.merchantId);
    merchantId = merchant.merchantId;
    merchantCredentials = { client_id: merchant.clientId, client_secret: merchant.clientSecret };
    const as = (who: { clientId: string; clientSecret: string }) => ({ baseUrl: service.baseUrl, credentials: who, fetch: recording });
    const asMerchant = as({ clientId: merchant.clientId, clientSecret: merchant.clientSecret });
    const asPartner = as({ clientId: partner.clientId, clientSecret: partner.clientSecret });
    a = clients.createMerchantClient(asMerchant);
    b = clients.createPlatformClient({ ...asMerchant, baseUrl: `${service.baseUrl}/payouts`, authUrl: service.baseUrl });
    d = clients.createBankingClient(asMerchant);
    c = clients.createPartnerClient(asPartner);
    e = clients.createCounterpartyClient(asPartner);
  });
  afterAll(async () => {
    expect(bodies.length).toBeGreaterThan(20);
    for (const value of [ssn, ssn.replace(/-/g, ''), beneficiaryId, ein, ein.replace(/-/g, '')]) {
      expect(
        bodies.filter((b) => b.includes(value)),
        value,
      ).toEqual([]);
    }
  });

  /** The data of a success, which must also forbid caching. */
  const kept = async <T extends { data?: unknown; error?: unknown; response: Response }>(answer: Promise<T>) => {
    const r = await answer;
    expect(r.response.headers.get('cache-control')).toBe('no-store');
    return unwrap(r);
  };

  it("groups A and B return a payee's tax id (an SSN here) as its last 4, on every read and write", async () => {
    const created = await kept(a.POST('/v1/payees', { body: { ...individual, taxId: ssn, idType: 'SSN' } }));
    expect(created.taxId).toBe('1120');
    const id = created.id;
    expect((await kept(a.GET('/v1/payees/{id}', { params: { path: { id } } }))).taxId).toBe('1120');
    expect((await kept(b.GET('/v1/payees/{id}', { params: { path: { id } } }))).taxId).toBe('1120');
    const updated = await kept(a.PATCH('/v1/payees/{id}', { params: { path: { id } }, body: { name: 'Maria G. Gonzalez', address } }));
    expect(updated.taxId).toBe('1120');
    // The list filter matches the whole value the service keeps; the answer still shows the mask.
    const found = await kept(a.POST('/v1/payees/list', { body: { taxId: ssn } }));
    expect(found.map((p) => [p.id, p.taxId])).toEqual([[id, '1120']]);
    expect((await kept(b.POST('/v1/payees/list', { body: { taxId: ssn } }))).map((p) => p.taxId)).toEqual(['1120']);
    const viaB = await kept(b.POST('/v1/payees/Create', { body: { ...individual, taxId: ssn } }));
    expect(viaB.taxId).toBe('1120');
  });

  it("group C returns a wire recipient's beneficiaryIdNumber as its last 4, in the echo and the recipient list", async () => {
    const body = { ...documentedRequest<C['schemas']['WireRecipientRequest']>('partner', '/finance/v1/recipient-wire', 'international') };
    delete body.partnerId;
    const request = { ...body, merchantId, wire: { ...body.wire, beneficiaryIdNumber: beneficiaryId } };
    const created = await kept(c.POST('/finance/v1/recipient-wire', { body: request }));
    expect(created.wire.beneficiaryIdNumber).toBe('9246');
    const query = { PaymentNetworkRailPayeeId: created.paymentNetworkRailPayeeId };
    const listed = await kept(c.GET('/finance/v1/payees', { params: { query } }));
    expect(listed.data.map((r) => ('wire' in r ? r.wire.beneficiaryIdNumber : undefined))).toEqual(['9246']);
  });

  it("group E masks a business counterparty's idNumber exactly as group A masks the same value as its taxId", async () => {
    const example = documentedRequest<E['schemas']['CounterpartyCreateRequest']>('counterparty', '/finance/v1/payee', 'wireBusiness');
    delete example.businessId;
    const created = await kept(e.POST('/finance/v1/payee', { body: { ...example, merchantId: merchantId, idNumber: ein } }));
    expect(created.idNumber).toBe('2097');
    const asPayee = await kept(a.GET('/v1/payees/{id}', { params: { path: { id: created.id } } }));
    expect(asPayee.taxId).toBe(created.idNumber);
  });

  const tokenAnswer = () =>
    fetch(`${service.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...merchantCredentials, grant_type: 'client_credentials' }),
    });
  const merchantToken = async () => ((await (await tokenAnswer()).json()) as { access_token: string }).access_token;

  it('every answer carries Cache-Control: no-store: successes, refusals and token responses of every group', async () => {
    const usAddress = { line1: '1 Main St', line2: null, city: 'Chicago', state: 'IL', postalCode: '60606', countryCode: 'US' };
    const businessBody = {
      ...{ legalName: 'Northwind LLC', entityType: 'LLC' as const, taxId: '12-3456780', formationDate: '2019-03-14' },
      ...{ incorporationCountry: 'US', incorporationState: 'DE', address: usAddress, phone: '+13125550198', email: 'ap@northwind.example' },
    };
    const business = await d.POST('/finance/api/v1/business', { body: businessBody });
    const raw = (path: string, token?: string) =>
      fetch(`${service.baseUrl}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {}).then((response) => ({ response }));
    const answers: [string, Promise<{ response: Response }>][] = [
      ['A 201', a.POST('/v1/payees', { body: individual })],
      ['A 200 list', a.GET('/v1/webhooks')],
      ['A 404', a.GET('/v1/payees/{id}', { params: { path: { id: 987_654 } } })],
      ['A 400', a.POST('/v1/payees', { body: { ...individual, name: '' } })],
      ['B 200', b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'US', currency: 'USD', rail: 'ACH', amount: 250 } })],
      ['B 422', b.POST('/v1/payouts', { body: { PayeeId: 987_654, Amount: 1.001, Currency: 'USD' } })],
      ['C 200', c.GET('/finance/v1/partner/list', {})],
      ['C 404', c.GET('/finance/v1/payees', { params: { query: { MerchantId: 987_654 } } })],
      ['D 201', Promise.resolve(business)],
      ['D 200', d.GET('/finance/api/v1/business/{id}', { params: { path: { id: business.data!.id } } })],
      ['C 403 to a merchant token', merchantToken().then((token) => raw('/finance/v1/partner/list', token))],
      ['E 200', e.POST('/finance/v1/search_transactions', { body: {} })],
      ['401 without a token', raw('/v1/webhooks')],
      ['404 unknown path', raw('/v1/nothing-here')],
      ['token', tokenAnswer().then((response) => ({ response }))],
    ];
    const seen: Record<string, [number, string | null]> = {};
    for (const [name, answer] of answers) {
      const { response } = await answer;
      seen[name] = [response.status, response.headers.get('cache-control')];
    }
    expect(Object.values(seen).map(([, header]) => header)).toEqual(answers.map(() => 'no-store'));
    expect(new Set(Object.values(seen).map(([status]) => status))).toEqual(new Set([200, 201, 400, 401, 403, 404, 422]));
  });
});

// The banking API (group D) over real HTTP with the generated client, on each store: token issuance,
// businesses, identity verifications and their life cycle, counterparties, accounts and balances, every
// rule and documented error of each operation, ownership across merchants and the refusal of partner tokens.
// Money movement has its own suites (banking-transfers, banking-ledger); idempotency is in idempotency.test.ts.
import type { components } from '../../generated/banking/schema.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBankingClient, type BankingClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { bankingHandlers } from '../../server/http/groups/banking/handlers.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const problems = 'https://payouts.example/problems/';

let taxIds = 0;
/** A fresh EIN per call, ending in `last4` (which decides the sandbox's business verification). */
const ein = (last4 = '5678') => {
  taxIds += 1;
  return `${String(10 + (taxIds % 89)).padStart(2, '0')}-${String(taxIds).padStart(3, '0')}${last4}`;
};

const address = {
  line1: '233 South Wacker Drive',
  line2: 'Suite 8400',
  city: 'Chicago',
  state: 'IL',
  postalCode: '60606',
  countryCode: 'US',
};
const businessBody = (taxId = ein()) => ({
  legalName: 'Northwind Logistics LLC',
  dbaName: 'Northwind Freight',
  entityType: 'LLC' as const,
  taxId,
  formationDate: '2019-03-14',
  incorporationCountry: 'US',
  incorporationState: 'DE',
  address,
  phone: '+13125550198',
  email: 'treasury@northwind.example',
  website: 'https://northwind.example',
});
const usPerson = (lastName = 'Whitfield', taxId = '123-45-6789') => ({
  firstName: 'Dana',
  lastName,
  dateOfBirth: '1981-07-22',
  email: 'dana.whitfield@northwind.example',
  phone: '+13125550171',
  address: { line1: '1417 West Belden Avenue', line2: null, city: 'Chicago', state: 'IL', postalCode: '60614', countryCode: 'US' },
  taxId,
  roles: ['BENEFICIAL_OWNER' as const, 'CONTROL_PERSON' as const],
  ownershipPercentage: 60,
});
type CounterpartyBody = components['schemas']['CounterpartyCreateRequest'];
const achCounterparty = (businessId: number): CounterpartyBody => ({
  businessId,
  name: 'Acme Supplies Inc.',
  type: 'BUSINESS',
  email: 'ar@acme-supplies.example',
  phone: '+12125550111',
  address: { line1: '350 Fifth Avenue', line2: 'Floor 21', city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' },
  ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
});
const domesticWireCounterparty = (businessId: number): CounterpartyBody => ({
  businessId,
  name: 'Harbor Freight Partners LLC',
  type: 'BUSINESS',
  address: { line1: '100 North Tryon Street', line2: null, city: 'Charlotte', state: 'NC', postalCode: '28255', countryCode: 'US' },
  wire: {
    bankIdType: 'ABA',
    bankId: '026009593',
    accountNumber: '4455667788',
    bankName: 'Bank of America, N.A.',
    bankAddress: null,
    intermediaryBank: null,
  },
});
const internationalWireCounterparty = (businessId: number, accountNumber = 'DE89370400440532013000'): CounterpartyBody => ({
  businessId,
  name: 'Mueller Maschinenbau GmbH',
  type: 'BUSINESS',
  address: {
    line1: 'Hanauer Landstrasse 182',
    line2: null,
    city: 'Frankfurt am Main',
    state: null,
    postalCode: '60314',
    countryCode: 'DE',
  },
  wire: {
    bankIdType: 'BIC',
    bankId: 'COBADEFFXXX',
    accountNumber,
    bankName: 'Commerzbank AG',
    bankAddress: { line1: 'Kaiserplatz', line2: null, city: 'Frankfurt am Main', state: null, postalCode: '60311', countryCode: 'DE' },
    intermediaryBank: { bankIdType: 'BIC', bankId: 'CHASUS33XXX', bankName: 'JPMorgan Chase Bank, N.A.' },
  },
});

describe.each(stores)('banking API on $name', (kind) => {
  const service = useService(kind);
  let acme: BankingClient;
  let other: BankingClient;
  let credentials: { clientId: string; clientSecret: string };

  const bankingClient = async (name: string) => {
    const c = await service.services.credentials.createMerchant(name);
    return {
      client: createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: c.clientId, clientSecret: c.clientSecret } }),
      credentials: c,
    };
  };
  const createBusiness = (c: BankingClient, taxId?: string) => unwrap(c.POST('/finance/api/v1/business', { body: businessBody(taxId) }));
  const verifyBusiness = (c: BankingClient, businessId: number) =>
    unwrap(c.POST('/finance/api/v1/identity-verification', { body: { businessId, subject: 'BUSINESS' } }));
  const verifiedBusiness = async (c: BankingClient) => {
    const business = await createBusiness(c);
    await verifyBusiness(c, business.id);
    return business;
  };
  const setBusinessStatus = (id: number, status: 'active' | 'suspended' | 'closed') =>
    service.services.store.db.updateTable('banking_businesses').set({ status }).where('id', '=', id).execute();

  beforeAll(async () => {
    const first = await bankingClient('Acme');
    acme = first.client;
    credentials = first.credentials;
    other = (await bankingClient('Other')).client;
  });

  describe('tokens and callers', () => {
    it("issues a merchant token at /oauth/token, and D's own issueToken handler issues the same kind of token", async () => {
      const { data, response } = await acme.POST('/oauth/token', {
        body: { client_id: credentials.clientId, client_secret: credentials.clientSecret, grant_type: 'client_credentials' },
      });
      expect(response.status).toBe(200);
      expect(data).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      const context = { principal: undefined, ip: '127.0.0.9', requestId: 'req_test' };
      const handlers = bankingHandlers(service.services);
      const issued = await handlers.issueToken({
        params: {},
        query: {},
        headers: {},
        context,
        body: { client_id: credentials.clientId, client_secret: credentials.clientSecret, grant_type: 'client_credentials' },
      });
      expect(issued.status).toBe(200);
      expect(issued.headers).toMatchObject({ 'Cache-Control': 'no-store' });
      expect(await service.services.tokens.verify(`Bearer ${issued.body.access_token}`)).toMatchObject({ kind: 'merchant' });
      await expect(
        handlers.issueToken({
          params: {},
          query: {},
          headers: {},
          context,
          body: { client_id: credentials.clientId, client_secret: 'sk_wrong', grant_type: 'client_credentials' },
        }),
      ).rejects.toMatchObject({ kind: 'invalid-client', status: 401 });
      const wrong = await acme.POST('/oauth/token', {
        body: { client_id: credentials.clientId, client_secret: 'sk_wrong', grant_type: 'client_credentials' },
      });
      expect(wrong.response.status).toBe(401);
    });

    it('refuses a partner token with 403 on every kind of operation, and no token with 401', async () => {
      const token = await service.services.tokens.issue({ kind: 'partner', partnerId: 1 });
      const partner = createBankingClient({ baseUrl: service.baseUrl, token: token.access_token });
      const business = await createBusiness(acme);
      const calls = [
        partner.POST('/finance/api/v1/business', { body: businessBody() }),
        partner.GET('/finance/api/v1/business/{id}', { params: { path: { id: business.id } } }),
        partner.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }),
        partner.POST('/finance/api/v1/counterparty', { body: achCounterparty(business.id) }),
        partner.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: business.id } }, body: {} }),
        partner.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: 1 } } }),
        partner.POST('/finance/api/v1/transaction/ach/pull', { body: { accountId: 1, counterpartyId: 1, amount: 5, currency: 'USD' } }),
        partner.POST('/finance/api/v1/transaction/ach/push', { body: { accountId: 1, counterpartyId: 1, amount: 5, currency: 'USD' } }),
        partner.POST('/finance/api/v1/transaction/wire/domestic', {
          body: { accountId: 1, counterpartyId: 1, amount: 5, currency: 'USD' },
        }),
        partner.POST('/finance/api/v1/transaction/wire/international', {
          body: { accountId: 1, counterpartyId: 1, amount: 5, currency: 'USD', purposeOfPayment: 'GOODS' },
        }),
        partner.POST('/finance/api/v1/transaction/internal/transfer', {
          body: { accountId: 1, toAccountId: 2, amount: 5, currency: 'USD' },
        }),
      ];
      for (const { response, error } of await Promise.all(calls)) {
        expect(response.status).toBe(403);
        expect(error).toMatchObject({ type: `${problems}forbidden` });
      }
      const anonymous = await fetch(`${service.baseUrl}/finance/api/v1/business/${business.id}`);
      expect(anonymous.status).toBe(401);
    });
  });

  describe('businesses', () => {
    it('creates a business (201, active, unverified, Location) and reads it back', async () => {
      const body = businessBody();
      const { data, response } = await acme.POST('/finance/api/v1/business', { body });
      expect(response.status).toBe(201);
      expect(data).toEqual({
        ...body,
        id: expect.any(Number),
        status: 'active',
        verificationStatus: 'unverified',
        createdOn: expect.stringMatching(/Z$/),
        updatedOn: data!.createdOn,
        metadata: {},
      });
      expect(response.headers.get('location')).toBe(`/finance/api/v1/business/${data!.id}`);
      const read = await unwrap(acme.GET('/finance/api/v1/business/{id}', { params: { path: { id: data!.id } } }));
      expect(read).toEqual(data);
    });

    it('defaults the optional fields to null', async () => {
      const { dbaName: _d, website: _w, ...required } = businessBody();
      const business = await unwrap(acme.POST('/finance/api/v1/business', { body: required }));
      expect(business).toMatchObject({ dbaName: null, website: null });
    });

    it('refuses a second business with the same tax id for the merchant (409), with or without the dash; another merchant may use it', async () => {
      const taxId = ein();
      await createBusiness(acme, taxId);
      for (const again of [taxId, taxId.replace('-', '')]) {
        const { response, error } = await acme.POST('/finance/api/v1/business', { body: businessBody(again) });
        expect(response.status).toBe(409);
        expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/taxId' }));
      }
      expect((await other.POST('/finance/api/v1/business', { body: businessBody(taxId) })).response.status).toBe(201);
    });

    it('lets one of 10 concurrent creations with one tax id through; the others get 409, not 500', async () => {
      const body = businessBody();
      const results = await Promise.all(Array.from({ length: 10 }, () => acme.POST('/finance/api/v1/business', { body })));
      expect(results.map((r) => r.response.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    });

    it('refuses a formation date in the future (422) and a US business without EIN or state (400)', async () => {
      const future = await acme.POST('/finance/api/v1/business', { body: { ...businessBody(), formationDate: '2999-01-01' } });
      expect(future.response.status).toBe(422);
      expect(future.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/formationDate' }));
      const noState = await acme.POST('/finance/api/v1/business', { body: { ...businessBody(), incorporationState: null } });
      expect(noState.response.status).toBe(400);
      const notEin = await acme.POST('/finance/api/v1/business', { body: { ...businessBody(), taxId: 'ABC-123' } });
      expect(notEin.response.status).toBe(400);
      const foreign = await unwrap(
        acme.POST('/finance/api/v1/business', {
          body: {
            ...businessBody('HRB 86891'),
            incorporationCountry: 'DE',
            incorporationState: null,
            address: { line1: 'Kaiserplatz', city: 'Frankfurt am Main', postalCode: '60311', countryCode: 'DE' },
          },
        }),
      );
      expect(foreign).toMatchObject({ taxId: 'HRB 86891', incorporationState: null });
    });

    it("answers 404 for a missing business and for another merchant's, alike", async () => {
      const theirs = await createBusiness(other);
      for (const id of [theirs.id, 2_000_000_000]) {
        const { response, error } = await acme.GET('/finance/api/v1/business/{id}', { params: { path: { id } } });
        expect(response.status).toBe(404);
        expect(error!.type).toBe(`${problems}not-found`);
      }
    });
  });

  describe('identity verifications', () => {
    const businessStatus = async (id: number) =>
      (await unwrap(acme.GET('/finance/api/v1/business/{id}', { params: { path: { id } } }))).verificationStatus;

    it('approves a business at once in the sandbox and the business becomes approved', async () => {
      const business = await createBusiness(acme);
      const { data, response } = await acme.POST('/finance/api/v1/identity-verification', {
        body: { businessId: business.id, subject: 'BUSINESS' },
      });
      expect(response.status).toBe(201);
      expect(data).toEqual({
        id: expect.any(Number),
        businessId: business.id,
        subject: 'BUSINESS',
        person: null,
        status: 'approved',
        reasons: [],
        createdOn: expect.any(String),
        updatedOn: data!.createdOn,
        decidedOn: data!.createdOn,
      });
      expect(response.headers.get('location')).toBe(`/finance/api/v1/identity-verification/${data!.id}`);
      const after = await unwrap(acme.GET('/finance/api/v1/business/{id}', { params: { path: { id: business.id } } }));
      expect(after.verificationStatus).toBe('approved');
      expect(Date.parse(after.updatedOn)).toBeGreaterThanOrEqual(Date.parse(business.updatedOn));
    });

    it.each([
      ['0000', 'rejected', [{ code: 'tax_id_mismatch', message: expect.any(String) }]],
      ['1111', 'needs_review', [{ code: 'watchlist_potential_match', message: expect.any(String) }]],
      ['2222', 'pending', []],
      ['5678', 'approved', []],
    ] as const)('decides a business whose EIN ends in %s as %s', async (last4, status, reasons) => {
      const business = await createBusiness(acme, ein(last4));
      const verification = await verifyBusiness(acme, business.id);
      expect(verification).toMatchObject({ status, reasons });
      expect(verification.decidedOn === null).toBe(status === 'pending' || status === 'needs_review');
      expect(await businessStatus(business.id)).toBe(status);
    });

    it.each([
      ['Reject', 'rejected', 'watchlist_match'],
      ['REVIEW', 'needs_review', 'watchlist_potential_match'],
      ['pending', 'pending', undefined],
      ['Whitfield', 'approved', undefined],
    ] as const)('decides a person named %s as %s, returning no tax id or birth date', async (lastName, status, code) => {
      const business = await createBusiness(acme);
      const verification = await unwrap(
        acme.POST('/finance/api/v1/identity-verification', {
          body: { businessId: business.id, subject: 'PERSON', person: usPerson(lastName) },
        }),
      );
      expect(verification).toMatchObject({
        subject: 'PERSON',
        status,
        person: { firstName: 'Dana', lastName, roles: ['BENEFICIAL_OWNER', 'CONTROL_PERSON'], ownershipPercentage: 60 },
      });
      expect(verification.reasons.map((r) => r.code)).toEqual(code ? [code] : []);
      expect(JSON.stringify(verification)).not.toMatch(/6789|1981/);
      // People alone never make the business approved: its own check is missing.
      expect(await businessStatus(business.id)).toBe(status === 'approved' ? 'unverified' : status);
    });

    it('combines the verifications: rejected over needs_review over pending over approved', async () => {
      const business = await createBusiness(acme, ein('2222'));
      await verifyBusiness(acme, business.id);
      expect(await businessStatus(business.id)).toBe('pending');
      const person = (lastName: string, taxId: string) =>
        unwrap(
          acme.POST('/finance/api/v1/identity-verification', {
            body: { businessId: business.id, subject: 'PERSON', person: usPerson(lastName, taxId) },
          }),
        );
      await person('Review', '111-22-3333');
      expect(await businessStatus(business.id)).toBe('needs_review');
      await person('Reject', '111-22-4444');
      expect(await businessStatus(business.id)).toBe('rejected');
    });

    it('follows the life cycle: needs_review → approved by the back office, then final (409 on another change)', async () => {
      const business = await createBusiness(acme, ein('1111'));
      const review = await verifyBusiness(acme, business.id);
      expect(review.status).toBe('needs_review');
      const approved = await service.services.banking.verifications.decide(review.id, 'approved');
      expect(approved).toMatchObject({ status: 'approved', reasons: [], decidedOn: expect.any(String) });
      expect(await businessStatus(business.id)).toBe('approved');
      await expect(service.services.banking.verifications.decide(review.id, 'rejected')).rejects.toMatchObject({ status: 409 });
      await expect(service.services.banking.verifications.decide(review.id, 'needs_review')).rejects.toMatchObject({ status: 409 });
    });

    it('refuses a second verification of the same subject while one is running (409), not once it is decided', async () => {
      const business = await createBusiness(acme, ein('2222'));
      await verifyBusiness(acme, business.id);
      const again = await acme.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } });
      expect(again.response.status).toBe(409);
      const person = { businessId: business.id, subject: 'PERSON' as const, person: usPerson('Pending', '222-33-4444') };
      await unwrap(acme.POST('/finance/api/v1/identity-verification', { body: person }));
      // The same person (same SSN, written without dashes) is refused; another person is not.
      const samePerson = await acme.POST('/finance/api/v1/identity-verification', {
        body: { ...person, person: { ...person.person, lastName: 'Whitfield', taxId: '222334444' } },
      });
      expect(samePerson.response.status).toBe(409);
      expect(
        (await acme.POST('/finance/api/v1/identity-verification', { body: { ...person, person: usPerson('Whitfield', '222-33-5555') } }))
          .response.status,
      ).toBe(201);
      // Approved is final: a new check of an approved business may run.
      const approved = await createBusiness(acme);
      await verifyBusiness(acme, approved.id);
      expect(
        (await acme.POST('/finance/api/v1/identity-verification', { body: { businessId: approved.id, subject: 'BUSINESS' } })).response
          .status,
      ).toBe(201);
    });

    it('runs one of 10 concurrent verifications of a business; the others get 409', async () => {
      const business = await createBusiness(acme, ein('2222'));
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          acme.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }),
        ),
      );
      expect(results.map((r) => r.response.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    });

    it('verifies a foreign owner by identity document', async () => {
      const business = await createBusiness(acme);
      const person = {
        firstName: 'Jonas',
        lastName: 'Review',
        dateOfBirth: '1979-02-03',
        address: { line1: 'Schillerstrasse 12', line2: null, city: 'Munich', state: null, postalCode: '80336', countryCode: 'DE' },
        idDocument: { type: 'PASSPORT' as const, number: 'C01X00T47', issuingCountry: 'DE', expirationDate: '2031-05-19' },
        roles: ['BENEFICIAL_OWNER' as const],
        ownershipPercentage: 40,
      };
      const verification = await unwrap(
        acme.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'PERSON', person } }),
      );
      expect(verification).toMatchObject({
        status: 'needs_review',
        person: { firstName: 'Jonas', lastName: 'Review', roles: ['BENEFICIAL_OWNER'], ownershipPercentage: 40 },
      });
      expect(JSON.stringify(verification)).not.toContain('C01X00T47');
      const stored = await service.services.store.db
        .selectFrom('banking_verifications')
        .selectAll()
        .where('id', '=', verification.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toContain('C01X00T47');
      const expired = await acme.POST('/finance/api/v1/identity-verification', {
        body: {
          businessId: business.id,
          subject: 'PERSON',
          person: { ...person, lastName: 'Other', idDocument: { ...person.idDocument, number: 'X1', expirationDate: '2001-01-01' } },
        },
      });
      expect(expired.response.status).toBe(422);
    });

    it('refuses a PERSON without a person, a BUSINESS with one, a missing tax id and a low owner share (400)', async () => {
      const business = await createBusiness(acme);
      const cases = [
        { businessId: business.id, subject: 'PERSON' },
        { businessId: business.id, subject: 'BUSINESS', person: usPerson() },
        { businessId: business.id, subject: 'PERSON', person: { ...usPerson(), taxId: undefined } },
        { businessId: business.id, subject: 'PERSON', person: { ...usPerson(), ownershipPercentage: 10 } },
      ];
      for (const body of cases)
        expect((await acme.POST('/finance/api/v1/identity-verification', { body: body as never })).response.status).toBe(400);
    });

    it("refuses a person under 18 (422), a suspended business (422) and another merchant's business (404)", async () => {
      const business = await createBusiness(acme);
      const young = new Date(Date.now() - 10 * 365 * 86_400_000).toISOString().slice(0, 10);
      const minor = await acme.POST('/finance/api/v1/identity-verification', {
        body: { businessId: business.id, subject: 'PERSON', person: { ...usPerson(), dateOfBirth: young } },
      });
      expect(minor.response.status).toBe(422);
      expect(minor.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/person/dateOfBirth' }));
      await setBusinessStatus(business.id, 'suspended');
      const suspended = await acme.POST('/finance/api/v1/identity-verification', {
        body: { businessId: business.id, subject: 'BUSINESS' },
      });
      expect(suspended.response.status).toBe(422);
      const theirs = await createBusiness(other);
      const foreign = await acme.POST('/finance/api/v1/identity-verification', { body: { businessId: theirs.id, subject: 'BUSINESS' } });
      expect(foreign.response.status).toBe(404);
      expect(foreign.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/businessId' }));
    });
  });

  describe('counterparties', () => {
    it('creates ACH, domestic wire and international wire counterparties, showing only last 4 characters', async () => {
      const business = await createBusiness(acme);
      const { data, response } = await acme.POST('/finance/api/v1/counterparty', { body: achCounterparty(business.id) });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(`/finance/api/v1/counterparty/${data!.id}`);
      expect(data).toEqual({
        ...achCounterparty(business.id),
        id: expect.any(Number),
        ach: { routingNumber: '021000021', accountNumber: '6789', accountType: 'CHECKING' },
        wire: null,
        createdOn: expect.any(String),
      });
      const domestic = await unwrap(acme.POST('/finance/api/v1/counterparty', { body: domesticWireCounterparty(business.id) }));
      expect(domestic).toMatchObject({
        email: null,
        phone: null,
        ach: null,
        wire: { bankIdType: 'ABA', bankId: '026009593', accountNumber: '7788', bankAddress: null, intermediaryBank: null },
      });
      const international = await unwrap(acme.POST('/finance/api/v1/counterparty', { body: internationalWireCounterparty(business.id) }));
      expect(international.wire).toMatchObject({
        bankIdType: 'BIC',
        accountNumber: '3000',
        bankAddress: { city: 'Frankfurt am Main' },
        intermediaryBank: { bankId: 'CHASUS33XXX' },
      });
      expect(JSON.stringify(international)).not.toContain('DE89370400440532013000');
      const both = await unwrap(
        acme.POST('/finance/api/v1/counterparty', {
          body: { ...achCounterparty(business.id), wire: domesticWireCounterparty(business.id).wire },
        }),
      );
      expect(both.ach).not.toBeNull();
      expect(both.wire).not.toBeNull();
    });

    it('refuses unknown banks (422): a wrong ABA check digit, a wrong IBAN, an IBAN country paid without an IBAN', async () => {
      const business = await createBusiness(acme);
      const badAch: CounterpartyBody = {
        ...achCounterparty(business.id),
        ach: { ...achCounterparty(business.id).ach!, routingNumber: '021000022' },
      };
      const domestic = domesticWireCounterparty(business.id);
      const badAba: CounterpartyBody = { ...domestic, wire: { ...domestic.wire!, bankId: '026009594' } };
      const cases: [CounterpartyBody, string][] = [
        [badAch, '#/ach/routingNumber'],
        [badAba, '#/wire/bankId'],
        [internationalWireCounterparty(business.id, 'DE89370400440532013001'), '#/wire/accountNumber'],
        [internationalWireCounterparty(business.id, '0532013000'), '#/wire/accountNumber'],
      ];
      for (const [body, pointer] of cases) {
        const { response, error } = await acme.POST('/finance/api/v1/counterparty', { body });
        expect(response.status).toBe(422);
        expect(error!.errors).toContainEqual(expect.objectContaining({ pointer }));
      }
    });

    it('refuses a counterparty without ach or wire, and a wire one without address (400)', async () => {
      const business = await createBusiness(acme);
      const { ach: _a, ...bare } = achCounterparty(business.id);
      expect((await acme.POST('/finance/api/v1/counterparty', { body: bare })).response.status).toBe(400);
      const { address: _ad, ...homeless } = domesticWireCounterparty(business.id);
      expect((await acme.POST('/finance/api/v1/counterparty', { body: homeless })).response.status).toBe(400);
    });

    it("answers 404 for another merchant's business and 422 for a suspended one; needs no verification", async () => {
      const theirs = await createBusiness(other);
      const foreign = await acme.POST('/finance/api/v1/counterparty', { body: achCounterparty(theirs.id) });
      expect(foreign.response.status).toBe(404);
      const business = await createBusiness(acme);
      expect((await acme.POST('/finance/api/v1/counterparty', { body: achCounterparty(business.id) })).response.status).toBe(201);
      await setBusinessStatus(business.id, 'suspended');
      expect((await acme.POST('/finance/api/v1/counterparty', { body: achCounterparty(business.id) })).response.status).toBe(422);
    });
  });

  describe('accounts and balances', () => {
    const open = (c: BankingClient, businessId: number, body: Record<string, unknown> = {}) =>
      c.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId } }, body });

    it('opens a default checking account for an approved business: masked number, zero balance, Location of the account', async () => {
      const business = await verifiedBusiness(acme);
      const { data, response } = await open(acme, business.id);
      expect(response.status).toBe(201);
      expect(data).toEqual({
        id: expect.any(Number),
        businessId: business.id,
        accountName: 'Northwind Logistics LLC Checking',
        accountType: 'CHECKING',
        accountNumber: expect.stringMatching(/^[0-9]{4}$/),
        routingNumber: '084101022',
        fundingAccountId: null,
        currency: 'USD',
        status: 'active',
        balance: { accountId: data!.id, currency: 'USD', available: '0.00', ledger: '0.00', asOf: expect.any(String) },
        createdOn: expect.any(String),
        updatedOn: data!.createdOn,
      });
      expect(response.headers.get('location')).toBe(`/finance/api/v1/business/${business.id}/accounts/${data!.id}`);
      const stored = await service.services.store.db
        .selectFrom('banking_accounts')
        .select('account_number')
        .where('id', '=', data!.id)
        .executeTakeFirstOrThrow();
      expect(stored.account_number).toMatch(/^[1-9][0-9]{11}$/);
      expect(stored.account_number.slice(-4)).toBe(data!.accountNumber);
      const balance = await acme.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: data!.id } } });
      expect(balance.response.status).toBe(200);
      expect(balance.data).toEqual({ accountId: data!.id, currency: 'USD', available: '0.00', ledger: '0.00', asOf: expect.any(String) });
    });

    it('opens a named savings account with a preset number and a funding account; a taken preset number is a 409', async () => {
      const business = await verifiedBusiness(acme);
      const preset = `8842${String(Date.now()).slice(-8)}`;
      const operating = await unwrap(
        open(acme, business.id, {
          accountName: 'Operating',
          accountType: 'CHECKING',
          presetAccountNumber: preset,
          fundingAccountNumber: null,
        }),
      );
      expect(operating).toMatchObject({ accountName: 'Operating', accountNumber: preset.slice(-4), fundingAccountId: null });
      const reserve = await unwrap(
        open(acme, business.id, { accountName: 'Tax reserve', accountType: 'SAVINGS', fundingAccountNumber: preset }),
      );
      expect(reserve).toMatchObject({ accountName: 'Tax reserve', accountType: 'SAVINGS', fundingAccountId: operating.id });
      const savings = await unwrap(open(acme, business.id, { accountType: 'SAVINGS', accountName: null }));
      expect(savings.accountName).toBe('Northwind Logistics LLC Savings');
      const taken = await open(acme, business.id, { presetAccountNumber: preset });
      expect(taken.response.status).toBe(409);
      expect(taken.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/presetAccountNumber' }));
      // Unique across the bank, not per merchant.
      const theirs = await verifiedBusiness(other);
      expect((await open(other, theirs.id, { presetAccountNumber: preset })).response.status).toBe(409);
    });

    it('gives a preset number to one of 10 concurrent openings; the others get 409, not 500', async () => {
      const business = await verifiedBusiness(acme);
      const preset = `6610${String(Date.now()).slice(-8)}`;
      const results = await Promise.all(Array.from({ length: 10 }, () => open(acme, business.id, { presetAccountNumber: preset })));
      expect(results.map((r) => r.response.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    });

    it('refuses a funding account number that is not an active account of the same business (422)', async () => {
      const business = await verifiedBusiness(acme);
      const otherBusiness = await verifiedBusiness(acme);
      const preset = `7731${String(Date.now()).slice(-8)}`;
      await unwrap(open(acme, otherBusiness.id, { presetAccountNumber: preset }));
      for (const fundingAccountNumber of [preset, '999999999999']) {
        const { response, error } = await open(acme, business.id, { fundingAccountNumber });
        expect(response.status).toBe(422);
        expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/fundingAccountNumber' }));
      }
    });

    it("refuses a business that is not approved or not active (422), another merchant's (404), and a bad number (400)", async () => {
      const unverified = await createBusiness(acme);
      const refused = await open(acme, unverified.id);
      expect(refused.response.status).toBe(422);
      const pending = await createBusiness(acme, ein('2222'));
      await verifyBusiness(acme, pending.id);
      expect((await open(acme, pending.id)).response.status).toBe(422);
      const suspended = await verifiedBusiness(acme);
      await setBusinessStatus(suspended.id, 'suspended');
      expect((await open(acme, suspended.id)).response.status).toBe(422);
      const theirs = await verifiedBusiness(other);
      const foreign = await open(acme, theirs.id);
      expect(foreign.response.status).toBe(404);
      expect(foreign.error!.errors).toContainEqual(expect.objectContaining({ parameter: 'businessId' }));
      expect((await open(acme, theirs.id, { presetAccountNumber: '12345' })).response.status).toBe(400);
      expect((await open(acme, theirs.id, { iban: 'x' })).response.status).toBe(400);
    });

    it("answers 404 for another merchant's account balance and a missing one; a closed account reads zero", async () => {
      const theirs = await verifiedBusiness(other);
      const account = await unwrap(open(other, theirs.id));
      for (const accountId of [account.id, 9_000_000_000]) {
        expect((await acme.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId } } })).response.status).toBe(
          404,
        );
      }
      await service.services.store.db.updateTable('banking_accounts').set({ status: 'closed' }).where('id', '=', account.id).execute();
      const closed = await unwrap(
        other.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: account.id } } }),
      );
      expect(closed).toMatchObject({ available: '0.00', ledger: '0.00' });
    });
  });
});

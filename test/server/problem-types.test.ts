// The problem catalogue kept honest through real HTTP: for every operation and every problem kind it lists in
// `x-problem-types`, a request that makes the service answer exactly that kind (a table of triggers; most kinds share
// one: no token, a wrong kind of token, an unknown query parameter, a broken body, an id that names nothing). Two
// kinds need a service of their own: `rate-limited` (a limit of one request a minute) and `internal-error` (a store
// whose tables are gone). What cannot be triggered is in `exempt`, with why, and checked so it cannot rot. Every
// service here also records each problem it answers (test/support/problem-recorder.ts): one outside the catalogue, or
// outside its operation's list, fails the suite, here and in every other suite.
import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { problemTypes } from '../../generated/problem-types.js';
import { bundles, resolve, type Json } from '../support/contract.js';
import { distinctOperations, requestExamples, type ServedOperation } from '../support/operations.js';
import { recordProblems } from '../support/problem-recorder.js';
import { type Answer, type Call, fill, problemType, send } from '../support/requests.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';
import { ConsoleBrowser, newConsoleUser } from '../support/console.js';
import { maxCredentialsPerOwner } from '../../server/domain/auth/credentials.js';

type Kind = keyof typeof problemTypes;

/** What a trigger works with: the service and a tenant holding one of everything (test/support/tenant.ts), and a
 * console session of the tenant's merchant (its cookie and CSRF token). */
interface World {
  service: RunningService;
  t: Tenant;
  console: { cookie: string; csrfToken: string };
}

/** The console session a console operation's triggers send (cookie, CSRF token, the console's Origin) in place of a
 * bearer token: `tokenOf` answers this marker for them, and `call` turns it into those headers. */
const consoleSession = 'console-session';

/** A console session of the tenant's merchant. */
async function consoleOf(service: RunningService, merchantId: number): Promise<World['console']> {
  const user = await newConsoleUser(service, { kind: 'merchant', id: merchantId });
  const browser = new ConsoleBrowser(service);
  const answer = await browser.signIn(user.email);
  if (answer.status !== 201) throw new Error(`console sign-in failed: ${answer.text}`);
  return { cookie: browser.cookie!, csrfToken: browser.csrfToken! };
}
type Trigger = (w: World, o: ServedOperation) => Promise<Answer>;

/** Pairs no request can produce on purpose, with why. Each must name a pair the contract documents and that has no
 * trigger, so an entry that stops being true fails the suite. */
const exempt: Record<string, string> = {
  'calculateFees internal-error': 'prices from the fee schedule in memory and reads no store, so only a defect can fail it',
};

const listOf = (o: ServedOperation): Kind[] => (o.op['x-problem-types'] as Kind[] | undefined) ?? [];
const nameOf = (o: ServedOperation) => `${o.group} ${o.operationId}`;
const tokenOf = (w: World, o: ServedOperation) =>
  o.caller === 'partner'
    ? w.t.partnerToken
    : o.caller === 'merchant'
      ? w.t.merchantToken
      : o.caller === 'console'
        ? consoleSession
        : undefined;
const call = (w: World, o: ServedOperation, path: string, c: Call = {}) => {
  if (c.token !== consoleSession) return send(w.service.baseUrl, o.method.toUpperCase(), path, c);
  const headers = { origin: w.service.baseUrl, cookie: w.console.cookie, 'x-csrf-token': w.console.csrfToken, ...c.headers };
  return send(w.service.baseUrl, o.method.toUpperCase(), path, { ...c, token: undefined, headers });
};

/** A parameter's documented example (its own, else its schema's). */
function parameterExample(o: ServedOperation, name: string): string | number {
  const doc = bundles[o.group];
  const item = resolve(doc, doc.paths[o.path]);
  const p = [...(item.parameters ?? []), ...(o.op.parameters ?? [])].map((x: Json) => resolve(doc, x)).find((x: Json) => x.name === name);
  const schema = resolve(doc, p?.schema);
  return p?.example ?? Object.values<Json>(p?.examples ?? {})[0]?.value ?? schema?.example ?? 1;
}
/** The operation's path with each parameter at its documented example: an id that names nothing of the tenant's. */
const examplePath = (o: ServedOperation) =>
  fill(o.url, Object.fromEntries(o.parameters.filter((p) => p.in === 'path').map((p) => [p.name, parameterExample(o, p.name)])));
/** Its first documented request body, and its required query parameters at their examples. */
const exampleCall = (w: World, o: ServedOperation): Call => {
  const body = Object.values(requestExamples(o))[0];
  const query = Object.fromEntries(
    o.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, parameterExample(o, p.name)]),
  );
  return { token: tokenOf(w, o), ...(body === undefined ? {} : { body }), query };
};

// ---- Valid requests of every create, in two variants: the idempotency conflict sends both under one key. ----------

let serial = 0;
const unique = () => `${process.pid}${String(++serial).padStart(4, '0')}`;
const ein = (last4 = String(1000 + (serial % 8000))) => `${String(10 + (serial % 80)).padStart(2, '0')}-${unique().slice(-3)}${last4}`;
const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
const recipientAddress = { line1: '350 Fifth Avenue', city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
const businessBody = (taxId: string, extra: Record<string, unknown> = {}) => ({
  legalName: `Problem Types ${taxId} LLC`,
  entityType: 'LLC',
  taxId,
  formationDate: '2019-03-14',
  incorporationCountry: 'US',
  incorporationState: 'DE',
  address: usAddress,
  phone: '+13125550198',
  email: 'treasury@example.com',
  ...extra,
});
const achCounterpartyBody = (businessId: number, name = 'Acme Supplies Inc.', routingNumber = '021000021') => ({
  businessId,
  name,
  type: 'BUSINESS',
  ach: { routingNumber, accountNumber: '123456789', accountType: 'CHECKING' },
});
const payeeBody = (v: number) => ({
  payeeType: 'individual',
  name: `Variant ${v}`,
  EmailAddress: 'variant@example.com',
  address: { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' },
});
const bankAccount = (accountNumber: string) => ({
  type: 'BANK_ACCOUNT',
  accountHolderName: 'Maria Gonzalez',
  bankName: 'First Hudson Bank',
  routingNumber: '021000021',
  accountNumber,
  accountType: 'CHECKINGS',
  Currency: 'USD',
});

type Valid = (w: World, v: 0 | 1, key: string) => { path?: string; body: unknown };
const valid: Record<string, Valid> = {
  createPayee: (_, v) => ({ body: payeeBody(v) }),
  createPayeeAccount: (w, v) => ({ path: `/v1/payees/${w.t.ids.payee}/accounts`, body: bankAccount(`4400${unique()}${v}`.slice(0, 17)) }),
  createPayout: (w, v) => ({ body: { PayeeId: w.t.ids.payee, PayeeAccountId: w.t.ids.payeeAccount, Amount: 3 + v, Currency: 'USD' } }),
  createWebhook: (_, v) => ({ body: { url: `https://hooks.variant.example/${v}` } }),
  createPartnerWebhook: (_, v) => ({ body: { url: `https://hooks.variant.example/partner/${v}` } }),
  createAchRecipient: (w, v) => ({
    body: {
      email: 'recipient@example.com',
      name: `Variant ${v}`,
      type: 'INDIVIDUAL',
      merchantId: w.t.merchantId,
      ach: {
        accountNumber: '123456789',
        bankAccountType: 'CHECKING',
        routingNumber: '021000021',
        address: { ...recipientAddress, type: 'RESIDENCE' },
      },
    },
  }),
  createWireRecipient: (w, v) => ({
    body: {
      email: 'wire@example.com',
      name: `Variant ${v}`,
      phone: '+12065550123',
      type: 'BUSINESS',
      paymentMethodType: 'DOMESTIC_WIRE',
      merchantId: w.t.merchantId,
      wire: {
        type: 'DOMESTIC',
        beneficiaryFIIdType: 'ABA',
        receiverRoutingNumber: '026009593',
        beneficiaryFIName: 'Bank of America, N.A.',
        beneficiaryAccountNumber: '987654321',
        beneficiaryIdNumber: 'BEN-1',
        address: { ...recipientAddress, type: 'BUSINESS' },
      },
    },
  }),
  createCounterparty: (w, v) => ({
    body: {
      merchantId: w.t.merchantId,
      name: `Variant ${v}`,
      email: 'cp@example.com',
      phone: '+12125550143',
      PaymentMethodType: 'STANDARD',
      type: 'BUSINESS',
      idNumber: `${String(30 + v)}-${unique().slice(-7)}`,
      idType: 'EIN',
      ach: {
        accountNumber: '123456789',
        bankAccountType: 'CHECKING',
        routingNumber: '021000021',
        address: { ...recipientAddress, type: 'BUSINESS' },
      },
    },
  }),
  // The payment request's own idempotency key is partnerPaymentUniqueId: both variants carry the same one.
  createPaymentRequest: (w, v, key) => ({
    body: {
      payeeId: w.t.ids.achRecipient,
      merchantAccountNumber: '000123456789',
      amount: 12 + v,
      currency: 'USD',
      paymentMethodType: 'STANDARD',
      description: 'commission',
      merchantId: w.t.merchantId,
      partnerPaymentUniqueId: key,
    },
  }),
  createBusiness: (_, v) => ({ body: businessBody(ein(), { legalName: `Variant ${v} LLC` }) }),
  createIdentityVerification: (w, v) => ({
    body: {
      businessId: w.t.ids.business,
      subject: 'PERSON',
      person: {
        firstName: 'Dana',
        lastName: `Variant${'ab'[v]}`,
        dateOfBirth: '1981-07-22',
        address: usAddress,
        taxId: `6${unique().slice(-2)}-${String(10 + v)}-${unique().slice(-4)}`,
        roles: ['BENEFICIAL_OWNER'],
        ownershipPercentage: 25,
      },
    },
  }),
  createBankingCounterparty: (w, v) => ({ body: achCounterpartyBody(w.t.ids.business, `Variant ${v} Inc.`) }),
  createAccount: (w, v) => ({ path: `/finance/api/v1/account/${w.t.ids.business}`, body: { accountName: `Variant ${v}` } }),
  createAchPull: (w, v) => ({
    body: { accountId: w.t.ids.account, counterpartyId: w.t.ids.achCounterparty, amount: 2 + v, currency: 'USD' },
  }),
  createAchPush: (w, v) => ({
    body: { accountId: w.t.ids.account, counterpartyId: w.t.ids.achCounterparty, amount: 2 + v, currency: 'USD' },
  }),
  createDomesticWire: (w, v) => ({
    body: { accountId: w.t.ids.account, counterpartyId: w.t.ids.abaCounterparty, amount: 2 + v, currency: 'USD' },
  }),
  createInternationalWire: (w, v) => ({
    body: {
      accountId: w.t.ids.account,
      counterpartyId: w.t.ids.bicCounterparty,
      amount: 2 + v,
      currency: 'USD',
      purposeOfPayment: 'GOODS',
    },
  }),
  createInternalTransfer: (w, v) => ({
    body: { accountId: w.t.ids.account, toAccountId: w.t.ids.reserveAccount, amount: 2 + v, currency: 'USD' },
  }),
  simulateInboundTransfer: (w, v) => ({
    body: { accountId: w.t.ids.account, amount: 5 + v, currency: 'USD', rail: 'ACH', originatorName: 'Globex Payroll' },
  }),
};

// ---- The triggers every operation shares, by kind. ------------------------------------------------------------

const generic: Partial<Record<Kind, Trigger>> = {
  'validation-error': (w, o) => call(w, o, fill(o.url), { token: tokenOf(w, o), query: { unexpectedParameter: 'x' } }),
  'malformed-json': (w, o) => call(w, o, fill(o.url), { token: tokenOf(w, o), raw: '{"unfinished": ' }),
  'payload-too-large': (w, o) => call(w, o, fill(o.url), { token: tokenOf(w, o), raw: JSON.stringify({ padding: 'x'.repeat(1_048_577) }) }),
  'unsupported-media-type': (w, o) =>
    call(w, o, fill(o.url), { token: tokenOf(w, o), raw: 'plain words', headers: { 'content-type': 'text/plain' } }),
  unauthorized: (w, o) => call(w, o, fill(o.url), o.op.requestBody ? { body: {} } : {}),
  forbidden: (w, o) =>
    o.caller === 'console'
      ? call(w, o, fill(o.url), { token: consoleSession, headers: { origin: 'https://elsewhere.example' } })
      : call(w, o, fill(o.url), { token: o.caller === 'partner' ? w.t.merchantToken : w.t.partnerToken }),
  // The documented example's credentials were never issued here.
  'invalid-client': (w, o) => call(w, o, fill(o.url), exampleCall(w, o)),
  // The documented examples' ids name nothing of this tenant's.
  'not-found': (w, o) => call(w, o, examplePath(o), exampleCall(w, o)),
  'idempotency-conflict': async (w, o) => {
    const make = valid[o.operationId];
    if (!make) throw new Error(`no valid request of ${nameOf(o)} in \`valid\`: add one to trigger idempotency-conflict`);
    const key = randomUUID();
    const headers = { 'Idempotency-Key': key };
    const first = make(w, 0, key);
    const created = await call(w, o, first.path ?? o.url, { token: tokenOf(w, o), body: first.body, headers });
    expect(created.status, `the first request of ${nameOf(o)} is carried out: ${created.text}`).toBeLessThan(300);
    const second = make(w, 1, key);
    return call(w, o, second.path ?? o.url, { token: tokenOf(w, o), body: second.body, headers });
  },
};

// ---- The triggers of one operation's own rules. ------------------------------------------------------------------

const db = (w: World) => w.service.services.store.db;
const merchant = (w: World, path: string, c: Omit<Call, 'token'> = {}, method = 'POST') =>
  send(w.service.baseUrl, method, path, { token: w.t.merchantToken, ...c });
const partner = (w: World, path: string, c: Omit<Call, 'token'> = {}, method = 'POST') =>
  send(w.service.baseUrl, method, path, { token: w.t.partnerToken, ...c });
const created = async <T = any>(answer: Promise<Answer>): Promise<T> => {
  const a = await answer;
  expect(a.status, a.text).toBeLessThan(300);
  return a.body as T;
};

/** A business of the tenant's merchant that stays unverified, with an ACH counterparty: the other business. */
async function otherBusiness(w: World): Promise<{ id: number; counterparty: number; taxId: string }> {
  const taxId = ein();
  const business = await created(merchant(w, '/finance/api/v1/business', { body: businessBody(taxId) }));
  const counterparty = await created(merchant(w, '/finance/api/v1/counterparty', { body: achCounterpartyBody(business.id) }));
  return { id: business.id, counterparty: counterparty.id, taxId };
}
async function suspendedBusiness(w: World): Promise<number> {
  const { id } = await otherBusiness(w);
  await db(w).updateTable('banking_businesses').set({ status: 'suspended' }).where('id', '=', id).execute();
  return id;
}
/** A new account of the tenant's approved business, frozen. */
async function frozenAccount(w: World): Promise<number> {
  const account = await created(merchant(w, `/finance/api/v1/account/${w.t.ids.business}`, { body: { accountName: 'Frozen' } }));
  await db(w).updateTable('banking_accounts').set({ status: 'frozen' }).where('id', '=', account.id).execute();
  return account.id;
}

/** An approved business of its own (so suspending it touches nothing else), with an account and its verification. */
async function approvedBusiness(w: World): Promise<{ id: number; account: number; verification: number }> {
  const business = await created(merchant(w, '/finance/api/v1/business', { body: businessBody(ein()) }));
  const verification = await created(
    merchant(w, '/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }),
  );
  const account = await created(merchant(w, `/finance/api/v1/account/${business.id}`, { body: {} }));
  return { id: business.id, account: account.id, verification: verification.id };
}
/** A completed internal transfer of the tenant's: no simulation of the networks applies to it. */
async function internalTransfer(w: World): Promise<number> {
  const t = await created(
    merchant(w, '/finance/api/v1/transaction/internal/transfer', {
      body: { accountId: w.t.ids.account, toAccountId: w.t.ids.reserveAccount, amount: 1, currency: 'USD' },
    }),
  );
  return t.id;
}
const inbound = (w: World, body: Record<string, unknown>) =>
  merchant(w, '/finance/api/v1/simulations/inbound-transfer', {
    body: { ...(valid.simulateInboundTransfer!(w, 0, '').body as object), ...body },
  });

/** A transfer of `operationId` from the tenant's operating account to its counterparty for that rail. */
const transfer = (w: World, o: ServedOperation, body: Record<string, unknown>) => {
  const counterparty: Record<string, number> = {
    createAchPull: w.t.ids.achCounterparty,
    createAchPush: w.t.ids.achCounterparty,
    createDomesticWire: w.t.ids.abaCounterparty,
    createInternationalWire: w.t.ids.bicCounterparty,
  };
  const base =
    o.operationId === 'createInternalTransfer'
      ? { accountId: w.t.ids.account, toAccountId: w.t.ids.reserveAccount, amount: 1, currency: 'USD' }
      : {
          accountId: w.t.ids.account,
          counterpartyId: counterparty[o.operationId],
          amount: 1,
          currency: 'USD',
          ...(o.operationId === 'createInternationalWire' ? { purposeOfPayment: 'GOODS' } : {}),
        };
  return merchant(w, o.url, { body: { ...base, ...body } });
};
const transfers = ['createAchPull', 'createAchPush', 'createDomesticWire', 'createInternationalWire', 'createInternalTransfer'];

const special: Record<string, Partial<Record<Kind, Trigger>>> = {
  // Groups A, B and D: a scope no credential holds, refused before the (example's, unknown) secret is checked.
  issueToken: {
    'invalid-scope': (w, o) => {
      const example = exampleCall(w, o);
      return call(w, o, fill(o.url), { ...example, body: { ...(example.body as object), scope: 'admin' } });
    },
  },
  // Group A and B.
  updatePayee: {
    'business-rule': async (w) => {
      const payee = await created(
        merchant(w, '/v1/payees', {
          body: { ...payeeBody(0), payeeType: 'business', taxId: '12-3456789', phoneNumber: '+13125550198' },
        }),
      );
      return merchant(w, `/v1/payees/${payee.id}`, { body: { address: payeeBody(0).address, phoneNumber: null } }, 'PATCH');
    },
  },
  createPayeeAccount: {
    'business-rule': (w) =>
      merchant(w, `/v1/payees/${w.t.ids.payee}/accounts`, {
        body: { type: 'IBAN', accountHolderName: 'Maria Gonzalez', IBAN: 'DE00370400440532013000', Currency: 'EUR' },
      }),
    'limit-reached': async (w) => {
      const payee = await created(merchant(w, '/v1/payees', { body: payeeBody(0) }));
      for (let i = 0; i < 20; i++) await created(merchant(w, `/v1/payees/${payee.id}/accounts`, { body: bankAccount(`55000000${i}`) }));
      return merchant(w, `/v1/payees/${payee.id}/accounts`, { body: bankAccount('550000099') });
    },
  },
  updatePayeeAccount: {
    conflict: async (w) => {
      const account = await created(merchant(w, `/v1/payees/${w.t.ids.payee}/accounts`, { body: bankAccount('660000001') }));
      await merchant(w, `/v1/payees/${w.t.ids.payee}/accounts/${account.PayeeAccountId}`, {}, 'DELETE');
      return merchant(w, `/v1/payees/${w.t.ids.payee}/accounts/${account.PayeeAccountId}`, { body: bankAccount('660000002') }, 'PATCH');
    },
    'business-rule': (w) =>
      merchant(
        w,
        `/v1/payees/${w.t.ids.payee}/accounts/${w.t.ids.ibanAccount}`,
        { body: { type: 'IBAN', accountHolderName: 'Maria Gonzalez', IBAN: 'DE00370400440532013000', Currency: 'EUR' } },
        'PATCH',
      ),
  },
  createPayout: {
    'inactive-account': async (w) => {
      const payee = await created(merchant(w, '/v1/payees', { body: payeeBody(0) }));
      const account = await created(merchant(w, `/v1/payees/${payee.id}/accounts`, { body: bankAccount('770000001') }));
      await merchant(w, `/v1/payees/${payee.id}/accounts/${account.PayeeAccountId}`, {}, 'DELETE');
      return merchant(w, '/v1/payouts', { body: { PayeeId: payee.id, Amount: 5, Currency: 'USD' } });
    },
    'business-rule': (w) =>
      merchant(w, '/v1/payouts', { body: { PayeeId: w.t.ids.payee, PayeeAccountId: w.t.ids.payeeAccount, Amount: 5, Currency: 'EUR' } }),
    'invalid-amount': (w) => merchant(w, '/v1/payouts', { body: { PayeeId: w.t.ids.payee, Amount: 5.123, Currency: 'USD' } }),
    'unsupported-currency': (w) => merchant(w, '/v1/payouts', { body: { PayeeId: w.t.ids.payee, Amount: 5, Currency: 'XXX' } }),
  },
  cancelPayout: {
    'payout-not-cancellable': async (w) => {
      const path = `/v1/payouts/${w.t.ids.payout}`;
      // The sandbox engine moves the tenant's payout on at once; cancelling is refused from then on.
      await vi.waitFor(async () => expect((await merchant(w, path, {}, 'GET')).body.Status).not.toBe('created'), {
        timeout: 10_000,
        interval: 25,
      });
      return merchant(w, `${path}/cancel`);
    },
  },
  // A payout just made is `created` (held, or not), and none of the simulations applies to it.
  simulatePayoutReturn: {
    conflict: async (w, o) => {
      const made = await created(
        merchant(w, '/v1/payouts', { body: { PayeeId: w.t.ids.payee, Amount: 5, Currency: 'USD', Sandbox: { Hold: true } } }),
      );
      return merchant(w, fill(o.url, { PayoutUniqueReference: made.PayoutUniqueReference }), { body: { ReturnCode: 'R03' } });
    },
  },
  simulatePayoutFailure: {
    conflict: async (w, o) => {
      const made = await created(
        merchant(w, '/v1/payouts', { body: { PayeeId: w.t.ids.payee, Amount: 5, Currency: 'USD', Sandbox: { Hold: true } } }),
      );
      return merchant(w, fill(o.url, { PayoutUniqueReference: made.PayoutUniqueReference }), { body: { Reason: 'bank_rejected' } });
    },
  },
  simulatePayoutRelease: {
    conflict: async (w, o) => {
      const made = await created(merchant(w, '/v1/payouts', { body: { PayeeId: w.t.ids.payee, Amount: 5, Currency: 'USD' } }));
      return merchant(w, fill(o.url, { PayoutUniqueReference: made.PayoutUniqueReference }));
    },
  },
  createWebhook: {
    'business-rule': (w) => merchant(w, '/v1/webhooks', { body: { url: 'https://user:secret@hooks.variant.example/in' } }),
    'limit-reached': async (w) => {
      const { merchantId, clientId } = await w.service.services.credentials.createMerchant('Many Webhooks');
      const token = (await w.service.services.tokens.issue({ kind: 'merchant', merchantId, clientId })).access_token;
      for (let i = 0; i < 20; i++)
        await created(send(w.service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url: `https://hooks.many.example/${i}` } }));
      return send(w.service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url: 'https://hooks.many.example/over' } });
    },
    // A replay of a registration deleted since.
    'not-found': async (w) => {
      const c = { body: { url: 'https://hooks.variant.example/deleted' }, headers: { 'Idempotency-Key': randomUUID() } };
      const hook = await created(merchant(w, '/v1/webhooks', c));
      expect((await merchant(w, `/v1/webhooks?id=${hook.id}`, {}, 'DELETE')).status).toBe(204);
      return merchant(w, '/v1/webhooks', c);
    },
  },
  updateWebhook: {
    'business-rule': (w, o) =>
      merchant(w, fill(o.url, { id: w.t.ids.webhook }), { body: { url: 'https://user:secret@hooks.variant.example/in' } }, 'PATCH'),
  },
  redeliverWebhookDelivery: {
    // A delivery of a registration disabled since.
    conflict: async (w, o) => {
      const hook = await created(merchant(w, '/v1/webhooks', { body: { url: 'https://hooks.variant.example/disabled' } }));
      const test = await merchant(w, `/v1/webhooks/${hook.id}/test`, {});
      expect(test.status).toBe(200);
      expect((await merchant(w, `/v1/webhooks/${hook.id}`, { body: { enabled: false } }, 'PATCH')).status).toBe(200);
      return merchant(w, fill(o.url, { id: hook.id, deliveryId: test.body.eventId }));
    },
  },
  listEvents: {
    'business-rule': (w, o) =>
      merchant(w, o.url, { query: { CreatedFrom: '2026-01-02T00:00:00Z', CreatedTo: '2026-01-01T00:00:00Z' } }, 'GET'),
  },
  // The partner's webhooks and events (groups C and E), as the merchant's.
  createPartnerWebhook: {
    'business-rule': (w) => partner(w, '/finance/v1/webhooks', { body: { url: 'https://user:secret@hooks.variant.example/in' } }),
    'limit-reached': async (w) => {
      const { partnerId, clientId } = await w.service.services.credentials.createPartner('Many Webhooks');
      const token = (await w.service.services.tokens.issue({ kind: 'partner', partnerId, clientId })).access_token;
      for (let i = 0; i < 20; i++)
        await created(send(w.service.baseUrl, 'POST', '/finance/v1/webhooks', { token, body: { url: `https://hooks.many.example/${i}` } }));
      return send(w.service.baseUrl, 'POST', '/finance/v1/webhooks', { token, body: { url: 'https://hooks.many.example/over' } });
    },
    // A replay of a registration deleted since.
    'not-found': async (w) => {
      const c = { body: { url: 'https://hooks.variant.example/partner/deleted' }, headers: { 'Idempotency-Key': randomUUID() } };
      const hook = await created(partner(w, '/finance/v1/webhooks', c));
      expect((await partner(w, `/finance/v1/webhooks?id=${hook.id}`, {}, 'DELETE')).status).toBe(204);
      return partner(w, '/finance/v1/webhooks', c);
    },
  },
  updatePartnerWebhook: {
    'business-rule': (w, o) =>
      partner(w, fill(o.url, { id: w.t.ids.partnerWebhook }), { body: { url: 'https://user:secret@hooks.variant.example/in' } }, 'PATCH'),
  },
  redeliverPartnerWebhookDelivery: {
    // A delivery of a registration disabled since.
    conflict: async (w, o) => {
      const hook = await created(partner(w, '/finance/v1/webhooks', { body: { url: 'https://hooks.variant.example/partner/disabled' } }));
      const test = await partner(w, `/finance/v1/webhooks/${hook.id}/test`, {});
      expect(test.status).toBe(200);
      expect((await partner(w, `/finance/v1/webhooks/${hook.id}`, { body: { enabled: false } }, 'PATCH')).status).toBe(200);
      return partner(w, fill(o.url, { id: hook.id, deliveryId: test.body.eventId }));
    },
  },
  listPartnerEvents: {
    'business-rule': (w, o) =>
      partner(w, o.url, { query: { CreatedFrom: '2026-01-02T00:00:00Z', CreatedTo: '2026-01-01T00:00:00Z' } }, 'GET'),
  },
  listPayouts: {
    'business-rule': (w, o) =>
      merchant(w, o.url, { query: { CreatedFrom: '2026-01-02T00:00:00Z', CreatedTo: '2026-01-01T00:00:00Z' } }, 'GET'),
  },
  calculateFees: {
    'unsupported-route': (w) =>
      merchant(w, '/payouts/api/v1/fees/calculate', { body: { amount: 100, currency: 'CHF', destinationCountry: 'CH', rail: 'SWIFT' } }),
    'invalid-amount': (w) =>
      merchant(w, '/payouts/api/v1/fees/calculate', { body: { amount: 100.5, currency: 'JPY', destinationCountry: 'JP', rail: 'SWIFT' } }),
  },
  // Group C and E.
  listPartnerMerchants: {
    'not-found': (w) => partner(w, '/finance/v1/partner/list', { query: { partnerId: w.t.partnerId + 1000 } }, 'GET'),
  },
  listRecipients: { 'not-found': (w) => partner(w, '/finance/v1/payees', { query: { MerchantId: w.t.merchantId + 1000 } }, 'GET') },
  createAchRecipient: {
    'business-rule': async (w) => {
      const body = valid.createAchRecipient!(w, 0, '').body as Record<string, any>;
      return partner(w, '/finance/v1/recipient-ach', { body: { ...body, ach: { ...body.ach, routingNumber: '021000022' } } });
    },
  },
  createWireRecipient: {
    'business-rule': async (w) => {
      const body = valid.createWireRecipient!(w, 0, '').body as Record<string, any>;
      return partner(w, '/finance/v1/recipient-wire', { body: { ...body, wire: { ...body.wire, receiverRoutingNumber: '026009594' } } });
    },
  },
  createCounterparty: {
    'business-rule': async (w) => {
      const body = valid.createCounterparty!(w, 0, '').body as Record<string, any>;
      return partner(w, '/finance/v1/payee', { body: { ...body, ach: { ...body.ach, routingNumber: '021000022' } } });
    },
  },
  createPaymentRequest: {
    'not-found': (w) =>
      partner(w, '/finance/v1/payment_request', {
        body: { ...(valid.createPaymentRequest!(w, 0, unique()).body as object), payeeId: 999_999 },
      }),
    'business-rule': (w) =>
      partner(w, '/finance/v1/payment_request', {
        body: { ...(valid.createPaymentRequest!(w, 0, unique()).body as object), currency: 'EUR' },
      }),
    'invalid-amount': (w) =>
      partner(w, '/finance/v1/payment_request', {
        body: { ...(valid.createPaymentRequest!(w, 0, unique()).body as object), amount: 1.234 },
      }),
    'unsupported-currency': (w) =>
      partner(w, '/finance/v1/payment_request', {
        body: {
          ...(valid.createPaymentRequest!(w, 0, unique()).body as object),
          payeeId: w.t.ids.wireRecipient,
          paymentMethodType: 'INTERNATIONAL_WIRE',
          currency: 'XXX',
        },
      }),
  },
  searchPartnerTransactions: {
    'not-found': (w) => partner(w, '/finance/v1/partner/search_transactions', { body: { merchantId: w.t.merchantId + 1000 } }),
  },
  cancelPayment: {
    'payment-not-cancellable': async (w) => {
      const path = `/finance/v1/payment_request/${w.t.ids.partnerPayment}`;
      // The sandbox engine moves the tenant's payment on at once; cancelling is refused from then on.
      await vi.waitFor(async () => expect((await partner(w, path, {}, 'GET')).body.status).not.toBe('created'), {
        timeout: 10_000,
        interval: 25,
      });
      return partner(w, `${path}/cancel`);
    },
  },
  // A routing number that fails the ABA checksum; refused before anything is written.
  updateRecipient: {
    'business-rule': (w) =>
      partner(w, `/finance/v1/payees/${w.t.ids.achRecipient}`, { body: { ach: { routingNumber: '021000022' } } }, 'PATCH'),
  },
  updateCounterparty: {
    'business-rule': (w) =>
      partner(w, `/finance/v1/payee/${w.t.ids.counterparty}`, { body: { ach: { routingNumber: '021000022' } } }, 'PATCH'),
  },
  listCounterparties: {
    'not-found': (w) => partner(w, '/finance/v1/payee', { query: { MerchantId: w.t.merchantId + 1000 } }, 'GET'),
  },
  searchTransactions: {
    'not-found': (w) => partner(w, '/finance/v1/search_transactions', { body: { customerId: w.t.merchantId + 1000 } }),
    'business-rule': (w) => partner(w, '/finance/v1/search_transactions', { body: { minAmount: 10, maxAmount: 1 } }),
  },
  // Group D.
  createBusiness: {
    'duplicate-business': async (w) => {
      const taxId = ein();
      await created(merchant(w, '/finance/api/v1/business', { body: businessBody(taxId) }));
      return merchant(w, '/finance/api/v1/business', { body: businessBody(taxId) });
    },
    'business-rule': (w) => merchant(w, '/finance/api/v1/business', { body: businessBody(ein(), { formationDate: '2999-01-01' }) }),
  },
  createIdentityVerification: {
    conflict: async (w) => {
      // The sandbox leaves a business whose tax id ends in 2222 pending: a second verification must wait.
      const business = await created(merchant(w, '/finance/api/v1/business', { body: businessBody(ein('2222')) }));
      const body = { businessId: business.id, subject: 'BUSINESS' };
      await created(merchant(w, '/finance/api/v1/identity-verification', { body }));
      return merchant(w, '/finance/api/v1/identity-verification', { body });
    },
    'business-rule': async (w) =>
      merchant(w, '/finance/api/v1/identity-verification', { body: { businessId: await suspendedBusiness(w), subject: 'BUSINESS' } }),
  },
  createBankingCounterparty: {
    'business-rule': async (w) => merchant(w, '/finance/api/v1/counterparty', { body: achCounterpartyBody(await suspendedBusiness(w)) }),
    'invalid-bank': (w) =>
      merchant(w, '/finance/api/v1/counterparty', { body: achCounterpartyBody(w.t.ids.business, 'Wrong Bank', '021000022') }),
  },
  createAccount: {
    conflict: (w) =>
      merchant(w, `/finance/api/v1/account/${w.t.ids.business}`, { body: { presetAccountNumber: w.t.accountNumbers.operating } }),
    'business-rule': async (w) => merchant(w, `/finance/api/v1/account/${await suspendedBusiness(w)}`, { body: {} }),
    'business-not-verified': async (w) => merchant(w, `/finance/api/v1/account/${(await otherBusiness(w)).id}`, { body: {} }),
    'invalid-funding-account': (w) =>
      merchant(w, `/finance/api/v1/account/${w.t.ids.business}`, { body: { fundingAccountNumber: '999999999999' } }),
  },
  simulateInboundTransfer: {
    'inactive-account': async (w) => inbound(w, { accountId: await frozenAccount(w) }),
    'invalid-amount': (w) => inbound(w, { amount: 1.234 }),
    'unsupported-currency': (w) => inbound(w, { currency: 'EUR' }),
    'business-rule': async (w) => {
      const { id, account } = await approvedBusiness(w);
      await db(w).updateTable('banking_businesses').set({ status: 'suspended' }).where('id', '=', id).execute();
      return inbound(w, { accountId: account });
    },
  },
  listAccountTransfers: {
    'business-rule': (w) =>
      merchant(
        w,
        `/finance/api/v1/account/${w.t.ids.account}/transactions`,
        {
          query: { CreatedFrom: '2026-11-02T15:00:00Z', CreatedTo: '2026-11-02T14:00:00Z' },
        },
        'GET',
      ),
  },
  simulatePaymentReturn: {
    // Only a completed payment is returned: once returned, a second return is refused. (A payment just made is
    // `created`, but the sandbox engine may complete it before the return arrives.)
    conflict: async (w) => {
      const made = await created(partner(w, '/finance/v1/payment_request', { body: valid.createPaymentRequest!(w, 0, unique()).body }));
      const path = `/finance/v1/payment_request/${made.paymentId}`;
      await vi.waitFor(async () => expect((await partner(w, path, {}, 'GET')).body.status).toBe('completed'), {
        timeout: 10_000,
        interval: 25,
      });
      const returnIt = () =>
        partner(w, `/finance/v1/simulations/payment_request/${made.paymentId}/return`, { body: { returnCode: 'R01' } });
      expect((await returnIt()).status).toBe(200);
      return returnIt();
    },
  },
  simulatePaymentNotificationOfChange: {
    // A wire gets no ACH notification of change.
    conflict: async (w) => {
      const made = await created(
        partner(w, '/finance/v1/payment_request', {
          body: {
            ...(valid.createPaymentRequest!(w, 0, unique()).body as object),
            payeeId: w.t.ids.wireRecipient,
            paymentMethodType: 'DOMESTIC_WIRE',
          },
        }),
      );
      return partner(w, `/finance/v1/simulations/payment_request/${made.paymentId}/notification-of-change`, {
        body: { changeCode: 'C01', correctedData: { accountNumber: '000123456780' } },
      });
    },
  },
  // The console (its own group).
  signInToConsole: {
    'invalid-sign-in': (w, o) =>
      call(w, o, o.url, {
        headers: { origin: w.service.baseUrl },
        body: { email: 'nobody@northwind.example', password: 'not the password' },
      }),
  },
  createConsoleCredential: {
    'limit-reached': async (w, o) => {
      const { merchantId } = await w.service.services.credentials.createMerchant('Many Credentials');
      const many = { ...w, console: await consoleOf(w.service, merchantId) };
      for (let i = 1; i < maxCredentialsPerOwner; i++) await created(call(many, o, o.url, { token: consoleSession }));
      return call(many, o, o.url, { token: consoleSession });
    },
  },
  listRequestLogs: {
    'business-rule': (w, o) =>
      call(w, o, o.url, { token: consoleSession, query: { CreatedFrom: '2026-11-02T15:00:00Z', CreatedTo: '2026-11-02T14:00:00Z' } }),
  },
  simulateTransferSettlement: {
    conflict: async (w) =>
      merchant(w, `/finance/api/v1/simulations/transfers/${await internalTransfer(w)}/settlement`, { body: { status: 'completed' } }),
  },
  simulateTransferReturn: {
    conflict: async (w) =>
      merchant(w, `/finance/api/v1/simulations/transfers/${await internalTransfer(w)}/return`, { body: { returnCode: 'R01' } }),
  },
  simulateNotificationOfChange: {
    conflict: async (w) =>
      merchant(w, `/finance/api/v1/simulations/transfers/${await internalTransfer(w)}/notification-of-change`, {
        body: { changeCode: 'C05', correctedData: { accountType: 'SAVINGS' } },
      }),
  },
  simulateVerificationDecision: {
    conflict: async (w) =>
      merchant(w, `/finance/api/v1/simulations/identity-verification/${(await approvedBusiness(w)).verification}/decision`, {
        body: { status: 'rejected' },
      }),
  },
  ...Object.fromEntries(
    transfers.map((id) => [
      id,
      {
        'business-rule': async (w: World, o: ServedOperation) =>
          id === 'createInternalTransfer'
            ? transfer(w, o, { toAccountId: w.t.ids.account })
            : transfer(w, o, { counterpartyId: (await otherBusiness(w)).counterparty }),
        'inactive-account': async (w: World, o: ServedOperation) => transfer(w, o, { accountId: await frozenAccount(w) }),
        'invalid-amount': (w: World, o: ServedOperation) => transfer(w, o, { amount: 1.234 }),
        'unsupported-currency': (w: World, o: ServedOperation) =>
          transfer(w, o, { currency: id === 'createInternationalWire' ? 'XXX' : 'EUR' }),
        // An ACH pull credits the account: only the other rails debit it.
        ...(id === 'createAchPull'
          ? {}
          : { 'insufficient-funds': (w: World, o: ServedOperation) => transfer(w, o, { amount: 90_000_000 }) }),
        ...(id === 'createAchPull' || id === 'createAchPush'
          ? { 'same-day-limit': (w: World, o: ServedOperation) => transfer(w, o, { amount: 1_000_000.01, sameDay: true }) }
          : {}),
        // Each rail is refused for a counterparty with only another rail's details.
        ...(id === 'createInternalTransfer'
          ? {}
          : {
              'counterparty-rail-mismatch': (w: World, o: ServedOperation) =>
                transfer(w, o, { counterpartyId: id === 'createDomesticWire' ? w.t.ids.bicCounterparty : w.t.ids.abaCounterparty }),
            }),
      } satisfies Partial<Record<Kind, Trigger>>,
    ]),
  ),
};

// ---- The pairs. ---------------------------------------------------------------------------------------------------

/** Kinds answered only by a service of their own. */
const ownService = new Set<Kind>(['rate-limited', 'internal-error']);
const documented = distinctOperations.flatMap((o) => listOf(o).map((kind) => ({ o, kind, name: `${o.operationId} ${kind}` })));
const triggerOf = (o: ServedOperation, kind: Kind): Trigger | undefined => special[o.operationId]?.[kind] ?? generic[kind];
// A pair without a trigger is reported once, by the table's own test below.
const mainPairs = documented.filter((p) => !ownService.has(p.kind) && !exempt[p.name] && triggerOf(p.o, p.kind));
/** Kinds answered before anything reads the store: the second store adds nothing to them. */
const storeFree = new Set<Kind>([
  'validation-error',
  'malformed-json',
  'payload-too-large',
  'unsupported-media-type',
  'unauthorized',
  'forbidden',
]);

describe('the table of triggers', () => {
  it('has a trigger or an exemption for every kind every operation lists', () => {
    const missing = documented
      .filter((p) => !ownService.has(p.kind) && !exempt[p.name] && !triggerOf(p.o, p.kind))
      .map((p) => `${nameOf(p.o)}: ${p.kind} (add a trigger to \`special\`)`);
    expect(missing).toEqual([]);
  });

  it('exempts only pairs the contract documents, and none that has a trigger', () => {
    for (const [name, why] of Object.entries(exempt)) {
      const [operationId, kind] = name.split(' ') as [string, Kind];
      expect(
        documented.some((p) => p.name === name),
        `${name} is documented`,
      ).toBe(true);
      expect(!ownService.has(kind) && triggerOf(distinctOperations.find((o) => o.operationId === operationId)!, kind), name).toBeFalsy();
      expect(why.length).toBeGreaterThan(20);
    }
  });

  it('has no trigger for a kind its operation does not list', () => {
    const stray = Object.entries(special).flatMap(([operationId, triggers]) =>
      Object.keys(triggers)
        .filter((kind) => !documented.some((p) => p.o.operationId === operationId && p.kind === kind))
        .map((k) => `${operationId} ${k}`),
    );
    expect(stray).toEqual([]);
  });

  it('has a valid request for exactly the operations that list idempotency-conflict', () => {
    const conflicting = [...new Set(documented.filter((p) => p.kind === 'idempotency-conflict').map((p) => p.o.operationId))].sort();
    expect(Object.keys(valid).sort()).toEqual(conflicting);
  });

  it('catches a problem outside the catalogue or outside the list of its operation (the recorder every test service carries)', async () => {
    const answers: Record<string, object> = {
      '/teapot': { type: 'https://payouts.example/problems/teapot', title: 'Short and stout.', status: 418 },
      // listPayouts reads no single resource, so it lists no not-found.
      '/v1/payouts': { type: problemType('not-found'), title: problemTypes['not-found'].title, status: 404 },
      '/v1/payouts/po_1': { type: problemType('not-found'), title: problemTypes['not-found'].title, status: 404 },
    };
    const server = createServer((req, res) => {
      const body = answers[req.url ?? ''] as { status: number };
      res.setHeader('content-type', 'application/problem+json');
      res.statusCode = body.status;
      res.end(JSON.stringify({ ...body, detail: 'x' }));
    });
    const record = recordProblems(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      for (const path of Object.keys(answers)) await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
      expect(record.outside).toEqual([
        expect.stringContaining('teapot is not in the catalogue'),
        expect.stringContaining('merchant listPayouts answered not-found, which its x-problem-types does not list'),
      ]);
      expect(record.answered.get('not-found')).toBe(2);
    } finally {
      server.close();
    }
  });
});

describe.each(stores)('every documented problem kind is answered, on $name', (kind) => {
  let world: World;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await kind.migrated('sandbox');
    drop = fresh.drop;
    const service = await startService(fresh.url, {}, { resolve: loopbackResolver });
    const t = await newTenant(service, 'Problems');
    world = { service, t, console: await consoleOf(service, t.merchantId) };
  });
  afterAll(async () => {
    await world.service.stop();
    await drop();
  });

  const pairs = kind.name === 'sqlite' ? mainPairs : mainPairs.filter((p) => !storeFree.has(p.kind));
  it.each(pairs.map((p) => [`${nameOf(p.o)} answers ${p.kind}`, p] as const))('%s', async (_, { o, kind: k }) => {
    const answer = await triggerOf(o, k)!(world, o);
    expect(answer.headers.get('content-type'), answer.text).toContain('application/problem+json');
    expect({ status: answer.status, type: answer.body?.type }, answer.text).toEqual({
      status: problemTypes[k].status,
      type: problemType(k),
    });
  });

  it('recorded every kind it answered, and the 431 written on a raw socket', async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${world.service.baseUrl}/v1/payouts`, { headers: { 'x-padding': 'x'.repeat(20_000) } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
      req.end();
    });
    const answered = world.service.problems.answered;
    expect([...new Set(pairs.map((p) => p.kind))].filter((k) => !answered.has(k))).toEqual([]);
    expect(answered.get('headers-too-large')).toBe(1);
  });
});

describe('rate-limited, on a service that allows one request a minute', () => {
  const service = useService(':memory:', { rateLimitPerMinute: 1 }, { workers: false });
  // The console's operations (no bearer token) are counted by the client's address, as any request without one.
  const tokens: Partial<Record<ServedOperation['caller'], string>> = {};

  beforeAll(async () => {
    const m = await service.services.credentials.createMerchant('Limited');
    const p = await service.services.credentials.createPartner('Limited Partner');
    tokens.merchant = await service.token({ kind: 'merchant', merchantId: m.merchantId });
    tokens.partner = await service.token({ kind: 'partner', partnerId: p.partnerId });
  });

  const pairs = documented.filter((p) => p.kind === 'rate-limited');
  it.each(pairs.map((p) => [nameOf(p.o), p.o] as const))('%s', async (_, o) => {
    const c: Call = { token: tokens[o.caller], ...(o.op.requestBody ? { body: {} } : {}) };
    // The first request spends the caller's minute (if an earlier one has not), the second is over it.
    await service.send(o.method.toUpperCase(), fill(o.url), c);
    const answer = await service.send(o.method.toUpperCase(), fill(o.url), c);
    expect({ status: answer.status, type: answer.body?.type }, answer.text).toEqual({ status: 429, type: problemType('rate-limited') });
  });
});

describe('internal-error, on a service whose store has lost its tables', () => {
  const service = useService(':memory:', {}, { workers: false, resolve: loopbackResolver });
  let w: World;

  beforeAll(async () => {
    const m = await service.services.credentials.createMerchant('Broken');
    const p = await service.services.credentials.createPartner('Broken Partner');
    await service.services.credentials.link(p.partnerId, m.merchantId);
    // Tokens from the issuer itself name no client, so verifying them reads no table.
    const t = {
      merchantId: m.merchantId,
      partnerId: p.partnerId,
      merchantToken: await service.token({ kind: 'merchant', merchantId: m.merchantId }),
      partnerToken: await service.token({ kind: 'partner', partnerId: p.partnerId }),
    } as Tenant;
    // A console session made before the store breaks: its operations then fail reading it.
    w = { service, t, console: await consoleOf(service, m.merchantId) };
    const db = service.services.store.db;
    await sql`pragma foreign_keys = off`.execute(db);
    for (const table of await db.introspection.getTables()) await sql`drop table ${sql.table(table.name)}`.execute(db);
  });

  /** A request the operation accepts (its documented example, the caller's own ids where it names them). */
  const accepted = (o: ServedOperation) => {
    const example = exampleCall(w, o);
    const body = example.body && typeof example.body === 'object' ? { ...example.body } : example.body;
    if (body && typeof body === 'object') {
      const b = body as Record<string, unknown>;
      if ('partnerId' in b) b.partnerId = w.t.partnerId;
      if ('merchantId' in b) b.merchantId = w.t.merchantId;
    }
    return call(w, o, examplePath(o), { ...example, body });
  };

  const pairs = documented.filter((p) => p.kind === 'internal-error');
  it.each(pairs.filter((p) => !exempt[p.name]).map((p) => [nameOf(p.o), p.o] as const))('%s', async (_, o) => {
    const answer = await accepted(o);
    expect({ status: answer.status, type: answer.body?.type }, answer.text).toEqual({ status: 500, type: problemType('internal-error') });
  });
  // The exemption's reason, checked: the operation still answers without its store.
  it.each(pairs.filter((p) => exempt[p.name]).map((p) => [nameOf(p.o), p.o] as const))('%s reads no store (exempt)', async (_, o) => {
    const answer = await accepted(o);
    expect(answer.status, answer.text).toBeLessThan(300);
  });
});

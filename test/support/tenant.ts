// A tenant for the security suites: one merchant and one partner linked to it, each holding at least one
// resource of every kind in groups A to E, all created over HTTP through the generated clients. Every
// sensitive value a tenant sends (full account numbers, SSNs, tax, document and ID numbers) is unique to it and
// listed in `sensitive`, so a suite can look for it in every response.
import {
  createBankingClient,
  createCounterpartyClient,
  createMerchantClient,
  createPartnerClient,
  createPlatformClient,
} from '../../client/create-clients.js';
import type { BankingClient, CounterpartyClient, MerchantClient, PartnerClient, PlatformClient } from '../../client/create-clients.js';
import type { Fetch } from '../../client/authenticated-fetch.js';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/banking/schema.js';
import type { Resolver } from '../../server/domain/webhooks/address-guard.js';
import type { RunningService } from './service.js';

type BankingSchemas = components['schemas'];

/** Resolves every name to loopback: start tenant services with it, so no webhook target is looked up outside. */
export const loopbackResolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

export interface Tenant {
  label: string;
  merchantId: number;
  partnerId: number;
  merchantCredentials: { clientId: string; clientSecret: string };
  partnerCredentials: { clientId: string; clientSecret: string };
  /** Tokens issued by the service for this merchant and partner. */
  merchantToken: string;
  partnerToken: string;
  a: MerchantClient;
  b: PlatformClient;
  c: PartnerClient;
  d: BankingClient;
  e: CounterpartyClient;
  ids: {
    payee: number;
    payeeAccount: string;
    ibanAccount: string;
    payout: string;
    webhook: string;
    /** The newest of the merchant's events (one its transfers or payout wrote). */
    event: string;
    /** The partner's signed webhook registration (groups C and E). */
    partnerWebhook: string;
    /** The newest of the partner's events (one of its payment requests'). */
    partnerEvent: string;
    platformPayee: number;
    business: number;
    account: number;
    reserveAccount: number;
    achCounterparty: number;
    abaCounterparty: number;
    bicCounterparty: number;
    /** The ACH push: pending unless the sandbox steps it. */
    transfer: number;
    /** The verifications of the two beneficial owners: one identified by SSN, one by passport. */
    verification: number;
    documentVerification: number;
    achRecipient: number;
    wireRecipient: number;
    partnerPayment: number;
    counterparty: number;
    counterpartyPayment: number;
  };
  /** Full account numbers of the tenant's two deposit accounts (preset, so they are known). */
  accountNumbers: { operating: string; reserve: string };
  /** Values that may never appear whole in any response. */
  sensitive: string[];
  /** The webhook signing secret: shown once, in the registration's response. */
  webhookSecret: string;
}

let made = 0;

/** 12 digits unique to this process's nth tenant and a slot; never ending in a sandbox failure code. */
const number = (n: number, slot: number) =>
  `${`7${String(n).padStart(4, '0')}${slot}${String(n * 7 + slot).padStart(5, '0')}`.slice(0, 11)}8`;

/** A valid German IBAN (mod-97 check digits) around a 10-digit account number. */
export function iban(account: string): string {
  const bban = `37040044${account.padStart(10, '0').slice(-10)}`;
  const digits = `${bban}131400`; // "DE00" moved to the end, letters as numbers (D=13, E=14)
  let remainder = 0;
  for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  return `DE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

export async function newTenant(
  service: RunningService,
  label: string,
  options: { fetch?: Fetch; webhookUrl?: string } = {},
): Promise<Tenant> {
  made += 1;
  const n = made;
  const s = service.services;
  const merchant = await s.credentials.createMerchant(`${label} Merchant`);
  const partner = await s.credentials.createPartner(`${label} Partner`);
  await s.credentials.link(partner.partnerId, merchant.merchantId);
  const mc = { clientId: merchant.clientId, clientSecret: merchant.clientSecret };
  const pc = { clientId: partner.clientId, clientSecret: partner.clientSecret };
  const base = { baseUrl: service.baseUrl, fetch: options.fetch };
  const a = createMerchantClient({ ...base, credentials: mc });
  const b = createPlatformClient({ ...base, baseUrl: `${service.baseUrl}/payouts`, authUrl: service.baseUrl, credentials: mc });
  const d = createBankingClient({ ...base, credentials: mc });
  const c = createPartnerClient({ ...base, credentials: pc });
  const e = createCounterpartyClient({ ...base, credentials: pc });

  const numbers = {
    payee: number(n, 1),
    iban: iban(number(n, 2).slice(-10)),
    operating: number(n, 3),
    funding: number(n, 4),
    achCounterparty: number(n, 5),
    abaCounterparty: number(n, 6),
    recipient: number(n, 7),
    wireRecipient: number(n, 8),
    merchantAccount: number(n, 9),
    counterparty: number(n, 0),
  };
  const ssn = `6${String(n).padStart(2, '0').slice(-2)}-${String(10 + (n % 89)).padStart(2, '0')}-${String(4000 + n).slice(-4)}`;
  const passport = `X${String(n).padStart(8, '0')}`;
  const ein = `${String(20 + (n % 70))}-${String(1_000_000 + n * 13).slice(-7, -4)}${String(4000 + n).slice(-4)}`;
  const counterpartyEin = `${String(30 + (n % 60))}-${String(2_000_000 + n * 17).slice(-7)}`;
  const payeeSsn = `5${String(n).padStart(2, '0').slice(-2)}-${String(20 + (n % 79)).padStart(2, '0')}-${String(6000 + n).slice(-4)}`;
  const beneficiaryId = `BEN-${String(700_000 + n * 7)}`;
  const address = { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' };
  const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
  const deAddress = { line1: 'Kaiserplatz', line2: null, city: 'Frankfurt am Main', state: null, postalCode: '60311', countryCode: 'DE' };

  // Group A: a payee with a bank account and an IBAN account, a payout, a signed webhook registration.
  const payeeBody = {
    payeeType: 'individual' as const,
    name: `${label} Payee`,
    EmailAddress: 'payee@example.com',
    taxId: payeeSsn,
    idType: 'SSN',
    address,
  };
  const payee = await unwrap(a.POST('/v1/payees', { body: payeeBody }));
  const payeeAccount = await unwrap(
    a.POST('/v1/payees/{id}/accounts', {
      params: { path: { id: payee.id } },
      body: {
        type: 'BANK_ACCOUNT',
        accountHolderName: `${label} Payee`,
        bankName: 'First Hudson Bank',
        routingNumber: '021000021',
        accountNumber: numbers.payee,
        accountType: 'CHECKINGS',
        Currency: 'USD',
      },
    }),
  );
  const ibanAccount = await unwrap(
    a.POST('/v1/payees/{id}/accounts', {
      params: { path: { id: payee.id } },
      body: { type: 'IBAN', accountHolderName: `${label} Payee`, IBAN: numbers.iban, Currency: 'EUR' },
    }),
  );
  const payout = await unwrap(
    a.POST('/v1/payouts', { body: { PayeeId: payee.id, PayeeAccountId: payeeAccount.PayeeAccountId, Amount: 10, Currency: 'USD' } }),
  );
  const webhook = await unwrap(
    a.POST('/v1/webhooks', { body: { url: options.webhookUrl ?? `https://hooks.${label.toLowerCase()}.example/payouts`, signed: true } }),
  );

  // Group B: a payee of its own, which group A sees too.
  const platformPayee = await unwrap(
    b.POST('/v1/payees/Create', {
      body: { payeeType: 'individual', name: `${label} Platform Payee`, EmailAddress: 'platform@example.com', address },
    }),
  );

  // Group D: a verified business with a verified owner, two accounts (one funding the other), a
  // counterparty per rail, and money moved on every rail.
  const business = await unwrap(
    d.POST('/finance/api/v1/business', {
      body: {
        legalName: `${label} Logistics LLC`,
        entityType: 'LLC',
        taxId: ein,
        formationDate: '2019-03-14',
        incorporationCountry: 'US',
        incorporationState: 'DE',
        address: usAddress,
        phone: '+13125550198',
        email: 'treasury@example.com',
      },
    }),
  );
  await unwrap(d.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }));
  const verification = await unwrap(
    d.POST('/finance/api/v1/identity-verification', {
      body: {
        businessId: business.id,
        subject: 'PERSON',
        person: {
          firstName: 'Dana',
          lastName: 'Whitfield',
          dateOfBirth: '1981-07-22',
          address: usAddress,
          taxId: ssn,
          roles: ['BENEFICIAL_OWNER'],
          ownershipPercentage: 60,
        },
      },
    }),
  );
  const documentVerification = await unwrap(
    d.POST('/finance/api/v1/identity-verification', {
      body: {
        businessId: business.id,
        subject: 'PERSON',
        person: {
          firstName: 'Jonas',
          lastName: 'Weber',
          dateOfBirth: '1979-02-03',
          address: deAddress,
          idDocument: { type: 'PASSPORT', number: passport, issuingCountry: 'DE', expirationDate: '2031-05-19' },
          roles: ['BENEFICIAL_OWNER'],
          ownershipPercentage: 30,
        },
      },
    }),
  );
  const account = await unwrap(
    d.POST('/finance/api/v1/account/{businessId}', {
      params: { path: { businessId: business.id } },
      body: { accountName: 'Operating', presetAccountNumber: numbers.operating },
    }),
  );
  const reserve = await unwrap(
    d.POST('/finance/api/v1/account/{businessId}', {
      params: { path: { businessId: business.id } },
      body: { accountName: 'Reserve', presetAccountNumber: numbers.funding, fundingAccountNumber: numbers.operating },
    }),
  );
  const counterparty = (body: Omit<BankingSchemas['CounterpartyCreateRequest'], 'businessId'>) =>
    unwrap(d.POST('/finance/api/v1/counterparty', { body: { businessId: business.id, ...body } })).then((x) => x.id);
  const achCounterparty = await counterparty({
    name: 'Acme Supplies Inc.',
    type: 'BUSINESS',
    ach: { routingNumber: '021000021', accountNumber: numbers.achCounterparty, accountType: 'CHECKING' },
  });
  const abaCounterparty = await counterparty({
    name: 'Harbor Freight Partners LLC',
    type: 'BUSINESS',
    address: usAddress,
    wire: { bankIdType: 'ABA', bankId: '026009593', accountNumber: numbers.abaCounterparty, bankName: 'Bank of America, N.A.' },
  });
  const bicCounterparty = await counterparty({
    name: 'Mueller Maschinenbau GmbH',
    type: 'BUSINESS',
    address: deAddress,
    wire: { bankIdType: 'BIC', bankId: 'COBADEFFXXX', accountNumber: numbers.iban, bankName: 'Commerzbank AG', bankAddress: deAddress },
  });
  const transfer = { accountId: account.id, currency: 'USD' };
  // The pull is answered pending and completes only at the sandbox's pace (some suites stop it): the debits below are
  // covered by a simulated inbound credit, which completes at once.
  await unwrap(
    d.POST('/finance/api/v1/simulations/inbound-transfer', {
      body: { accountId: account.id, amount: 50_000, currency: 'USD', rail: 'ACH', originatorName: `${label} Funding` },
    }),
  );
  await unwrap(d.POST('/finance/api/v1/transaction/ach/pull', { body: { ...transfer, counterpartyId: achCounterparty, amount: 50_000 } }));
  const achPush = await unwrap(
    d.POST('/finance/api/v1/transaction/ach/push', { body: { ...transfer, counterpartyId: achCounterparty, amount: 100 } }),
  );
  await unwrap(
    d.POST('/finance/api/v1/transaction/wire/domestic', { body: { ...transfer, counterpartyId: abaCounterparty, amount: 200 } }),
  );
  await unwrap(
    d.POST('/finance/api/v1/transaction/wire/international', {
      body: { ...transfer, counterpartyId: bicCounterparty, amount: 300, purposeOfPayment: 'GOODS' },
    }),
  );
  await unwrap(d.POST('/finance/api/v1/transaction/internal/transfer', { body: { ...transfer, toAccountId: reserve.id, amount: 400 } }));

  // Group C: an ACH and a wire recipient of the merchant, and a payment to the first.
  const recipientAddress = {
    line1: '350 Fifth Avenue',
    city: 'New York',
    state: 'NY',
    postalCode: '10118',
    countryCode: 'US',
    type: 'RESIDENCE' as const,
  };
  const achRecipient = await unwrap(
    c.POST('/finance/v1/recipient-ach', {
      body: {
        email: 'recipient@example.com',
        name: `${label} Recipient`,
        type: 'INDIVIDUAL',
        merchantId: merchant.merchantId,
        ach: { accountNumber: numbers.recipient, bankAccountType: 'CHECKING', routingNumber: '021000021', address: recipientAddress },
      },
    }),
  );
  const wireRecipient = await unwrap(
    c.POST('/finance/v1/recipient-wire', {
      body: {
        email: 'wire@example.com',
        name: `${label} Wire Recipient`,
        phone: '+12065550123',
        type: 'BUSINESS',
        paymentMethodType: 'DOMESTIC_WIRE',
        merchantId: merchant.merchantId,
        wire: {
          ...{
            type: 'DOMESTIC',
            beneficiaryFIIdType: 'ABA',
            receiverRoutingNumber: '026009593',
            beneficiaryFIName: 'Bank of America, N.A.',
          },
          ...{
            beneficiaryAccountNumber: numbers.wireRecipient,
            beneficiaryIdNumber: beneficiaryId,
            address: { ...recipientAddress, type: 'BUSINESS' },
          },
        },
      },
    }),
  );
  const partnerPayment = await unwrap(
    c.POST('/finance/v1/payment_request', {
      body: {
        payeeId: achRecipient.id,
        merchantAccountNumber: numbers.merchantAccount,
        amount: 12.5,
        currency: 'USD',
        paymentMethodType: 'STANDARD',
        description: 'commission',
        merchantId: merchant.merchantId,
        partnerPaymentUniqueId: `${label}-1`,
      },
    }),
  );

  // Group E: a counterparty with an ID number, and a payment to it.
  const counterpartyE = await unwrap(
    e.POST('/finance/v1/payee', {
      body: {
        merchantId: merchant.merchantId,
        name: `${label} Counterparty`,
        email: 'cp@example.com',
        phone: '+12125550143',
        PaymentMethodType: 'STANDARD',
        type: 'BUSINESS',
        idNumber: counterpartyEin,
        idType: 'EIN',
        ach: {
          accountNumber: numbers.counterparty,
          bankAccountType: 'CHECKING',
          routingNumber: '021000021',
          address: { ...recipientAddress, type: 'BUSINESS' },
        },
      },
    }),
  );
  const counterpartyPayment = await unwrap(
    e.POST('/finance/v1/payment_request', {
      body: {
        payeeId: counterpartyE.id,
        amount: 7,
        currency: 'USD',
        paymentMethodType: 'SAME_DAY',
        description: 'refund',
        merchantId: merchant.merchantId,
      },
    }),
  );
  const [event] = (await unwrap(a.GET('/v1/events', { params: { query: { PageSize: 1 } } }))).data;
  // The partner follows its payment requests: a signed registration, and its events.
  const partnerWebhook = await unwrap(
    c.POST('/finance/v1/webhooks', { body: { url: `https://hooks.${label.toLowerCase()}.example/payments`, signed: true } }),
  );
  const [partnerEvent] = (await unwrap(c.GET('/finance/v1/events', { params: { query: { PageSize: 1 } } }))).data;

  return {
    label,
    merchantId: merchant.merchantId,
    partnerId: partner.partnerId,
    merchantCredentials: mc,
    partnerCredentials: pc,
    merchantToken: (await s.tokens.issue({ kind: 'merchant', merchantId: merchant.merchantId, clientId: merchant.clientId })).access_token,
    partnerToken: (await s.tokens.issue({ kind: 'partner', partnerId: partner.partnerId, clientId: partner.clientId })).access_token,
    a,
    b,
    c,
    d,
    e,
    ids: {
      payee: payee.id,
      payeeAccount: payeeAccount.PayeeAccountId,
      ibanAccount: ibanAccount.PayeeAccountId,
      payout: payout.PayoutUniqueReference,
      webhook: webhook.id,
      event: event!.id,
      partnerWebhook: partnerWebhook.id,
      partnerEvent: partnerEvent!.id,
      platformPayee: platformPayee.id,
      business: business.id,
      account: account.id,
      reserveAccount: reserve.id,
      achCounterparty,
      abaCounterparty,
      bicCounterparty,
      transfer: achPush.id,
      verification: verification.id,
      documentVerification: documentVerification.id,
      achRecipient: achRecipient.id,
      wireRecipient: wireRecipient.id,
      partnerPayment: partnerPayment.paymentId,
      counterparty: counterpartyE.id,
      counterpartyPayment: counterpartyPayment.paymentId,
    },
    accountNumbers: { operating: numbers.operating, reserve: numbers.funding },
    sensitive: [
      ...Object.values(numbers),
      ...[ssn, ssn.replace(/-/g, ''), passport, merchant.clientSecret, partner.clientSecret],
      // Tax and ID numbers, masked alike in every group (the counterparty's EIN is also group A's payee taxId).
      ...[payeeSsn, payeeSsn.replace(/-/g, ''), beneficiaryId, counterpartyEin, counterpartyEin.replace(/-/g, '')],
    ],
    webhookSecret: webhook.secret!,
  };
}

// OWASP API1:2023 Broken Object Level Authorisation, across groups A to E on each store. Two tenants
// (a merchant and its partner each) hold one of everything. For every operation that takes an object id in
// its path, or an id of a merchant, partner or owned object in its body or query, the intruder names the
// owner's object and gets 404, exactly as for an object that does not exist; filters naming the owner's
// objects find nothing. Afterwards the owner's data reads the same and no table has gained a row.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { unsettled } from '../support/settled-events.js';
import type { RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { servedOperations } from '../support/operations.js';
import { problemType, send, type Answer, type Call } from '../support/requests.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

interface Case {
  group: string;
  operationId: string;
  what: string;
  method: string;
  /** Built from the owner (o) and the intruder (i); sent with the intruder's token of the group's kind. */
  path: (o: Tenant, i: Tenant) => string;
  call?: (o: Tenant, i: Tenant) => Omit<Call, 'token'>;
  /** 404 for a named object; `filtered` for a list or search, which answers 200 without the owner's data;
   * 422 where the contract refuses a number that is not the caller's as a business rule. */
  expect: 404 | 422 | 'filtered';
}

const address = { addressLine: '1 Intruder Way', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' };
const bankAccount = {
  type: 'BANK_ACCOUNT',
  accountHolderName: 'Intruder',
  bankName: 'First Hudson Bank',
  routingNumber: '021000021',
  accountNumber: '999988887777',
  accountType: 'CHECKINGS',
  Currency: 'USD',
};
const usAddress = { line1: '1 Intruder Way', line2: null, city: 'New York', state: 'NY', postalCode: '10001', countryCode: 'US' };
const recipientAch = { accountNumber: '999988887777', bankAccountType: 'CHECKING', routingNumber: '021000021' };
const recipient = (merchantId: number, extra: object = {}) => ({
  email: 'x@example.com',
  name: 'Intruder Recipient',
  type: 'INDIVIDUAL',
  merchantId,
  ach: recipientAch,
  ...extra,
});
const wireRecipient = (merchantId: number) => ({
  email: 'x@example.com',
  name: 'Intruder Wire',
  phone: '+12065550123',
  type: 'BUSINESS',
  paymentMethodType: 'DOMESTIC_WIRE',
  merchantId,
  wire: {
    type: 'DOMESTIC',
    beneficiaryFIIdType: 'ABA',
    receiverRoutingNumber: '026009593',
    beneficiaryFIName: 'Bank',
    beneficiaryAccountNumber: '999988887777',
    address: { line1: '1 Way', city: 'Seattle', state: 'WA', postalCode: '98101', countryCode: 'US', type: 'BUSINESS' },
  },
});
const payment = (merchantId: number, payeeId: number, extra: object = {}) => ({
  payeeId,
  amount: 5,
  currency: 'USD',
  paymentMethodType: 'STANDARD',
  description: 'steal',
  merchantId,
  ...extra,
});
const transfer = (accountId: number, counterpartyId: number) => ({ accountId, counterpartyId, amount: 5, currency: 'USD' });
const body = (b: (o: Tenant, i: Tenant) => unknown) => (o: Tenant, i: Tenant) => ({ body: b(o, i) });

const cases: Case[] = [
  // Group A: payees, their accounts, payouts and webhooks of another merchant.
  {
    group: 'merchant',
    operationId: 'getPayee',
    what: "the owner's payee",
    method: 'GET',
    path: (o) => `/v1/payees/${o.ids.payee}`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'updatePayee',
    what: "the owner's payee",
    method: 'PATCH',
    path: (o) => `/v1/payees/${o.ids.payee}`,
    call: body(() => ({ name: 'Hijacked', address })),
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'listPayeeAccounts',
    what: "the owner's payee",
    method: 'GET',
    path: (o) => `/v1/payees/${o.ids.payee}/accounts`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'createPayeeAccount',
    what: "the owner's payee",
    method: 'POST',
    path: (o) => `/v1/payees/${o.ids.payee}/accounts`,
    call: body(() => bankAccount),
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'getPayeeAccount',
    what: "the owner's payee and account",
    method: 'GET',
    path: (o) => `/v1/payees/${o.ids.payee}/accounts/${o.ids.payeeAccount}`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'getPayeeAccount',
    what: "the owner's account under its own payee",
    method: 'GET',
    path: (o, i) => `/v1/payees/${i.ids.payee}/accounts/${o.ids.payeeAccount}`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'updatePayeeAccount',
    what: "the owner's account",
    method: 'PATCH',
    path: (o) => `/v1/payees/${o.ids.payee}/accounts/${o.ids.payeeAccount}`,
    call: body(() => bankAccount),
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'updatePayeeAccount',
    what: "the owner's account under its own payee",
    method: 'PATCH',
    path: (o, i) => `/v1/payees/${i.ids.payee}/accounts/${o.ids.payeeAccount}`,
    call: body(() => bankAccount),
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'disablePayeeAccount',
    what: "the owner's account",
    method: 'DELETE',
    path: (o) => `/v1/payees/${o.ids.payee}/accounts/${o.ids.payeeAccount}`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'disablePayeeAccount',
    what: "the owner's account under its own payee",
    method: 'DELETE',
    path: (o, i) => `/v1/payees/${i.ids.payee}/accounts/${o.ids.ibanAccount}`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'getPayout',
    what: "the owner's payout",
    method: 'GET',
    path: (o) => `/v1/payouts/${o.ids.payout}`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'cancelPayout',
    what: "the owner's payout",
    method: 'POST',
    path: (o) => `/v1/payouts/${o.ids.payout}/cancel`,
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'createPayout',
    what: "a payout to the owner's payee",
    method: 'POST',
    path: () => '/v1/payouts',
    call: body((o) => ({ PayeeId: o.ids.payee, Amount: 5, Currency: 'USD' })),
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'createPayout',
    what: "a payout to its own payee into the owner's account",
    method: 'POST',
    path: () => '/v1/payouts',
    call: body((o, i) => ({ PayeeId: i.ids.payee, PayeeAccountId: o.ids.payeeAccount, Amount: 5, Currency: 'USD' })),
    expect: 404,
  },
  {
    group: 'merchant',
    operationId: 'listPayouts',
    what: "payouts to the owner's payee",
    method: 'GET',
    path: () => '/v1/payouts',
    call: (o) => ({ query: { PayeeId: o.ids.payee } }),
    expect: 'filtered',
  },
  {
    group: 'merchant',
    operationId: 'listPayees',
    what: "payees named like the owner's",
    method: 'POST',
    path: () => '/v1/payees/list',
    call: body((o) => ({ name: o.label })),
    expect: 'filtered',
  },
  { group: 'merchant', operationId: 'listWebhooks', what: 'webhooks', method: 'GET', path: () => '/v1/webhooks', expect: 'filtered' },
  {
    group: 'merchant',
    operationId: 'deleteWebhook',
    what: "the owner's webhook",
    method: 'DELETE',
    path: () => '/v1/webhooks',
    call: (o) => ({ query: { id: o.ids.webhook } }),
    expect: 404,
  },
  ...(
    [
      ['getWebhook', 'GET', ''],
      ['updateWebhook', 'PATCH', ''],
      ['rotateWebhookSecret', 'POST', '/rotate-secret'],
      ['testWebhook', 'POST', '/test'],
      ['listWebhookDeliveries', 'GET', '/deliveries'],
    ] as const
  ).map(
    ([operationId, method, rest]): Case => ({
      group: 'merchant',
      operationId,
      what: "the owner's webhook",
      method,
      path: (o) => `/v1/webhooks/${o.ids.webhook}${rest}`,
      ...(method === 'PATCH' ? { call: body(() => ({ enabled: false, events: ['payout.created'] })) } : {}),
      expect: 404,
    }),
  ),
  {
    group: 'merchant',
    operationId: 'redeliverWebhookDelivery',
    what: "the owner's webhook and event",
    method: 'POST',
    path: (o) => `/v1/webhooks/${o.ids.webhook}/deliveries/${o.ids.event}/redeliver`,
    expect: 404,
  },
  // The owner's payout through either payout group: read, and driven by the sandbox's test helpers.
  ...(['merchant', 'platform'] as const).flatMap((group): Case[] => {
    const base = group === 'platform' ? '/payouts' : '';
    const simulations = [
      ['simulatePayoutReturn', '/return', { ReturnCode: 'R03' }],
      ['simulatePayoutFailure', '/failure', { Reason: 'account_frozen' }],
      ['simulatePayoutRelease', '/release', undefined],
    ] as const;
    return [
      ...(group === 'platform'
        ? [
            {
              group,
              operationId: 'getPayout',
              what: "the owner's payout",
              method: 'GET',
              path: (o) => `${base}/v1/payouts/${o.ids.payout}`,
              expect: 404,
            } satisfies Case,
          ]
        : []),
      ...simulations.map(
        ([operationId, rest, payload]): Case => ({
          group,
          operationId,
          what: "the owner's payout",
          method: 'POST',
          path: (o) => `${base}/v1/simulations/payouts/${o.ids.payout}${rest}`,
          ...(payload ? { call: body(() => payload) } : {}),
          expect: 404,
        }),
      ),
    ];
  }),
  ...(['merchant', 'platform'] as const).flatMap((group): Case[] => {
    const base = group === 'platform' ? '/payouts' : '';
    return [
      {
        group,
        operationId: 'getEvent',
        what: "the owner's event",
        method: 'GET',
        path: (o) => `${base}/v1/events/${o.ids.event}`,
        expect: 404,
      },
      {
        group,
        operationId: 'listEvents',
        what: "events of the owner's payout",
        method: 'GET',
        path: () => `${base}/v1/events`,
        call: (o) => ({ query: { PayoutUniqueReference: o.ids.payout } }),
        expect: 'filtered',
      },
      { group, operationId: 'listEvents', what: 'events', method: 'GET', path: () => `${base}/v1/events`, expect: 'filtered' },
    ];
  }),

  // Group B: the same payees and payouts under /payouts.
  {
    group: 'platform',
    operationId: 'getPayee',
    what: "the owner's payee",
    method: 'GET',
    path: (o) => `/payouts/v1/payees/${o.ids.platformPayee}`,
    expect: 404,
  },
  {
    group: 'platform',
    operationId: 'createPayout',
    what: "a payout to the owner's payee",
    method: 'POST',
    path: () => '/payouts/v1/payouts',
    call: body((o) => ({ PayeeId: o.ids.platformPayee, Amount: 5, Currency: 'USD' })),
    expect: 404,
  },
  {
    group: 'platform',
    operationId: 'listPayouts',
    what: "payouts to the owner's payee",
    method: 'GET',
    path: () => '/payouts/v1/payouts',
    call: (o) => ({ query: { PayeeId: o.ids.payee } }),
    expect: 'filtered',
  },
  {
    group: 'platform',
    operationId: 'listPayees',
    what: "payees named like the owner's",
    method: 'POST',
    path: () => '/payouts/v1/payees/list',
    call: body((o) => ({ name: o.label })),
    expect: 'filtered',
  },

  // Group C: the owner's merchant, partner id, recipients and payments.
  {
    group: 'partner',
    operationId: 'listPartnerMerchants',
    what: "the owner's partner id",
    method: 'GET',
    path: () => '/finance/v1/partner/list',
    call: (o) => ({ query: { partnerId: o.partnerId } }),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createAchRecipient',
    what: "a recipient of the owner's merchant",
    method: 'POST',
    path: () => '/finance/v1/recipient-ach',
    call: body((o) => recipient(o.merchantId)),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createAchRecipient',
    what: "its own merchant under the owner's partner id",
    method: 'POST',
    path: () => '/finance/v1/recipient-ach',
    call: body((o, i) => recipient(i.merchantId, { partnerId: o.partnerId })),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createWireRecipient',
    what: "a recipient of the owner's merchant",
    method: 'POST',
    path: () => '/finance/v1/recipient-wire',
    call: body((o) => wireRecipient(o.merchantId)),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createWireRecipient',
    what: "its own merchant under the owner's partner id",
    method: 'POST',
    path: () => '/finance/v1/recipient-wire',
    call: body((o, i) => ({ ...wireRecipient(i.merchantId), partnerId: o.partnerId })),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'listRecipients',
    what: "the owner's merchant",
    method: 'GET',
    path: () => '/finance/v1/payees',
    call: (o) => ({ query: { MerchantId: o.merchantId } }),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'listRecipients',
    what: "the owner's partner id",
    method: 'GET',
    path: () => '/finance/v1/payees',
    call: (o) => ({ query: { PartnerId: o.partnerId } }),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'listRecipients',
    what: 'recipients named like the owner',
    method: 'GET',
    path: () => '/finance/v1/payees',
    call: (o) => ({ query: { SearchText: o.label } }),
    expect: 'filtered',
  },
  {
    group: 'partner',
    operationId: 'createPaymentRequest',
    what: "a payment for the owner's merchant",
    method: 'POST',
    path: () => '/finance/v1/payment_request',
    call: body((o) => payment(o.merchantId, o.ids.achRecipient)),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createPaymentRequest',
    what: "a payment from its own merchant to the owner's recipient",
    method: 'POST',
    path: () => '/finance/v1/payment_request',
    call: body((o, i) => payment(i.merchantId, o.ids.achRecipient)),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createPaymentRequest',
    what: "a payment from its own merchant to the owner's group A payee",
    method: 'POST',
    path: () => '/finance/v1/payment_request',
    call: body((o, i) => payment(i.merchantId, o.ids.payee)),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'createPaymentRequest',
    what: "its own payment under the owner's partner id",
    method: 'POST',
    path: () => '/finance/v1/payment_request',
    call: body((o, i) => payment(i.merchantId, i.ids.achRecipient, { partnerId: o.partnerId })),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'searchPartnerTransactions',
    what: "the owner's merchant",
    method: 'POST',
    path: () => '/finance/v1/partner/search_transactions',
    call: body((o) => ({ merchantId: o.merchantId })),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'searchPartnerTransactions',
    what: "the owner's partner id",
    method: 'POST',
    path: () => '/finance/v1/partner/search_transactions',
    call: body((o) => ({ partnerId: o.partnerId })),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'searchPartnerTransactions',
    what: "the owner's payment id",
    method: 'POST',
    path: () => '/finance/v1/partner/search_transactions',
    call: body((o) => ({ paymentId: o.ids.partnerPayment })),
    expect: 'filtered',
  },
  {
    group: 'partner',
    operationId: 'updateRecipient',
    what: "the owner's recipient",
    method: 'PATCH',
    path: (o) => `/finance/v1/payees/${o.ids.achRecipient}`,
    call: body(() => ({ name: 'Hijacked', ach: { accountNumber: '999988887777' } })),
    expect: 404,
  },
  {
    group: 'partner',
    operationId: 'updateRecipient',
    what: "the owner's group E counterparty",
    method: 'PATCH',
    path: (o) => `/finance/v1/payees/${o.ids.counterparty}`,
    call: body(() => ({ email: 'hijacked@example.com' })),
    expect: 404,
  },

  // Group D: the owner's business, accounts and counterparties, alone or mixed with the intruder's own.
  {
    group: 'banking',
    operationId: 'getBusiness',
    what: "the owner's business",
    method: 'GET',
    path: (o) => `/finance/api/v1/business/${o.ids.business}`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createIdentityVerification',
    what: "the owner's business",
    method: 'POST',
    path: () => '/finance/api/v1/identity-verification',
    call: body((o) => ({ businessId: o.ids.business, subject: 'BUSINESS' })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createBankingCounterparty',
    what: "the owner's business",
    method: 'POST',
    path: () => '/finance/api/v1/counterparty',
    call: body((o) => ({
      businessId: o.ids.business,
      name: 'Intruder Inc.',
      type: 'BUSINESS',
      address: usAddress,
      ach: { routingNumber: '021000021', accountNumber: '999988887777', accountType: 'CHECKING' },
    })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createAccount',
    what: "the owner's business",
    method: 'POST',
    path: (o) => `/finance/api/v1/account/${o.ids.business}`,
    call: body(() => ({ accountName: 'Mine now' })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createAccount',
    what: "its own business funded from the owner's account number",
    method: 'POST',
    path: (_, i) => `/finance/api/v1/account/${i.ids.business}`,
    call: body((o) => ({ accountName: 'Siphon', fundingAccountNumber: o.accountNumbers.operating })),
    expect: 422,
  },
  {
    group: 'banking',
    operationId: 'getAccountBalance',
    what: "the owner's account",
    method: 'GET',
    path: (o) => `/finance/api/v1/account/${o.ids.account}/balance`,
    expect: 404,
  },
  ...(['ach/pull', 'ach/push', 'wire/domestic'] as const).flatMap((rail): Case[] => {
    const operationId = { 'ach/pull': 'createAchPull', 'ach/push': 'createAchPush', 'wire/domestic': 'createDomesticWire' }[rail];
    const counterparty = (t: Tenant) => (rail === 'wire/domestic' ? t.ids.abaCounterparty : t.ids.achCounterparty);
    const path = () => `/finance/api/v1/transaction/${rail}`;
    return [
      {
        group: 'banking',
        operationId,
        what: "the owner's account and counterparty",
        method: 'POST',
        path,
        call: body((o) => transfer(o.ids.account, counterparty(o))),
        expect: 404,
      },
      {
        group: 'banking',
        operationId,
        what: "its own account with the owner's counterparty",
        method: 'POST',
        path,
        call: body((o, i) => transfer(i.ids.account, counterparty(o))),
        expect: 404,
      },
      {
        group: 'banking',
        operationId,
        what: "the owner's account with its own counterparty",
        method: 'POST',
        path,
        call: body((o, i) => transfer(o.ids.account, counterparty(i))),
        expect: 404,
      },
    ];
  }),
  {
    group: 'banking',
    operationId: 'createInternationalWire',
    what: "its own account with the owner's counterparty",
    method: 'POST',
    path: () => '/finance/api/v1/transaction/wire/international',
    call: body((o, i) => ({ ...transfer(i.ids.account, o.ids.bicCounterparty), purposeOfPayment: 'GOODS' })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createInternationalWire',
    what: "the owner's account with its own counterparty",
    method: 'POST',
    path: () => '/finance/api/v1/transaction/wire/international',
    call: body((o, i) => ({ ...transfer(o.ids.account, i.ids.bicCounterparty), purposeOfPayment: 'GOODS' })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createInternalTransfer',
    what: "from the owner's account into its own",
    method: 'POST',
    path: () => '/finance/api/v1/transaction/internal/transfer',
    call: body((o, i) => ({ accountId: o.ids.account, toAccountId: i.ids.account, amount: 5, currency: 'USD' })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'createInternalTransfer',
    what: "from its own account into the owner's",
    method: 'POST',
    path: () => '/finance/api/v1/transaction/internal/transfer',
    call: body((o, i) => ({ accountId: i.ids.account, toAccountId: o.ids.account, amount: 5, currency: 'USD' })),
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'listBusinesses',
    what: 'businesses',
    method: 'GET',
    path: () => '/finance/api/v1/business',
    expect: 'filtered',
  },
  {
    group: 'banking',
    operationId: 'listBusinessAccounts',
    what: "the owner's business",
    method: 'GET',
    path: (o) => `/finance/api/v1/business/${o.ids.business}/accounts`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'listBankingCounterparties',
    what: "the owner's business",
    method: 'GET',
    path: (o) => `/finance/api/v1/business/${o.ids.business}/counterparties`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'getAccount',
    what: "the owner's business and account",
    method: 'GET',
    path: (o) => `/finance/api/v1/business/${o.ids.business}/accounts/${o.ids.account}`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'getAccount',
    what: "the owner's account under its own business",
    method: 'GET',
    path: (o, i) => `/finance/api/v1/business/${i.ids.business}/accounts/${o.ids.account}`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'getIdentityVerification',
    what: "the owner's verification",
    method: 'GET',
    path: (o) => `/finance/api/v1/identity-verification/${o.ids.verification}`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'getBankingCounterparty',
    what: "the owner's counterparty",
    method: 'GET',
    path: (o) => `/finance/api/v1/counterparty/${o.ids.bicCounterparty}`,
    expect: 404,
  },
  ...(
    [
      ['getAccountNumbers', '/numbers'],
      ['listAccountTransfers', '/transactions'],
      ['listAccountLedgerEntries', '/ledger-entries'],
    ] as const
  ).map(
    ([operationId, rest]): Case => ({
      group: 'banking',
      operationId,
      what: "the owner's account",
      method: 'GET',
      path: (o) => `/finance/api/v1/account/${o.ids.account}${rest}`,
      expect: 404,
    }),
  ),
  {
    group: 'banking',
    operationId: 'getTransfer',
    what: "the owner's transfer",
    method: 'GET',
    path: (o) => `/finance/api/v1/transaction/${o.ids.transfer}`,
    expect: 404,
  },
  {
    group: 'banking',
    operationId: 'simulateInboundTransfer',
    what: "a credit into the owner's account",
    method: 'POST',
    path: () => '/finance/api/v1/simulations/inbound-transfer',
    call: body((o) => ({ accountId: o.ids.account, amount: 5, currency: 'USD', rail: 'ACH', originatorName: 'Intruder' })),
    expect: 404,
  },
  ...(
    [
      ['simulateTransferSettlement', 'settlement', { status: 'failed' }],
      ['simulateTransferReturn', 'return', { returnCode: 'R01' }],
      ['simulateNotificationOfChange', 'notification-of-change', { changeCode: 'C01', correctedData: { accountNumber: '999988887777' } }],
    ] as const
  ).map(
    ([operationId, step, request]): Case => ({
      group: 'banking',
      operationId,
      what: "the owner's transfer",
      method: 'POST',
      path: (o) => `/finance/api/v1/simulations/transfers/${o.ids.transfer}/${step}`,
      call: body(() => request),
      expect: 404,
    }),
  ),
  {
    group: 'banking',
    operationId: 'simulateVerificationDecision',
    what: "the owner's verification",
    method: 'POST',
    path: (o) => `/finance/api/v1/simulations/identity-verification/${o.ids.verification}/decision`,
    call: body(() => ({ status: 'approved' })),
    expect: 404,
  },

  // Group E: counterparties and payments of the owner's merchant.
  {
    group: 'counterparty',
    operationId: 'createCounterparty',
    what: "a counterparty of the owner's merchant",
    method: 'POST',
    path: () => '/finance/v1/payee',
    call: body((o) => ({
      merchantId: o.merchantId,
      name: 'Intruder',
      email: 'x@example.com',
      PaymentMethodType: 'STANDARD',
      type: 'INDIVIDUAL',
      ach: recipientAch,
    })),
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'createPaymentRequest',
    what: "a payment to the owner's counterparty",
    method: 'POST',
    path: () => '/finance/v1/payment_request',
    call: body((o) => payment(o.merchantId, o.ids.counterparty)),
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'createPaymentRequest',
    what: "a payment from its own merchant to the owner's counterparty",
    method: 'POST',
    path: () => '/finance/v1/payment_request',
    call: body((o, i) => payment(i.merchantId, o.ids.counterparty)),
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'searchTransactions',
    what: "the owner's merchant as customer",
    method: 'POST',
    path: () => '/finance/v1/search_transactions',
    call: body((o) => ({ customerId: o.merchantId })),
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'searchTransactions',
    what: "the owner's counterparty",
    method: 'POST',
    path: () => '/finance/v1/search_transactions',
    call: body((o) => ({ counterpartyId: o.ids.counterparty })),
    expect: 'filtered',
  },
  {
    group: 'counterparty',
    operationId: 'searchTransactions',
    what: "the owner's payment id",
    method: 'POST',
    path: () => '/finance/v1/search_transactions',
    call: body((o) => ({ paymentId: String(o.ids.counterpartyPayment) })),
    expect: 'filtered',
  },
  {
    group: 'counterparty',
    operationId: 'listCounterparties',
    what: "the owner's merchant",
    method: 'GET',
    path: () => '/finance/v1/payee',
    call: (o) => ({ query: { MerchantId: o.merchantId } }),
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'listCounterparties',
    what: 'counterparties',
    method: 'GET',
    path: () => '/finance/v1/payee',
    expect: 'filtered',
  },
  {
    group: 'counterparty',
    operationId: 'getCounterparty',
    what: "the owner's counterparty",
    method: 'GET',
    path: (o) => `/finance/v1/payee/${o.ids.counterparty}`,
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'getCounterparty',
    what: "the owner's group C recipient",
    method: 'GET',
    path: (o) => `/finance/v1/payee/${o.ids.achRecipient}`,
    expect: 404,
  },
  {
    group: 'counterparty',
    operationId: 'updateCounterparty',
    what: "the owner's counterparty",
    method: 'PATCH',
    path: (o) => `/finance/v1/payee/${o.ids.counterparty}`,
    call: body(() => ({ name: 'Hijacked', ach: { accountNumber: '999988887777' } })),
    expect: 404,
  },
  ...(['partner', 'counterparty'] as const).flatMap((group): Case[] =>
    (['partnerPayment', 'counterpartyPayment'] as const).flatMap((payment): Case[] => [
      {
        group,
        operationId: 'getPayment',
        what: `the owner's ${payment === 'partnerPayment' ? 'recipient' : 'counterparty'} payment`,
        method: 'GET',
        path: (o) => `/finance/v1/payment_request/${o.ids[payment]}`,
        expect: 404,
      },
      {
        group,
        operationId: 'cancelPayment',
        what: `the owner's ${payment === 'partnerPayment' ? 'recipient' : 'counterparty'} payment`,
        method: 'POST',
        path: (o) => `/finance/v1/payment_request/${o.ids[payment]}/cancel`,
        expect: 404,
      },
      {
        group,
        operationId: 'simulatePaymentReturn',
        what: `the owner's ${payment === 'partnerPayment' ? 'recipient' : 'counterparty'} payment`,
        method: 'POST',
        path: (o) => `/finance/v1/simulations/payment_request/${o.ids[payment]}/return`,
        call: body(() => ({ returnCode: 'R03' })),
        expect: 404,
      },
      {
        group,
        operationId: 'simulatePaymentNotificationOfChange',
        what: `the owner's ${payment === 'partnerPayment' ? 'recipient' : 'counterparty'} payment`,
        method: 'POST',
        path: (o) => `/finance/v1/simulations/payment_request/${o.ids[payment]}/notification-of-change`,
        call: body(() => ({ changeCode: 'C01', correctedData: { accountNumber: '999988887777' } })),
        expect: 404,
      },
    ]),
  ),
  // The partner's webhook registrations and events, through either partner group (one operation set).
  ...(['partner', 'counterparty'] as const).flatMap((group): Case[] => [
    { group, operationId: 'listPartnerWebhooks', what: 'webhooks', method: 'GET', path: () => '/finance/v1/webhooks', expect: 'filtered' },
    {
      group,
      operationId: 'deletePartnerWebhook',
      what: "the owner's webhook",
      method: 'DELETE',
      path: () => '/finance/v1/webhooks',
      call: (o) => ({ query: { id: o.ids.partnerWebhook } }),
      expect: 404,
    },
    ...(
      [
        ['getPartnerWebhook', 'GET', ''],
        ['updatePartnerWebhook', 'PATCH', ''],
        ['rotatePartnerWebhookSecret', 'POST', '/rotate-secret'],
        ['testPartnerWebhook', 'POST', '/test'],
        ['listPartnerWebhookDeliveries', 'GET', '/deliveries'],
      ] as const
    ).map(
      ([operationId, method, rest]): Case => ({
        group,
        operationId,
        what: "the owner's webhook",
        method,
        path: (o) => `/finance/v1/webhooks/${o.ids.partnerWebhook}${rest}`,
        ...(method === 'PATCH' ? { call: body(() => ({ enabled: false, events: ['payment.created'] })) } : {}),
        expect: 404,
      }),
    ),
    {
      group,
      operationId: 'redeliverPartnerWebhookDelivery',
      what: "the owner's webhook and event",
      method: 'POST',
      path: (o) => `/finance/v1/webhooks/${o.ids.partnerWebhook}/deliveries/${o.ids.partnerEvent}/redeliver`,
      expect: 404,
    },
    {
      group,
      operationId: 'getPartnerEvent',
      what: "the owner's event",
      method: 'GET',
      path: (o) => `/finance/v1/events/${o.ids.partnerEvent}`,
      expect: 404,
    },
    {
      group,
      operationId: 'getPartnerEvent',
      what: "the owner's merchant's event",
      method: 'GET',
      path: (o) => `/finance/v1/events/${o.ids.event}`,
      expect: 404,
    },
    { group, operationId: 'listPartnerEvents', what: 'events', method: 'GET', path: () => '/finance/v1/events', expect: 'filtered' },
  ]),
];

/** Whether an operation names an object or a merchant or partner, and so must have a case above. The console's
 * credential operations name a Client ID of the session's owner: test/server/console-credentials.test.ts makes
 * another owner's one answer 404 and stay as it was. */
const namesAnObject = (o: (typeof servedOperations)[number]) =>
  o.caller !== 'none' &&
  o.caller !== 'console' &&
  (o.parameters.some((p) => p.in === 'path' || /^(merchant|partner|customer)id$/i.test(p.name)) ||
    [...Object.keys(o.bodySchema?.properties ?? {})].some((n) => /^(merchant|partner|customer)id$/i.test(n)));

/**
 * The owner with every id, number and name swapped for one that exists for nobody, in the same format: a case
 * built from it must be answered exactly as the case built from the owner (a foreign object is a missing one).
 */
function ghostOf(o: Tenant): Tenant {
  const none = 999_999;
  const nobody = (prefix: string) => `${prefix}_${'0'.repeat(26)}`;
  const ids = Object.fromEntries(Object.entries(o.ids).map(([k, v]) => [k, typeof v === 'number' ? none : v])) as Tenant['ids'];
  return {
    ...o,
    label: 'Nobody',
    merchantId: none,
    partnerId: none,
    ids: {
      ...ids,
      payeeAccount: nobody('pa'),
      ibanAccount: nobody('pa'),
      payout: nobody('po'),
      webhook: '00000000-0000-4000-8000-000000000000',
      event: nobody('evt'),
      partnerWebhook: '00000000-0000-4000-8000-000000000001',
      partnerEvent: nobody('evt'),
    },
    accountNumbers: { operating: '100000000008', reserve: '100000000018' },
  };
}

/** An answer with what names the object written the same way, so two answers differ only in what they say. */
function comparable(a: Answer, named: Tenant): { status: number; body: string } {
  let text = JSON.stringify(a.body === undefined ? a.text : { ...a.body, instance: undefined, requestId: undefined });
  for (const id of Object.values(named.ids).filter((v) => typeof v === 'string')) text = text.replaceAll(id, '<id>');
  return { status: a.status, body: text.replaceAll(named.label, '<label>').replace(/\d+/g, 'N') };
}

/** Everything the owner can read of its own, as it reads it (balances' read times left out, wherever they are). */
async function ownerView(service: RunningService, o: Tenant): Promise<unknown[]> {
  const m = { token: o.merchantToken };
  const p = { token: o.partnerToken };
  const account = `/finance/api/v1/account/${o.ids.account}`;
  const reads = await Promise.all([
    send(service.baseUrl, 'GET', `/v1/payees/${o.ids.payee}`, m),
    send(service.baseUrl, 'GET', `/v1/payees/${o.ids.payee}/accounts`, m),
    send(service.baseUrl, 'POST', '/v1/payees/list', { ...m, body: {} }),
    send(service.baseUrl, 'GET', '/v1/payouts', m),
    send(service.baseUrl, 'GET', '/v1/webhooks', m),
    send(service.baseUrl, 'GET', `/v1/webhooks/${o.ids.webhook}`, m),
    send(service.baseUrl, 'GET', '/v1/events', m),
    send(service.baseUrl, 'GET', '/finance/api/v1/business', m),
    send(service.baseUrl, 'GET', `/finance/api/v1/business/${o.ids.business}`, m),
    send(service.baseUrl, 'GET', `/finance/api/v1/business/${o.ids.business}/accounts`, m),
    send(service.baseUrl, 'GET', `/finance/api/v1/business/${o.ids.business}/counterparties`, m),
    send(service.baseUrl, 'GET', `/finance/api/v1/identity-verification/${o.ids.verification}`, m),
    send(service.baseUrl, 'GET', `${account}/balance`, m),
    send(service.baseUrl, 'GET', `${account}/transactions`, m),
    send(service.baseUrl, 'GET', `${account}/ledger-entries`, m),
    send(service.baseUrl, 'GET', `/finance/api/v1/account/${o.ids.reserveAccount}/balance`, m),
    send(service.baseUrl, 'GET', `/finance/api/v1/transaction/${o.ids.transfer}`, m),
    send(service.baseUrl, 'GET', '/finance/v1/partner/list', p),
    send(service.baseUrl, 'GET', '/finance/v1/payees', p),
    send(service.baseUrl, 'GET', `/finance/v1/payment_request/${o.ids.partnerPayment}`, p),
    send(service.baseUrl, 'POST', '/finance/v1/partner/search_transactions', { ...p, body: {} }),
    send(service.baseUrl, 'GET', '/finance/v1/payee', p),
    send(service.baseUrl, 'GET', `/finance/v1/payee/${o.ids.counterparty}`, p),
    send(service.baseUrl, 'GET', `/finance/v1/payment_request/${o.ids.counterpartyPayment}`, p),
    send(service.baseUrl, 'POST', '/finance/v1/search_transactions', { ...p, body: {} }),
    send(service.baseUrl, 'GET', '/finance/v1/webhooks', p),
    send(service.baseUrl, 'GET', `/finance/v1/webhooks/${o.ids.partnerWebhook}`, p),
    send(service.baseUrl, 'GET', '/finance/v1/events', p),
  ]);
  for (const r of reads) expect(r.status, r.text).toBe(200);
  // The signing secrets are never readable over HTTP: a rotation would show only in the store.
  const secrets = await service.services.store.db
    .selectFrom('webhooks')
    .select(['secret', 'previous_secret', 'previous_secret_until'])
    .where('id', '=', o.ids.webhook)
    .executeTakeFirstOrThrow();
  return [...reads.map((r) => JSON.parse(r.text, (key, value) => (key === 'asOf' ? undefined : value))), secrets];
}

async function rowCounts(service: RunningService): Promise<Record<string, number>> {
  const db = service.services.store.db;
  const tables = (await db.introspection.getTables())
    .map((t) => t.name)
    // request_logs records every request that authenticated, refused ones included (the console's request log).
    .filter((n) => !n.startsWith('kysely_') && n !== 'request_logs')
    .sort();
  const counts: Record<string, number> = {};
  for (const table of tables)
    counts[table] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
  return counts;
}

describe.each(stores)('API1 object-level authorisation on $name', (kind) => {
  // Payouts and payments stay where they are for the whole suite, so any change is the intruder's doing.
  const service = useService(kind, { sandboxStepMs: 3_600_000 }, { resolve: loopbackResolver });
  let owner: Tenant;
  let intruder: Tenant;
  let viewBefore: unknown[];
  let rowsBefore: Record<string, number>;

  beforeAll(async () => {
    owner = await newTenant(service, 'Owner');
    intruder = await newTenant(service, 'Intruder');
    // The tenants' own events are still being delivered (a row per delivery): counted once that is done.
    await vi.waitFor(async () => expect(await unsettled(service.services.store, { deliveriesOnly: true })).toEqual([]), {
      timeout: 60_000,
      interval: 20,
    });
    viewBefore = await ownerView(service, owner);
    rowsBefore = await rowCounts(service);
  }, 180_000);

  it('has a case for every operation that names an object, a merchant or a partner', () => {
    const uncovered = servedOperations
      .filter(namesAnObject)
      .filter((o) => !cases.some((c) => c.group === o.group && c.operationId === o.operationId));
    expect(uncovered.map((o) => `${o.group} ${o.operationId}`)).toEqual([]);
  });

  it.each(cases.map((c) => [`${c.group} ${c.operationId}: ${c.what}`, c] as const))('%s', async (_, c) => {
    const caller = servedOperations.find((o) => o.group === c.group && o.operationId === c.operationId)!.caller;
    const token = caller === 'partner' ? intruder.partnerToken : intruder.merchantToken;
    const path = c.path(owner, intruder);
    const call = c.call?.(owner, intruder) ?? {};
    const answer: Answer = await service.send(c.method, path, { ...call, token });
    // The same request naming objects that exist for nobody gets the same answer, ids aside.
    const ghost = ghostOf(owner);
    const missing = await service.send(c.method, c.path(ghost, intruder), { ...c.call?.(ghost, intruder), token });
    expect(comparable(answer, owner), 'answered like a missing object').toEqual(comparable(missing, ghost));
    if (c.expect === 'filtered') expect(answer.status, answer.text).toBe(200);
    else {
      expect(answer.status, answer.text).toBe(c.expect);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body.type).toBe(problemType(c.expect === 404 ? 'not-found' : 'invalid-funding-account'));
    }
    // Nothing of the owner's comes back, not even in a problem's detail, beyond what the intruder itself sent.
    const sent = path + JSON.stringify(call);
    const markers = [
      owner.label,
      owner.ids.payout,
      owner.ids.webhook,
      owner.ids.partnerWebhook,
      owner.ids.partnerEvent,
      owner.ids.payeeAccount,
      owner.ids.ibanAccount,
      owner.merchantCredentials.clientId,
      owner.partnerCredentials.clientId,
      ...owner.sensitive,
    ];
    for (const marker of markers.filter((m) => !sent.includes(m))) expect(answer.text).not.toContain(marker);
  });

  it("leaves the owner's data as it was, and no table has gained a row", async () => {
    expect(await ownerView(service, owner)).toEqual(viewBefore);
    expect(await rowCounts(service)).toEqual(rowsBefore);
  });

  it('answers an id that exists for another tenant exactly as one that exists for nobody', async () => {
    const foreign = await service.send('GET', `/v1/payees/${owner.ids.payee}`, { token: intruder.merchantToken });
    const missing = await service.send('GET', '/v1/payees/999999', { token: intruder.merchantToken });
    const strip = (a: Answer) => ({ ...a.body, detail: a.body.detail.replace(/\d+/g, 'N'), instance: undefined, requestId: undefined });
    expect(strip(foreign)).toEqual(strip(missing));
    const foreignAccount = await service.send('GET', `/finance/api/v1/account/${owner.ids.account}/balance`, {
      token: intruder.merchantToken,
    });
    const missingAccount = await service.send('GET', '/finance/api/v1/account/999999/balance', { token: intruder.merchantToken });
    expect(strip(foreignAccount)).toEqual(strip(missingAccount));
  });
});

// Async iterators over the paginated lists: every item of every page, fetched a page at a time.
//   for await (const payout of eachPayout(merchant, { Status: 'completed' })) { ... }
import type { components as MerchantSchemas, operations as MerchantOperations } from '../generated/merchant/schema.js';
import type { components as PartnerSchemas, operations as PartnerOperations } from '../generated/partner/schema.js';
import type { operations as CounterpartyOperations } from '../generated/counterparty/schema.js';
import type { operations as BankingOperations } from '../generated/banking/schema.js';
import type { BankingClient, CounterpartyClient, MerchantClient, PartnerClient, PlatformClient } from './create-clients.js';
import { unwrap } from './problem-error.js';

type PayoutQuery = Omit<NonNullable<MerchantOperations['listPayouts']['parameters']['query']>, 'Cursor'>;
type EventQuery = Omit<NonNullable<MerchantOperations['listEvents']['parameters']['query']>, 'Cursor'>;
type DeliveryQuery = Omit<NonNullable<MerchantOperations['listWebhookDeliveries']['parameters']['query']>, 'Cursor'>;
type PayeeFilters = Omit<MerchantSchemas['schemas']['PayeeListRequest'], 'pageNumber'>;
type RecipientQuery = Omit<NonNullable<PartnerOperations['listRecipients']['parameters']['query']>, 'PageNumber'>;
type PartnerSearch = Omit<PartnerSchemas['schemas']['PartnerTransactionSearchRequest'], 'pageNumber'>;
type CounterpartySearch = Omit<
  NonNullable<CounterpartyOperations['searchTransactions']['requestBody']>['content']['application/json'],
  'pageNumber'
>;
type PartnerEventQuery = Omit<NonNullable<PartnerOperations['listPartnerEvents']['parameters']['query']>, 'Cursor'>;
type PartnerDeliveryQuery = Omit<NonNullable<PartnerOperations['listPartnerWebhookDeliveries']['parameters']['query']>, 'Cursor'>;
type CounterpartyQuery = Omit<NonNullable<CounterpartyOperations['listCounterparties']['parameters']['query']>, 'Cursor'>;

/**
 * The pager of every paginated list, by operationId: the docs list them, and test/client/pagers.test.ts checks that
 * each list of the contract (a cursor page or a page number) has one.
 */
export const pagers = {
  listPayouts: 'eachPayout',
  listEvents: 'eachEvent',
  listWebhookDeliveries: 'eachWebhookDelivery',
  listPartnerEvents: 'eachPartnerEvent',
  listPartnerWebhookDeliveries: 'eachPartnerWebhookDelivery',
  listPayees: 'eachPayee',
  listRecipients: 'eachRecipient',
  searchPartnerTransactions: 'eachPartnerTransaction',
  searchTransactions: 'eachTransaction',
  listCounterparties: 'eachCounterparty',
  listBusinesses: 'eachBusiness',
  listBusinessAccounts: 'eachBusinessAccount',
  listBankingCounterparties: 'eachBankingCounterparty',
  listAccountTransfers: 'eachAccountTransfer',
  listAccountLedgerEntries: 'eachAccountLedgerEntry',
} as const;

/** Payouts, newest first, following `nextCursor` (groups A and B). */
export function eachPayout(client: MerchantClient | PlatformClient, query: PayoutQuery = {}) {
  return byCursor((Cursor) => unwrap((client as MerchantClient).GET('/v1/payouts', { params: { query: { ...query, Cursor } } })));
}

/** Events of the last 30 days, newest first, following `nextCursor` (groups A and B): how a receiver catches up. */
export function eachEvent(client: MerchantClient | PlatformClient, query: EventQuery = {}) {
  return byCursor((Cursor) => unwrap((client as MerchantClient).GET('/v1/events', { params: { query: { ...query, Cursor } } })));
}

/** One registration's deliveries, newest first, following `nextCursor` (group A). */
export function eachWebhookDelivery(client: MerchantClient, webhookId: string, query: DeliveryQuery = {}) {
  return byCursor((Cursor) =>
    unwrap(client.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { ...query, Cursor } } })),
  );
}

/**
 * A partner's events of the last 30 days (its payment requests' `payment.*` and `noc.received`, and its tests), newest
 * first, following `nextCursor` (groups C and E): how a partner's receiver catches up.
 */
export function eachPartnerEvent(client: PartnerClient | CounterpartyClient, query: PartnerEventQuery = {}) {
  return byCursor((Cursor) => unwrap((client as PartnerClient).GET('/finance/v1/events', { params: { query: { ...query, Cursor } } })));
}

/** One of a partner's registrations' deliveries, newest first, following `nextCursor` (groups C and E). */
export function eachPartnerWebhookDelivery(
  client: PartnerClient | CounterpartyClient,
  webhookId: string,
  query: PartnerDeliveryQuery = {},
) {
  return byCursor((Cursor) =>
    unwrap(
      (client as PartnerClient).GET('/finance/v1/webhooks/{id}/deliveries', {
        params: { path: { id: webhookId }, query: { ...query, Cursor } },
      }),
    ),
  );
}

/** Payees matching the filters, page by page until a short page (groups A and B). */
export function eachPayee(client: MerchantClient | PlatformClient, filters: PayeeFilters = {}) {
  const pageSize = filters.pageSize ?? 100;
  return byPageNumber(async (pageNumber) => ({
    data: await unwrap((client as MerchantClient).POST('/v1/payees/list', { body: { ...filters, pageSize, pageNumber } })),
    pageSize,
  }));
}

/**
 * Every item of a page-numbered list, from page 1 until the pages have given `totalCount` items, or, for a list that
 * answers no total (the payee list's bare array), until a page shorter than `pageSize`.
 */
async function* byPageNumber<T>(fetchPage: (pageNumber: number) => Promise<{ data: T[]; totalCount?: number; pageSize: number }>) {
  for (let pageNumber = 1, seen = 0; ; pageNumber++) {
    const page = await fetchPage(pageNumber);
    yield* page.data;
    seen += page.data.length;
    const ended = page.totalCount === undefined ? page.data.length < page.pageSize : seen >= page.totalCount;
    if (page.data.length === 0 || ended) return;
  }
}

/** A partner's recipients (group C). */
export function eachRecipient(client: PartnerClient, query: RecipientQuery = {}) {
  return byPageNumber((PageNumber) =>
    unwrap(client.GET('/finance/v1/payees', { params: { query: { PageSize: 100, ...query, PageNumber } } })),
  );
}

/** Payments of the partner's linked merchants (group C). */
export function eachPartnerTransaction(client: PartnerClient, search: PartnerSearch = {}) {
  return byPageNumber((pageNumber) =>
    unwrap(client.POST('/finance/v1/partner/search_transactions', { body: { pageSize: 100, ...search, pageNumber } })),
  );
}

/** Payment history matching the filters (group E). */
export function eachTransaction(client: CounterpartyClient, search: CounterpartySearch = {}) {
  return byPageNumber((pageNumber) =>
    unwrap(client.POST('/finance/v1/search_transactions', { body: { pageSize: 100, ...search, pageNumber } })),
  );
}

/** Counterparties of the partner's linked merchants, newest first, following `nextCursor` (group E). */
export function eachCounterparty(client: CounterpartyClient, query: CounterpartyQuery = {}) {
  return byCursor((Cursor) => unwrap(client.GET('/finance/v1/payee', { params: { query: { ...query, Cursor } } })));
}

type BankingQuery<Id extends keyof BankingOperations> = Omit<NonNullable<BankingOperations[Id]['parameters']['query']>, 'Cursor'>;

/**
 * Every item of a cursor-paged list (`{ data, nextCursor }`), following `nextCursor` until it is null: the pagers
 * below, and any other list of that shape (`fetchPage` gets the cursor, undefined for the first page).
 */
export async function* byCursor<T>(fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>) {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** The merchant's businesses, newest first (group D). */
export function eachBusiness(client: BankingClient, query: BankingQuery<'listBusinesses'> = {}) {
  return byCursor((Cursor) => unwrap(client.GET('/finance/api/v1/business', { params: { query: { ...query, Cursor } } })));
}

/** One business's accounts, newest first (group D). */
export function eachBusinessAccount(client: BankingClient, businessId: number, query: BankingQuery<'listBusinessAccounts'> = {}) {
  return byCursor((Cursor) =>
    unwrap(client.GET('/finance/api/v1/business/{id}/accounts', { params: { path: { id: businessId }, query: { ...query, Cursor } } })),
  );
}

/** One business's counterparties, newest first (group D). */
export function eachBankingCounterparty(client: BankingClient, businessId: number, query: BankingQuery<'listBankingCounterparties'> = {}) {
  return byCursor((Cursor) =>
    unwrap(
      client.GET('/finance/api/v1/business/{id}/counterparties', { params: { path: { id: businessId }, query: { ...query, Cursor } } }),
    ),
  );
}

/** One account's transfers matching the filters, newest first (group D). */
export function eachAccountTransfer(client: BankingClient, accountId: number, query: BankingQuery<'listAccountTransfers'> = {}) {
  return byCursor((Cursor) =>
    unwrap(
      client.GET('/finance/api/v1/account/{accountId}/transactions', { params: { path: { accountId }, query: { ...query, Cursor } } }),
    ),
  );
}

/** One account's statement: its ledger entries, newest first (group D). */
export function eachAccountLedgerEntry(client: BankingClient, accountId: number, query: BankingQuery<'listAccountLedgerEntries'> = {}) {
  return byCursor((Cursor) =>
    unwrap(
      client.GET('/finance/api/v1/account/{accountId}/ledger-entries', { params: { path: { accountId }, query: { ...query, Cursor } } }),
    ),
  );
}

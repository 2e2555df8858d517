// Async iterators over the paginated lists: every item of every page, fetched a page at a time.
//   for await (const payout of eachPayout(merchant, { Status: 'completed' })) { ... }
import type { components as MerchantSchemas, operations as MerchantOperations } from '../generated/merchant/schema.js';
import type { components as PartnerSchemas, operations as PartnerOperations } from '../generated/partner/schema.js';
import type { operations as CounterpartyOperations } from '../generated/counterparty/schema.js';
import type { CounterpartyClient, MerchantClient, PartnerClient, PlatformClient } from './create-clients.js';
import { unwrap } from './problem-error.js';

type PayoutQuery = Omit<NonNullable<MerchantOperations['listPayouts']['parameters']['query']>, 'Cursor'>;
type PayeeFilters = Omit<MerchantSchemas['schemas']['PayeeListRequest'], 'pageNumber'>;
type RecipientQuery = Omit<NonNullable<PartnerOperations['listRecipients']['parameters']['query']>, 'PageNumber'>;
type PartnerSearch = Omit<PartnerSchemas['schemas']['PartnerTransactionSearchRequest'], 'pageNumber'>;
type CounterpartySearch = Omit<
  NonNullable<CounterpartyOperations['searchTransactions']['requestBody']>['content']['application/json'],
  'pageNumber'
>;

/** Payouts, newest first, following `nextCursor` (groups A and B). */
export async function* eachPayout(client: MerchantClient | PlatformClient, query: PayoutQuery = {}) {
  let cursor: string | undefined;
  do {
    const page = await unwrap((client as MerchantClient).GET('/v1/payouts', { params: { query: { ...query, Cursor: cursor } } }));
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** Payees matching the filters, page by page until a short page (groups A and B). */
export async function* eachPayee(client: MerchantClient | PlatformClient, filters: PayeeFilters = {}) {
  const pageSize = filters.pageSize ?? 100;
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await unwrap((client as MerchantClient).POST('/v1/payees/list', { body: { ...filters, pageSize, pageNumber } }));
    yield* page;
    if (page.length < pageSize) return;
  }
}

async function* byPageNumber<T>(fetchPage: (pageNumber: number) => Promise<{ data: T[]; totalCount: number; pageSize: number }>) {
  for (let pageNumber = 1, seen = 0; ; pageNumber++) {
    const page = await fetchPage(pageNumber);
    yield* page.data;
    seen += page.data.length;
    if (page.data.length === 0 || seen >= page.totalCount) return;
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

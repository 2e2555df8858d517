// Group D's reads over real HTTP with the generated client, on each store: every business, verification,
// counterparty, account and transfer a create answered reads back the same; the lists walk every item once, newest
// first, and filter; bad filters and cursors are 400 naming the parameter; another merchant's records are 404; an
// account's ledger entries (its statement) add up to its balance; and the full account number leaves only through
// getAccountNumbers, whose reads are logged without it. Nothing is mocked.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createBankingClient, type BankingClient } from '../../client/create-clients.js';
import {
  eachAccountLedgerEntry,
  eachAccountTransfer,
  eachBankingCounterparty,
  eachBusiness,
  eachBusinessAccount,
} from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/banking/schema.js';
import { stores } from '../support/stores.js';
import { operationsOf } from '../support/contract.js';
import { useService } from '../support/use-service.js';

type Schemas = components['schemas'];
type Transfer = Schemas['Transfer'];

const notFound = 'https://payouts.example/problems/not-found';
const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
let taxIds = 0;
const ein = () => `${String(30 + (++taxIds % 60))}-${String(taxIds).padStart(3, '0')}4567`;
const businessBody = (legalName: string) => ({
  legalName,
  entityType: 'LLC' as const,
  taxId: ein(),
  formationDate: '2019-03-14',
  incorporationCountry: 'US',
  incorporationState: 'DE',
  address: usAddress,
  phone: '+13125550198',
  email: 'treasury@northwind.example',
});

const collect = async <T>(items: AsyncIterable<T>) => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};
const cents = (amount: string) => Math.round(Number(amount) * 100);
const withoutAsOf = <T extends { asOf: string }>({ asOf: _, ...rest }: T) => rest;
/** A transfer without what changes as it moves on (its state, the later entries, the balance now). */
function atCreation(t: Transfer) {
  const { status: _s, updatedOn: _u, accountBalance: _b, reasons: _r, ledgerEntries, ach, wire, ...rest } = t;
  const extra = rest as Record<string, unknown>;
  for (const later of ['returnCode', 'returnedOn', 'notificationOfChange']) delete extra[later];
  return {
    ...rest,
    ach: ach && { ...ach, traceNumber: undefined },
    wire: wire && { ...wire, imad: undefined, uetr: undefined },
    ledgerEntries: ledgerEntries.slice(0, 2).map(({ status: _, ...entry }) => entry),
  };
}

describe.each(stores)('banking reads on $name', (kind) => {
  const service = useService(kind, {}, { logLevel: 'info' });
  let acme: BankingClient;
  let other: BankingClient;
  /** A bearer token of acme's, for requests the typed client cannot send (invalid queries). */
  let acmeToken: string;
  /** Every response the acme client received, for the search for full account numbers. */
  const answered: { method: string; path: string; text: string; status: number; location: string | null }[] = [];

  const w = {} as {
    businesses: Schemas['Business'][];
    verifications: Schemas['IdentityVerification'][];
    counterparties: Schemas['Counterparty'][];
    operating: Schemas['Account'];
    reserve: Schemas['Account'];
    operatingNumber: string;
    reservePreset: string;
    transfers: Transfer[];
    sweepId: number;
  };

  const client = async (name: string, record = false) => {
    const c = await service.services.credentials.createMerchant(name);
    if (record) acmeToken = await service.token({ kind: 'merchant', merchantId: c.merchantId, clientId: c.clientId });
    const recording = async (request: Request) => {
      const response = await fetch(request);
      answered.push({
        method: request.method,
        path: new URL(request.url).pathname,
        text: await response.clone().text(),
        status: response.status,
        location: response.headers.get('location'),
      });
      return response;
    };
    return createBankingClient({
      baseUrl: service.baseUrl,
      credentials: { clientId: c.clientId, clientSecret: c.clientSecret },
      ...(record ? { fetch: recording } : {}),
    });
  };
  const balance = (accountId: number) =>
    unwrap(acme.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId } } }));
  const getTransfer = (c: BankingClient, transferId: number) =>
    c.GET('/finance/api/v1/transaction/{transferId}', { params: { path: { transferId } } });
  const listTransfers = (accountId: number, query: Record<string, unknown>) =>
    acme.GET('/finance/api/v1/account/{accountId}/transactions', { params: { path: { accountId }, query } });
  const ids = (items: { id: number }[]) => items.map((x) => x.id);
  const newestFirst = (items: { id: number }[]) => [...ids(items)].sort((a, b) => b - a);
  /** Waits until none of the account's transfers is still on its way (the sandbox may pace them). */
  const settled = (accountId: number) =>
    vi.waitFor(async () => expect(await collect(eachAccountTransfer(acme, accountId, { Status: ['pending', 'processing'] }))).toEqual([]), {
      timeout: 10_000,
      interval: 20,
    });

  beforeAll(async () => {
    acme = await client('Acme', true);
    other = await client('Other');
    await unwrap(other.POST('/finance/api/v1/business', { body: businessBody('Other Holdings LLC') }));

    w.businesses = [];
    for (const name of ['Northwind Logistics LLC', 'Bluegill Outfitters LLC', 'Harbor Freight LLC'])
      w.businesses.push(await unwrap(acme.POST('/finance/api/v1/business', { body: businessBody(name) })));
    const businessId = w.businesses[0]!.id;
    w.verifications = [
      await unwrap(acme.POST('/finance/api/v1/identity-verification', { body: { businessId, subject: 'BUSINESS' } })),
      await unwrap(
        acme.POST('/finance/api/v1/identity-verification', {
          body: {
            businessId: w.businesses[2]!.id,
            subject: 'PERSON',
            person: {
              firstName: 'Dana',
              lastName: 'Review',
              dateOfBirth: '1981-07-22',
              address: usAddress,
              taxId: '612-34-5678',
              roles: ['BENEFICIAL_OWNER'],
              ownershipPercentage: 40,
            },
          },
        }),
      ),
    ];
    const ach = { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' as const };
    w.counterparties = [
      await unwrap(acme.POST('/finance/api/v1/counterparty', { body: { businessId, name: 'Acme Supplies Inc.', type: 'BUSINESS', ach } })),
      await unwrap(
        acme.POST('/finance/api/v1/counterparty', {
          body: { businessId, name: 'Maria Gonzalez', type: 'INDIVIDUAL', ach: { ...ach, accountNumber: '55501234' } },
        }),
      ),
      await unwrap(
        acme.POST('/finance/api/v1/counterparty', {
          body: {
            businessId,
            name: 'Harbor Freight Partners LLC',
            type: 'BUSINESS',
            address: usAddress,
            wire: { bankIdType: 'ABA', bankId: '026009593', accountNumber: '4455667788', bankName: 'Bank of America, N.A.' },
          },
        }),
      ),
    ];
    // The business was approved, so accounts open. The operating account's number is the bank's: the owner reads it
    // to name the operating account as the reserve's funding account.
    await unwrap(acme.POST('/finance/api/v1/identity-verification', { body: { businessId: w.businesses[1]!.id, subject: 'BUSINESS' } }));
    await unwrap(acme.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: w.businesses[1]!.id } }, body: {} }));
    const open = (body: Schemas['AccountCreateRequest']) =>
      unwrap(acme.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId } }, body }));
    w.operating = await open({ accountName: 'Operating' });
    w.operatingNumber = (
      await unwrap(acme.GET('/finance/api/v1/account/{accountId}/numbers', { params: { path: { accountId: w.operating.id } } }))
    ).accountNumber;
    w.reservePreset = `88${String(Date.now()).slice(-10)}`;
    w.reserve = await open({
      accountName: 'Tax reserve',
      accountType: 'SAVINGS',
      fundingAccountNumber: w.operatingNumber,
      presetAccountNumber: w.reservePreset,
    });

    const [supplier, person, harbor] = w.counterparties.map((c) => c.id) as [number, number, number];
    const op = w.operating.id;
    const usd = { currency: 'USD' };
    const funding = await unwrap(
      acme.POST('/finance/api/v1/transaction/ach/pull', { body: { accountId: op, counterpartyId: supplier, amount: 1000, ...usd } }),
    );
    // Pulled money is available once the pull completes: follow it with getTransfer.
    await vi.waitFor(async () => expect((await unwrap(getTransfer(acme, funding.id))).status).toBe('completed'), {
      timeout: 10_000,
      interval: 20,
    });
    w.transfers = [
      funding,
      await unwrap(
        acme.POST('/finance/api/v1/transaction/ach/push', { body: { accountId: op, counterpartyId: person, amount: 100, ...usd } }),
      ),
      await unwrap(
        acme.POST('/finance/api/v1/transaction/wire/domestic', { body: { accountId: op, counterpartyId: harbor, amount: 50, ...usd } }),
      ),
      await unwrap(
        acme.POST('/finance/api/v1/transaction/internal/transfer', {
          body: { accountId: op, toAccountId: w.reserve.id, amount: 200, ...usd },
        }),
      ),
      // The sandbox fails an amount ending in .92 (its hold voided) and returns one ending in .91 (a reversing pair).
      await unwrap(
        acme.POST('/finance/api/v1/transaction/ach/push', { body: { accountId: op, counterpartyId: supplier, amount: 10.92, ...usd } }),
      ),
      await unwrap(
        acme.POST('/finance/api/v1/transaction/ach/push', { body: { accountId: op, counterpartyId: supplier, amount: 20.91, ...usd } }),
      ),
    ];
    // The reserve holds 200.00: the rest of this push is swept from its funding account, the operating account.
    const swept = await unwrap(
      acme.POST('/finance/api/v1/transaction/ach/push', {
        body: { accountId: w.reserve.id, counterpartyId: supplier, amount: 300, ...usd },
      }),
    );
    w.transfers.push(swept);
    w.sweepId = swept.fundingTransferId!;
    expect(w.sweepId).toEqual(expect.any(Number));
    await settled(op);
    await settled(w.reserve.id);
  }, 60_000);

  it('sends, on every create, a Location whose read answers the created record (the contract documents it on every 201)', async () => {
    for (const { path, op } of operationsOf('banking').filter((o) => o.op.responses['201']))
      expect(Object.keys(op.responses['201'].headers ?? {}), `${path} 201`).toContain('Location');
    const creates = answered.filter((a) => a.method === 'POST' && a.status === 201);
    // Every kind of create the world made: business, verification, counterparty, account and each kind of transfer.
    expect(new Set(creates.map((c) => c.path.replace(/\/[0-9]+$/, '')))).toEqual(
      new Set([
        '/finance/api/v1/business',
        '/finance/api/v1/identity-verification',
        '/finance/api/v1/counterparty',
        '/finance/api/v1/account',
        '/finance/api/v1/transaction/ach/pull',
        '/finance/api/v1/transaction/ach/push',
        '/finance/api/v1/transaction/wire/domestic',
        '/finance/api/v1/transaction/internal/transfer',
      ]),
    );
    for (const c of creates) {
      const created = JSON.parse(c.text) as { id: number };
      expect(c.location, c.path).toMatch(/^\/finance\/api\/v1\//);
      const read = await fetch(`${service.baseUrl}${c.location}`, { headers: { Authorization: `Bearer ${acmeToken}` } });
      expect(read.status, `GET ${c.location}`).toBe(200);
      expect(((await read.json()) as { id: number }).id, `GET ${c.location}`).toBe(created.id);
    }
  });

  it('reads back businesses, verifications, counterparties and accounts as their creates answered them', async () => {
    const [northwind] = w.businesses;
    // Verifications change nothing else of the business than its verificationStatus and updatedOn.
    const listed = await collect(eachBusiness(acme, { PageSize: 2 }));
    expect(ids(listed)).toEqual(newestFirst(w.businesses));
    expect(listed.at(-1)).toEqual({ ...northwind, verificationStatus: 'approved', updatedOn: expect.any(String) });
    expect(listed[0]!.verificationStatus).toBe('needs_review');

    for (const v of w.verifications)
      expect(
        await unwrap(acme.GET('/finance/api/v1/identity-verification/{verificationId}', { params: { path: { verificationId: v.id } } })),
      ).toEqual(v);
    expect(w.verifications.map((v) => v.status)).toEqual(['approved', 'needs_review']);

    for (const c of w.counterparties)
      expect(
        await unwrap(acme.GET('/finance/api/v1/counterparty/{counterpartyId}', { params: { path: { counterpartyId: c.id } } })),
      ).toEqual(c);
    expect(await collect(eachBankingCounterparty(acme, northwind!.id, { PageSize: 2 }))).toEqual([...w.counterparties].reverse());
    expect(await collect(eachBankingCounterparty(acme, w.businesses[2]!.id))).toEqual([]);

    for (const account of [w.operating, w.reserve]) {
      const read = await unwrap(
        acme.GET('/finance/api/v1/business/{id}/accounts/{accountId}', { params: { path: { id: northwind!.id, accountId: account.id } } }),
      );
      // The same account, with its balance now.
      expect({ ...read, balance: undefined }).toEqual({ ...account, balance: undefined });
      expect(withoutAsOf(read.balance)).toEqual(withoutAsOf(await balance(account.id)));
    }
    expect(w.reserve.fundingAccountId).toBe(w.operating.id);
    const accounts = await collect(eachBusinessAccount(acme, northwind!.id, { PageSize: 1 }));
    expect(ids(accounts)).toEqual([w.reserve.id, w.operating.id]);
  });

  it('reads back every transfer as its create answered it, and lists each of an account once, newest first', async () => {
    const reads: Transfer[] = [];
    for (const created of w.transfers) {
      const read = await unwrap(getTransfer(acme, created.id));
      reads.push(read);
      expect(atCreation(read)).toEqual(atCreation(created));
      // One that had reached its end at creation reads the same but for the balance, which is now's.
      if (read.status === created.status) expect({ ...read, accountBalance: undefined }).toEqual({ ...created, accountBalance: undefined });
      expect(withoutAsOf(read.accountBalance)).toEqual(withoutAsOf(await balance(created.accountBalance.accountId)));
    }
    // The sandbox decided each by its amount (they may have been answered pending, then moved on).
    expect(reads.map((t) => t.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'failed', 'returned', 'completed']);

    // The operating account's: all it made, the pull into it and the sweep that covered the reserve.
    const operating = await collect(eachAccountTransfer(acme, w.operating.id, { PageSize: 3 }));
    const expected = [...w.transfers.slice(0, 6).map((t) => t.id), w.sweepId].sort((a, b) => b - a);
    expect(ids(operating)).toEqual(expected);
    for (const listed of operating)
      expect(listed).toEqual({ ...(await unwrap(getTransfer(acme, listed.id))), accountBalance: expect.any(Object) });
    // The reserve's: the internal transfer into it, the sweep and its own push.
    const reserve = await collect(eachAccountTransfer(acme, w.reserve.id, { PageSize: 100 }));
    expect(ids(reserve)).toEqual([w.transfers[6]!.id, w.sweepId, w.transfers[3]!.id]);
    const sweep = reserve[1]!;
    expect(sweep).toMatchObject({
      type: 'INTERNAL',
      from: { accountId: w.operating.id },
      to: { accountId: w.reserve.id },
      amount: '100.00',
    });
  });

  it("filters an account's transfers by type, status and time", async () => {
    const all = await collect(eachAccountTransfer(acme, w.operating.id));
    const page = async (query: Record<string, unknown>) =>
      ids((await unwrap(listTransfers(w.operating.id, { PageSize: 100, ...query }))).data);
    const where = (keep: (t: Transfer) => boolean) => ids(all.filter(keep));

    expect(await page({ Type: ['ACH_PUSH'] })).toEqual(where((t) => t.type === 'ACH_PUSH'));
    expect(await page({ Type: ['ACH_PUSH'] })).toHaveLength(3);
    expect(await page({ Type: ['INTERNAL', 'WIRE_DOMESTIC'] })).toEqual(where((t) => t.type === 'INTERNAL' || t.type === 'WIRE_DOMESTIC'));
    expect(await page({ Status: ['failed'] })).toEqual([w.transfers[4]!.id]);
    expect(await page({ Status: ['returned', 'failed'], Type: ['ACH_PUSH'] })).toEqual([w.transfers[5]!.id, w.transfers[4]!.id]);
    expect(await page({ Type: ['WIRE_INTERNATIONAL'] })).toEqual([]);

    // From is inclusive, to exclusive.
    const from = all[4]!.createdOn;
    const to = new Date(Date.parse(all[2]!.createdOn) + 1).toISOString();
    const between = await page({ CreatedFrom: from, CreatedTo: to });
    expect(between).toEqual(where((t) => t.createdOn >= from && t.createdOn < to));
    expect(between).toEqual(expect.arrayContaining(ids(all.slice(2, 5))));
    expect(await page({ CreatedTo: all.at(-1)!.createdOn })).toEqual([]);
    expect(await page({ CreatedFrom: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    // Filters and paging together: every pushed transfer once.
    expect(ids(await collect(eachAccountTransfer(acme, w.operating.id, { Type: ['ACH_PUSH'], PageSize: 1 })))).toEqual(
      where((t) => t.type === 'ACH_PUSH'),
    );
  });

  it('refuses bad filters, page sizes and cursors with 400 naming the parameter', async () => {
    const refused = async (
      query: Record<string, unknown>,
      parameter: string,
      path = `/finance/api/v1/account/${w.operating.id}/transactions`,
      status = 400,
    ) => {
      const r = await fetch(`${service.baseUrl}${path}?${new URLSearchParams(query as Record<string, string>)}`, {
        headers: { authorization: `Bearer ${acmeToken}` },
      });
      const body = (await r.json()) as { errors?: { parameter?: string }[] };
      expect(r.status, `${path} ${JSON.stringify(query)}`).toBe(status);
      // An item of a repeated parameter is named by the parameter (`Type`, not `Type_0`).
      expect(body.errors?.map((e) => e.parameter)).toContain(parameter);
    };
    const businessCursor = (await unwrap(acme.GET('/finance/api/v1/business', { params: { query: { PageSize: 1 } } }))).nextCursor!;
    expect(businessCursor).toEqual(expect.any(String));
    await refused({ Type: 'ACH_TELEPORT' }, 'Type');
    await refused({ Status: 'lost' }, 'Status');
    await refused({ CreatedFrom: 'yesterday' }, 'CreatedFrom');
    // A range that ends before it starts contradicts itself: 422, like every contradicting filter.
    await refused({ CreatedFrom: '2026-11-02T15:00:00Z', CreatedTo: '2026-11-02T14:00:00Z' }, 'CreatedTo', undefined, 422);
    await refused({ PageSize: '0' }, 'PageSize');
    await refused({ PageSize: '101' }, 'PageSize');
    await refused({ Cursor: 'not*a*cursor' }, 'Cursor');
    await refused({ Cursor: Buffer.from('transfer:abc').toString('base64url') }, 'Cursor');
    // A cursor of another list is not one of this list's.
    await refused({ Cursor: businessCursor }, 'Cursor');
    await refused({ Cursor: businessCursor }, 'Cursor', `/finance/api/v1/account/${w.operating.id}/ledger-entries`);
    await refused({ Cursor: businessCursor }, 'Cursor', `/finance/api/v1/business/${w.businesses[0]!.id}/accounts`);
    await refused({ Cursor: businessCursor }, 'Cursor', `/finance/api/v1/business/${w.businesses[0]!.id}/counterparties`);
    await refused({ Status: 'settled' }, 'Status', `/finance/api/v1/account/${w.operating.id}/ledger-entries`);
    await refused({ Cursor: Buffer.from('entry:1').toString('base64url') }, 'Cursor', '/finance/api/v1/business');
  });

  it("lists the account's statement: its posted entries sum to the ledger balance, less pending debits to available", async () => {
    for (const account of [w.operating, w.reserve]) {
      const entries = await collect(eachAccountLedgerEntry(acme, account.id, { PageSize: 3 }));
      expect(ids(entries)).toEqual(newestFirst(entries));
      expect(new Set(ids(entries)).size).toBe(entries.length);
      expect(entries.every((e) => e.accountId === account.id && e.currency === 'USD')).toBe(true);
      expect(entries.map((e) => e.status).filter((s) => s !== 'pending' && s !== 'posted')).toEqual([]);
      const signed = (e: Schemas['AccountLedgerEntry']) => (e.direction === 'CREDIT' ? 1 : -1) * cents(e.amount);
      const posted = entries.filter((e) => e.status === 'posted');
      const pendingDebits = entries.filter((e) => e.status === 'pending' && e.direction === 'DEBIT');
      const now = await balance(account.id);
      expect(posted.reduce((sum, e) => sum + signed(e), 0)).toBe(cents(now.ledger));
      expect(posted.reduce((sum, e) => sum + signed(e), 0) - pendingDebits.reduce((sum, e) => sum + cents(e.amount), 0)).toBe(
        cents(now.available),
      );
      expect(posted.every((e) => e.postedOn !== null && e.postedOn >= e.createdOn)).toBe(true);
      // Each entry names one of the account's transfers.
      const transfers = ids(await collect(eachAccountTransfer(acme, account.id)));
      expect(transfers).toEqual(expect.arrayContaining([...new Set(entries.map((e) => e.transferId))]));
    }
    expect((await balance(w.operating.id)).ledger).toBe('550.00');

    // The failed push released its hold: its entry is voided, listed only when asked for.
    const failed = w.transfers[4]!.id;
    const voided = (
      await unwrap(
        acme.GET('/finance/api/v1/account/{accountId}/ledger-entries', {
          params: { path: { accountId: w.operating.id }, query: { Status: ['voided'] } },
        }),
      )
    ).data;
    expect(voided).toEqual([
      expect.objectContaining({ transferId: failed, direction: 'DEBIT', amount: '10.92', status: 'voided', postedOn: null }),
    ]);
    // The returned push: its debit and the reversing credit, both posted.
    const returned = (await collect(eachAccountLedgerEntry(acme, w.operating.id))).filter((e) => e.transferId === w.transfers[5]!.id);
    expect(returned.map((e) => [e.direction, e.amount, e.status])).toEqual([
      ['CREDIT', '20.91', 'posted'],
      ['DEBIT', '20.91', 'posted'],
    ]);
  });

  it("answers another merchant's records 404, like missing ones, and lists only its own", async () => {
    const [northwind] = w.businesses;
    const foreign = [
      getTransfer(other, w.transfers[0]!.id),
      other.GET('/finance/api/v1/account/{accountId}/transactions', { params: { path: { accountId: w.operating.id } } }),
      other.GET('/finance/api/v1/account/{accountId}/ledger-entries', { params: { path: { accountId: w.operating.id } } }),
      other.GET('/finance/api/v1/account/{accountId}/numbers', { params: { path: { accountId: w.operating.id } } }),
      other.GET('/finance/api/v1/business/{id}/accounts/{accountId}', {
        params: { path: { id: northwind!.id, accountId: w.operating.id } },
      }),
      other.GET('/finance/api/v1/business/{id}/accounts', { params: { path: { id: northwind!.id } } }),
      other.GET('/finance/api/v1/business/{id}/counterparties', { params: { path: { id: northwind!.id } } }),
      other.GET('/finance/api/v1/counterparty/{counterpartyId}', { params: { path: { counterpartyId: w.counterparties[0]!.id } } }),
      other.GET('/finance/api/v1/identity-verification/{verificationId}', { params: { path: { verificationId: w.verifications[0]!.id } } }),
    ];
    const missing = [
      getTransfer(acme, 9_000_000),
      acme.GET('/finance/api/v1/account/{accountId}/transactions', { params: { path: { accountId: 9_000_000 } } }),
      acme.GET('/finance/api/v1/account/{accountId}/ledger-entries', { params: { path: { accountId: 9_000_000 } } }),
      acme.GET('/finance/api/v1/account/{accountId}/numbers', { params: { path: { accountId: 9_000_000 } } }),
      acme.GET('/finance/api/v1/business/{id}/accounts/{accountId}', { params: { path: { id: 9_000_000, accountId: w.operating.id } } }),
      acme.GET('/finance/api/v1/business/{id}/accounts', { params: { path: { id: 9_000_000 } } }),
      acme.GET('/finance/api/v1/business/{id}/counterparties', { params: { path: { id: 9_000_000 } } }),
      acme.GET('/finance/api/v1/counterparty/{counterpartyId}', { params: { path: { counterpartyId: 9_000_000 } } }),
      acme.GET('/finance/api/v1/identity-verification/{verificationId}', { params: { path: { verificationId: 9_000_000 } } }),
    ];
    const shape = async (answer: Promise<{ response: Response; error?: unknown }>) => {
      const { response, error } = await answer;
      const problem = error as { type: string; errors?: { parameter?: string }[] };
      return { status: response.status, type: problem.type, at: problem.errors?.map((e) => e.parameter) };
    };
    const foreignShapes = await Promise.all(foreign.map(shape));
    expect(foreignShapes.every((s) => s.status === 404 && s.type === notFound)).toBe(true);
    expect(foreignShapes).toEqual(await Promise.all(missing.map(shape)));

    // An account of another business of the same merchant is not this business's.
    const elsewhere = await acme.GET('/finance/api/v1/business/{id}/accounts/{accountId}', {
      params: { path: { id: w.businesses[1]!.id, accountId: w.operating.id } },
    });
    expect(elsewhere.response.status).toBe(404);
    expect(elsewhere.error!.errors).toContainEqual(expect.objectContaining({ parameter: 'accountId' }));

    const theirs = await collect(eachBusiness(other));
    expect(theirs.map((b) => b.legalName)).toEqual(['Other Holdings LLC']);
  });

  it('gives the full account number only through getAccountNumbers, logged without the number', async () => {
    const { data, response } = await acme.GET('/finance/api/v1/account/{accountId}/numbers', {
      params: { path: { accountId: w.reserve.id } },
    });
    expect(data).toEqual({ accountId: w.reserve.id, accountNumber: w.reservePreset, routingNumber: '084101022' });
    expect(w.operatingNumber).toMatch(/^[1-9][0-9]{11}$/);
    expect(w.operatingNumber.endsWith(w.operating.accountNumber)).toBe(true);

    // Each read is in the log with who asked, for which account, under which request; the number is in no line.
    const reads = service.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'account numbers read');
    expect(reads).toContainEqual(
      expect.objectContaining({
        level: 30,
        accountId: w.reserve.id,
        merchantId: expect.any(Number),
        requestId: response.headers.get('x-request-id'),
      }),
    );
    expect(reads.map((r) => r.accountId)).toEqual([w.operating.id, w.reserve.id]);
    for (const number of [w.operatingNumber, w.reservePreset]) expect(service.logs.filter((l) => l.includes(number))).toEqual([]);

    // Every other answer the owner had (creates, reads, lists, refusals) shows at most the last 4 digits.
    const numbersPath = /^\/finance\/api\/v1\/account\/\d+\/numbers$/;
    expect(answered.filter((a) => !numbersPath.test(a.path)).length).toBeGreaterThan(60);
    for (const number of [w.operatingNumber, w.reservePreset]) {
      const carrying = answered.filter((a) => a.text.includes(number)).map((a) => `${a.method} ${a.path}`);
      expect(
        carrying.every((at) => numbersPath.test(at.split(' ')[1]!)),
        carrying.join('\n'),
      ).toBe(true);
      expect(carrying.length).toBeGreaterThan(0);
    }
  });
});

// The banking ledger's invariants over real HTTP with the generated client, on each store: every transfer's
// entries balance; every account's balance columns equal the sums of its entries; money is conserved over
// a long random (fixed-seed) sequence of transfers whose outcomes an independent model predicts (ACH and wires
// answered pending with their funds held, then followed to their ends); concurrent debits cannot overdraw an
// account; concurrent duplicates of one Idempotency-Key make one transfer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBankingClient, type BankingClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import type { components } from '../../generated/banking/schema.js';
import { settled } from '../support/settled-transfer.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

type TransferStatus = components['schemas']['TransferStatus'];

const insufficientFunds = 'https://payouts.example/problems/insufficient-funds';
let taxIds = 0;
const ein = () => {
  taxIds += 1;
  return `${String(30 + (taxIds % 69)).padStart(2, '0')}-${String(taxIds).padStart(3, '0')}7890`;
};
const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };

/** mulberry32: a small seeded generator, so the "random" sequence is the same on every run and store. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(stores)('banking ledger on $name', (kind) => {
  const service = useService(kind);
  let acme: BankingClient;

  const db = () => service.services.store.db;
  const business = async (c: BankingClient) => {
    const b = await unwrap(
      c.POST('/finance/api/v1/business', {
        body: {
          legalName: 'Ledger Test LLC',
          entityType: 'LLC',
          taxId: ein(),
          formationDate: '2020-01-01',
          incorporationCountry: 'US',
          incorporationState: 'NY',
          address: usAddress,
          phone: '+12125550100',
          email: 'ops@ledger.example',
        },
      }),
    );
    await unwrap(c.POST('/finance/api/v1/identity-verification', { body: { businessId: b.id, subject: 'BUSINESS' } }));
    const cp = await unwrap(
      c.POST('/finance/api/v1/counterparty', {
        body: {
          businessId: b.id,
          name: 'Clearing Partner Inc.',
          type: 'BUSINESS',
          address: usAddress,
          ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
          wire: { bankIdType: 'ABA', bankId: '026009593', accountNumber: '4455667788', bankName: 'Bank of America, N.A.' },
        },
      }),
    );
    return { businessId: b.id, counterpartyId: cp.id };
  };
  const openAccount = async (c: BankingClient, businessId: number) =>
    (await unwrap(c.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId } }, body: {} }))).id;
  /** An account holding `amount`: pulled in, and completed. */
  const fundedAccount = async (c: BankingClient, amount: number) => {
    const b = await business(c);
    const accountId = await openAccount(c, b.businessId);
    const pulled = await unwrap(
      c.POST('/finance/api/v1/transaction/ach/pull', { body: { accountId, counterpartyId: b.counterpartyId, amount, currency: 'USD' } }),
    );
    await settled(c, pulled.id, 'completed');
    return { ...b, accountId };
  };
  const balance = (c: BankingClient, accountId: number) =>
    unwrap(c.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId } } }));

  /**
   * The invariants, read from the store: each transfer's debits equal its credits; each account's ledger is
   * its posted credits minus posted debits and its available that minus its pending debits; the whole ledger
   * (business and settlement accounts) sums to zero.
   */
  const checkInvariants = async () => {
    const entries = await db().selectFrom('banking_ledger_entries').selectAll().execute();
    const byTransfer = new Map<number, { debit: number; credit: number }>();
    for (const e of entries) {
      const sums = byTransfer.get(Number(e.transfer_id)) ?? { debit: 0, credit: 0 };
      if (e.direction === 'DEBIT') sums.debit += Number(e.amount_minor);
      else sums.credit += Number(e.amount_minor);
      byTransfer.set(Number(e.transfer_id), sums);
    }
    const transfers = await db().selectFrom('banking_transfers').select(['id', 'status']).execute();
    expect(byTransfer.size).toBe(transfers.length);
    for (const [id, sums] of byTransfer) expect(sums.debit, `transfer ${id}`).toBe(sums.credit);

    const signed = (e: (typeof entries)[number]) => (e.direction === 'CREDIT' ? 1 : -1) * Number(e.amount_minor);
    const posted = entries.filter((e) => e.status === 'posted');
    expect(posted.reduce((sum, e) => sum + signed(e), 0)).toBe(0);
    for (const account of await db().selectFrom('banking_accounts').selectAll().execute()) {
      const mine = entries.filter((e) => e.account_id !== null && Number(e.account_id) === Number(account.id));
      const ledger = mine.filter((e) => e.status === 'posted').reduce((sum, e) => sum + signed(e), 0);
      const pendingDebits = mine
        .filter((e) => e.status === 'pending' && e.direction === 'DEBIT')
        .reduce((sum, e) => sum + Number(e.amount_minor), 0);
      expect(Number(account.ledger_minor), `ledger of account ${account.id}`).toBe(ledger);
      expect(Number(account.available_minor), `available of account ${account.id}`).toBe(ledger - pendingDebits);
      expect(Number(account.available_minor)).toBeGreaterThanOrEqual(0);
    }
    return { entries, posted };
  };

  beforeAll(async () => {
    const c = await service.services.credentials.createMerchant('Acme');
    acme = createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: c.clientId, clientSecret: c.clientSecret } });
  });
  afterAll(async () => {
    await checkInvariants();
  });

  it('conserves money over 240 random transfers between five accounts, each outcome as an independent model predicts', async () => {
    const first = await business(acme);
    const second = await business(acme);
    const accounts = [
      { id: await openAccount(acme, first.businessId), cp: first.counterpartyId },
      { id: await openAccount(acme, first.businessId), cp: first.counterpartyId },
      { id: await openAccount(acme, first.businessId), cp: first.counterpartyId },
      { id: await openAccount(acme, second.businessId), cp: second.counterpartyId },
      { id: await openAccount(acme, second.businessId), cp: second.counterpartyId },
    ];
    // The model: minor units per account, and the net money that came in from outside the bank.
    const model = new Map(accounts.map((a) => [a.id, { ledger: 0, available: 0 }]));
    let externalIn = 0;
    const random = seeded(20261102);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    // Amounts in cents; a quarter of them end in the sandbox's outcome digits 91, 92 or 93.
    const amount = () => {
      const cents = 100 + Math.floor(random() * 60_000);
      return random() < 0.25 ? cents - (cents % 100) + pick([91, 92, 93]) : cents;
    };
    const kinds = ['pull', 'pull', 'push', 'wire', 'internal', 'internal'] as const;
    const counts = { created: 0, refused: 0, completed: 0, returned: 0, failed: 0, processing: 0 };
    const balanced = (entries: { direction: string; amount: string }[]) => {
      const sum = (direction: string) =>
        entries.filter((e) => e.direction === direction).reduce((s, e) => s + Math.round(Number(e.amount) * 100), 0);
      expect(sum('DEBIT')).toBe(sum('CREDIT'));
    };
    // ACH and wire transfers the sandbox may not have taken to their ends yet, by the account they were made for,
    // with what each end changes in the model. An account's are awaited before its next transfer, so that
    // transfer's refusal and balance are as determined as when the sandbox settled at once.
    const entriesAtEnd: Record<TransferStatus, string[]> = {
      pending: [],
      processing: ['pending', 'pending'],
      completed: ['posted', 'posted'],
      failed: ['voided', 'voided'],
      returned: ['posted', 'posted', 'posted', 'posted'],
    };
    const inFlight = new Map<number, { id: number; end: TransferStatus; onEnd: () => void }[]>();
    const settleAccount = async (accountId: number) => {
      for (const t of inFlight.get(accountId) ?? []) {
        const ended = await settled(acme, t.id, t.end);
        expect(ended.ledgerEntries.map((e) => e.status)).toEqual(entriesAtEnd[t.end]);
        balanced(ended.ledgerEntries);
        t.onEnd();
        counts[t.end as keyof typeof counts] += 1;
      }
      inFlight.delete(accountId);
    };

    for (let i = 0; i < 240; i++) {
      const what = pick([...kinds]);
      const from = pick(accounts);
      const cents = amount();
      await settleAccount(from.id);
      const value = cents / 100;
      const m = model.get(from.id)!;
      // A debit the account cannot cover must be refused (none of these accounts has a funding account).
      const refused = what !== 'pull' && m.available < cents;
      // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the branch that sets it, one of four operations
      let result;
      if (what === 'pull') {
        result = await acme.POST('/finance/api/v1/transaction/ach/pull', {
          body: { accountId: from.id, counterpartyId: from.cp, amount: value, currency: 'USD' },
        });
      } else if (what === 'push') {
        result = await acme.POST('/finance/api/v1/transaction/ach/push', {
          body: { accountId: from.id, counterpartyId: from.cp, amount: value, currency: 'USD' },
        });
      } else if (what === 'wire') {
        result = await acme.POST('/finance/api/v1/transaction/wire/domestic', {
          body: { accountId: from.id, counterpartyId: from.cp, amount: value, currency: 'USD' },
        });
      } else {
        const to = pick(accounts.filter((a) => a.id !== from.id));
        result = await acme.POST('/finance/api/v1/transaction/internal/transfer', {
          body: { accountId: from.id, toAccountId: to.id, amount: value, currency: 'USD' },
        });
        if (!refused) {
          m.ledger -= cents;
          m.available -= cents;
          const t = model.get(to.id)!;
          t.ledger += cents;
          t.available += cents;
        }
      }
      if (refused) {
        expect(result.response.status, `debit ${i} of ${value} from ${m.available / 100}`).toBe(422);
        expect(result.error!.type).toBe(insufficientFunds);
        counts.refused += 1;
        continue;
      }
      expect(result.response.status, `${what} ${i}`).toBe(201);
      const transfer = result.data!;
      counts.created += 1;
      if (what === 'internal') {
        expect(transfer.status).toBe('completed');
        counts.completed += 1;
      } else {
        const end: TransferStatus =
          cents % 100 === 91 ? 'returned' : cents % 100 === 92 ? 'failed' : cents % 100 === 93 ? 'processing' : 'completed';
        const sign = what === 'pull' ? 1 : -1;
        // Accepted with its entries held: an outgoing amount leaves available at once, an incoming one counts nowhere yet.
        expect(transfer.status, `${what} ${i}`).toBe('pending');
        expect(transfer.ledgerEntries.map((e) => e.status)).toEqual(['pending', 'pending']);
        if (sign < 0) m.available -= cents;
        const onEnd = () => {
          if (end === 'completed') {
            m.ledger += sign * cents;
            if (sign > 0) m.available += cents;
            externalIn += sign * cents;
          }
          // A failed or returned outgoing transfer gives its hold back; one left processing keeps it.
          if (sign < 0 && (end === 'failed' || end === 'returned')) m.available += cents;
        };
        inFlight.set(from.id, [...(inFlight.get(from.id) ?? []), { id: transfer.id, end, onEnd }]);
      }
      balanced(transfer.ledgerEntries);
      const expected = model.get(transfer.accountBalance.accountId)!;
      expect(transfer.accountBalance).toMatchObject({
        ledger: (expected.ledger / 100).toFixed(2),
        available: (expected.available / 100).toFixed(2),
      });
    }

    for (const a of accounts) await settleAccount(a.id);
    expect(counts.created + counts.refused).toBe(240);
    for (const outcome of ['completed', 'returned', 'failed', 'processing'] as const) expect(counts[outcome], outcome).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
    let total = 0;
    for (const a of accounts) {
      const expected = model.get(a.id)!;
      expect(await balance(acme, a.id)).toMatchObject({
        ledger: (expected.ledger / 100).toFixed(2),
        available: (expected.available / 100).toFixed(2),
      });
      total += expected.ledger;
    }
    // Conservation: what the accounts hold is exactly what came in from outside; internal moves created nothing.
    expect(total).toBe(externalIn);
    const { posted } = await checkInvariants();
    const mine = new Set(accounts.map((a) => a.id));
    const held = posted
      .filter((e) => e.account_id !== null && mine.has(Number(e.account_id)))
      .reduce((s, e) => s + (e.direction === 'CREDIT' ? 1 : -1) * Number(e.amount_minor), 0);
    expect(held).toBe(externalIn);
  }, 120_000);

  it.each(['ach/push', 'internal/transfer'] as const)(
    'lets exactly 3 of 50 concurrent %s debits of 30 percent of the balance through; 47 get 422 and the balance stays at 10 percent',
    async (path) => {
      const a = await fundedAccount(acme, 1000);
      const target = await openAccount(acme, a.businessId);
      const body =
        path === 'ach/push'
          ? { accountId: a.accountId, counterpartyId: a.counterpartyId, amount: 300, currency: 'USD' }
          : { accountId: a.accountId, toAccountId: target, amount: 300, currency: 'USD' };
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          acme.POST(`/finance/api/v1/transaction/${path}` as '/finance/api/v1/transaction/ach/push', { body: body as never }),
        ),
      );
      const statuses = results.map((r) => r.response.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === 422)).toHaveLength(47);
      for (const r of results.filter((x) => x.response.status === 422)) expect(r.error!.type).toBe(insufficientFunds);
      // The pushes hold their amounts at once; the ledger follows as the sandbox completes them.
      expect((await balance(acme, a.accountId)).available).toBe('100.00');
      if (path === 'ach/push')
        for (const r of results.filter((x) => x.response.status === 201)) await settled(acme, r.data!.id, 'completed');
      expect(await balance(acme, a.accountId)).toMatchObject({ available: '100.00', ledger: '100.00' });
      const transfers = await db()
        .selectFrom('banking_transfers')
        .select('id')
        .where('account_id', '=', a.accountId)
        .where('type', '!=', 'ACH_PULL')
        .execute();
      expect(transfers).toHaveLength(3);
      await checkInvariants();
    },
    60_000,
  );

  it('keeps concurrent internal transfers in both directions between two accounts consistent (no deadlock, nothing created)', async () => {
    const a = await fundedAccount(acme, 500);
    const b = await openAccount(acme, a.businessId);
    await unwrap(
      acme.POST('/finance/api/v1/transaction/internal/transfer', {
        body: { accountId: a.accountId, toAccountId: b, amount: 250, currency: 'USD' },
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        acme.POST('/finance/api/v1/transaction/internal/transfer', {
          body: { accountId: i % 2 ? a.accountId : b, toAccountId: i % 2 ? b : a.accountId, amount: 20, currency: 'USD' },
        }),
      ),
    );
    for (const r of results) expect([201, 422]).toContain(r.response.status);
    const [x, y] = [await balance(acme, a.accountId), await balance(acme, b)];
    expect(Number(x.ledger) + Number(y.ledger)).toBe(500);
    await checkInvariants();
  }, 60_000);

  it('makes one transfer of 20 concurrent duplicates with one Idempotency-Key, even when the balance covers only one', async () => {
    const a = await fundedAccount(acme, 100);
    const key = `dup-${kind.name}-${Date.now()}`;
    const body = { accountId: a.accountId, counterpartyId: a.counterpartyId, amount: 60, currency: 'USD' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        acme.POST('/finance/api/v1/transaction/ach/push', { params: { header: { 'Idempotency-Key': key } }, body }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.data!.id)).size).toBe(1);
    expect(results.filter((r) => r.response.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    // The replays show that one transfer as it is when each is answered (the sandbox may have moved it on).
    for (const r of results) expect(r.data).toMatchObject({ id: results[0]!.data!.id, type: 'ACH_PUSH', amount: '60.00' });
    const original = results.find((r) => r.response.headers.get('idempotent-replayed') === null)!;
    expect(original.data).toMatchObject({ status: 'pending', accountBalance: { available: '40.00', ledger: '100.00' } });
    await settled(acme, results[0]!.data!.id, 'completed');
    expect(await balance(acme, a.accountId)).toMatchObject({ available: '40.00', ledger: '40.00' });
    expect(
      await db()
        .selectFrom('banking_transfers')
        .select('id')
        .where('account_id', '=', a.accountId)
        .where('type', '=', 'ACH_PUSH')
        .execute(),
    ).toHaveLength(1);
    // Later: the same key replays; with another body it is a 409; a new key is a new (refused) debit.
    const later = await acme.POST('/finance/api/v1/transaction/ach/push', { params: { header: { 'Idempotency-Key': key } }, body });
    expect(later.response.headers.get('idempotent-replayed')).toBe('true');
    const changed = await acme.POST('/finance/api/v1/transaction/ach/push', {
      params: { header: { 'Idempotency-Key': key } },
      body: { ...body, amount: 10 },
    });
    expect(changed.response.status).toBe(409);
    expect(changed.error!.type).toBe('https://payouts.example/problems/idempotency-conflict');
    const fresh = await acme.POST('/finance/api/v1/transaction/ach/push', { params: { header: { 'Idempotency-Key': `${key}-2` } }, body });
    expect(fresh.error!.type).toBe(insufficientFunds);
    await checkInvariants();
  }, 60_000);

  it.each([
    [
      'ach/pull',
      (a: { accountId: number; counterpartyId: number }) => ({
        accountId: a.accountId,
        counterpartyId: a.counterpartyId,
        amount: 10,
        currency: 'USD',
      }),
    ],
    [
      'wire/domestic',
      (a: { accountId: number; counterpartyId: number }) => ({
        accountId: a.accountId,
        counterpartyId: a.counterpartyId,
        amount: 10,
        currency: 'USD',
      }),
    ],
  ] as const)(
    'replays 20 concurrent duplicates of %s as one transfer',
    async (path, make) => {
      const a = await fundedAccount(acme, 100);
      const key = `dup-${path}-${kind.name}-${Date.now()}`;
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          acme.POST(`/finance/api/v1/transaction/${path}` as '/finance/api/v1/transaction/ach/pull', {
            params: { header: { 'Idempotency-Key': key } },
            body: make(a),
          }),
        ),
      );
      expect(new Set(results.map((r) => r.data?.id)).size).toBe(1);
      expect(results.filter((r) => r.response.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
      await settled(acme, results[0]!.data!.id, 'completed');
      expect(await balance(acme, a.accountId)).toMatchObject({ ledger: path === 'ach/pull' ? '110.00' : '90.00' });
    },
    60_000,
  );
});

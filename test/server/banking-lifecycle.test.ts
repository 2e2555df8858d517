// Money that can be followed, end to end through real HTTP on each store (issue 13): an account funded by a
// simulated inbound credit, an ACH push read back `pending` and then `completed` as the sandbox paces it, its
// `transfer.*` events delivered and listed with the same ids, a simulated return (R code, reversing entries, the
// balance restored), a notification of change, a settlement and a verification decision by simulation, and the
// simulations answering 404 in production. The ledger's invariants are checked after every step: each
// transfer's entries balance (debits = credits), and each account's ledger balance is the sum of its posted entries.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBankingClient, type BankingClient } from '../../client/create-clients.js';
import { eachEvent } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import type { Store } from '../../server/platform/store/database.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { startService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
let taxIds = 0;
const ein = (last4: string) => {
  taxIds += 1;
  return `${String(30 + (taxIds % 60)).padStart(2, '0')}-${String(taxIds % 1000).padStart(3, '0')}${last4}`;
};

/** Every transfer's entries balance; every account's ledger balance is the sum of its posted entries. */
async function ledgerHolds(store: Store): Promise<void> {
  const entries = await store.db.selectFrom('banking_ledger_entries').selectAll().execute();
  const byTransfer = new Map<number, number>();
  for (const e of entries) {
    if (e.status === 'voided') continue;
    const signed = (e.direction === 'DEBIT' ? -1 : 1) * Number(e.amount_minor);
    byTransfer.set(Number(e.transfer_id), (byTransfer.get(Number(e.transfer_id)) ?? 0) + signed);
  }
  expect([...byTransfer].filter(([, sum]) => sum !== 0)).toEqual([]);
  const accounts = await store.db.selectFrom('banking_accounts').selectAll().execute();
  for (const a of accounts) {
    const posted = entries.filter((e) => Number(e.account_id) === Number(a.id) && e.status === 'posted');
    const sum = posted.reduce((s, e) => s + (e.direction === 'DEBIT' ? -1 : 1) * Number(e.amount_minor), 0);
    expect(Number(a.ledger_minor), `account ${a.id}`).toBe(sum);
    const held = entries
      .filter((e) => Number(e.account_id) === Number(a.id) && e.status === 'pending' && e.direction === 'DEBIT')
      .reduce((s, e) => s + Number(e.amount_minor), 0);
    expect(Number(a.available_minor), `account ${a.id}`).toBe(sum - held);
  }
}

describe.each(stores)('money followed through group D on $name', (kind) => {
  // Paced like a bank (a step every 300 ms), so a transfer can be read while it is still pending.
  const service = useService(kind, { sandboxStepMs: 300 });
  let receiver: WebhookReceiver;
  let m: TestMerchant;
  let bank: BankingClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    m = await newMerchant(service);
    bank = createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: m.clientId, clientSecret: m.clientSecret } });
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/bank` } }));
  });
  afterAll(async () => {
    await receiver.close();
  });

  const business = async (taxLast4 = '4567') => {
    const b = await unwrap(
      bank.POST('/finance/api/v1/business', {
        body: {
          legalName: 'Northwind Logistics LLC',
          entityType: 'LLC',
          taxId: ein(taxLast4),
          formationDate: '2019-03-14',
          incorporationCountry: 'US',
          incorporationState: 'DE',
          address: usAddress,
          phone: '+13125550198',
          email: 'treasury@northwind.example',
        },
      }),
    );
    const verification = await unwrap(
      bank.POST('/finance/api/v1/identity-verification', { body: { businessId: b.id, subject: 'BUSINESS' } }),
    );
    return { business: b, verification };
  };
  const transfer = (id: number) => unwrap(bank.GET('/finance/api/v1/transaction/{transferId}', { params: { path: { transferId: id } } }));
  const waitForStatus = async (id: number, status: string) => {
    await expect.poll(async () => (await transfer(id)).status, { timeout: 10_000, interval: 50 }).toBe(status);
    return transfer(id);
  };
  const deliveredOf = (type: string, transferId: number) =>
    receiver.deliveries.filter((d) => {
      const body = JSON.parse(d.body);
      return body.type === type && body.transfer?.id === transferId;
    });

  it('funds an account, pays a counterparty, and follows the transfer to completed, returned and a notification of change', async () => {
    const { business: b } = await business();
    const account = await unwrap(bank.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: b.id } }, body: {} }));
    const cp = await unwrap(
      bank.POST('/finance/api/v1/counterparty', {
        body: {
          businessId: b.id,
          name: 'Acme Supplies Inc.',
          type: 'BUSINESS',
          ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
        },
      }),
    );

    // Funded by a simulated inbound ACH credit: completed at once, its entries posted.
    const inbound = await unwrap(
      bank.POST('/finance/api/v1/simulations/inbound-transfer', {
        body: { accountId: account.id, amount: 1000, currency: 'USD', rail: 'ACH', originatorName: 'Globex Payroll' },
      }),
    );
    expect(inbound).toMatchObject({
      type: 'INBOUND_ACH',
      status: 'completed',
      accountBalance: { available: '1000.00', ledger: '1000.00' },
    });
    await ledgerHolds(service.services.store);

    // An ACH push: 201 pending with the funds held; then processing and completed, paced.
    const push = await unwrap(
      bank.POST('/finance/api/v1/transaction/ach/push', {
        body: { accountId: account.id, counterpartyId: cp.id, amount: 120, currency: 'USD' },
      }),
    );
    expect(push).toMatchObject({
      status: 'pending',
      returnCode: null,
      notificationOfChange: null,
      accountBalance: { available: '880.00', ledger: '1000.00' },
    });
    expect((await transfer(push.id)).status).toBe('pending');
    await ledgerHolds(service.services.store);
    const completed = await waitForStatus(push.id, 'completed');
    expect(completed.ach?.traceNumber).toMatch(/^[0-9]{15}$/);
    expect(completed.accountBalance).toMatchObject({ available: '880.00', ledger: '880.00' });
    await ledgerHolds(service.services.store);

    // Its events went out in order, and the events API lists each with the id its delivery carried.
    await receiver.waitFor(1, (d) => d.body.includes('"transfer.completed"') && JSON.parse(d.body).transfer.id === push.id);
    const delivered = ['transfer.created', 'transfer.processing', 'transfer.completed'].map((t) => deliveredOf(t, push.id));
    expect(delivered.map((d) => d.length)).toEqual([1, 1, 1]);
    const listed = [];
    for await (const e of eachEvent(m.a, { Type: ['transfer.created', 'transfer.processing', 'transfer.completed'] })) listed.push(e);
    for (const [d] of delivered) {
      const body = JSON.parse(d!.body);
      expect(d!.headers['webhook-id']).toBe(body.id);
      expect(listed).toContainEqual(body);
    }
    expect(JSON.parse(delivered[2]![0]!.body).transfer).toMatchObject({ id: push.id, status: 'completed' });

    // Returned days later (simulated): R01, reversing entries appended, the balance restored.
    const returned = await unwrap(
      bank.POST('/finance/api/v1/simulations/transfers/{transferId}/return', {
        params: { path: { transferId: push.id } },
        body: { returnCode: 'R01' },
      }),
    );
    expect(returned).toMatchObject({
      status: 'returned',
      returnCode: 'R01',
      reasons: [{ code: 'insufficient_funds', networkCode: 'R01' }],
    });
    expect(returned.returnedOn).not.toBeNull();
    expect(returned.ledgerEntries.map((e) => [e.direction, e.status])).toEqual([
      ['DEBIT', 'posted'],
      ['CREDIT', 'posted'],
      ['DEBIT', 'posted'],
      ['CREDIT', 'posted'],
    ]);
    const statement = await unwrap(
      bank.GET('/finance/api/v1/account/{accountId}/ledger-entries', { params: { path: { accountId: account.id } } }),
    );
    const ofPush = statement.data.filter((e) => JSON.stringify(e).includes(String(push.id)));
    expect(ofPush.length).toBeGreaterThanOrEqual(2);
    const balance = await unwrap(bank.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: account.id } } }));
    expect(balance).toMatchObject({ available: '1000.00', ledger: '1000.00' });
    await ledgerHolds(service.services.store);
    await receiver.waitFor(1, (d) => d.body.includes('"transfer.returned"') && JSON.parse(d.body).transfer.id === push.id);
    // A returned transfer is final: it cannot be returned or settled again.
    for (const r of [
      await bank.POST('/finance/api/v1/simulations/transfers/{transferId}/return', {
        params: { path: { transferId: push.id } },
        body: { returnCode: 'R02' },
      }),
      await bank.POST('/finance/api/v1/simulations/transfers/{transferId}/settlement', {
        params: { path: { transferId: push.id } },
        body: { status: 'completed' },
      }),
    ])
      expect(r.response.status).toBe(409);

    // A notification of change moves no money and shows on the transfer.
    const noc = await unwrap(
      bank.POST('/finance/api/v1/simulations/transfers/{transferId}/notification-of-change', {
        params: { path: { transferId: push.id } },
        body: { changeCode: 'C01', correctedData: { accountNumber: '000123456780' } },
      }),
    );
    expect(noc.notificationOfChange).toMatchObject({ changeCode: 'C01', correctedData: { accountNumber: '000123456780' } });
    expect((await transfer(push.id)).notificationOfChange?.changeCode).toBe('C01');
    expect(
      await unwrap(bank.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: account.id } } })),
    ).toMatchObject({
      ledger: '1000.00',
    });
    await receiver.waitFor(1, (d) => d.body.includes('"noc.received"') && JSON.parse(d.body).transfer.id === push.id);
    await ledgerHolds(service.services.store);
  });

  it('tells the engine and the webhook dispatcher as soon as a write recorded events, and not on a replay', async () => {
    // The banking writes tell both through one callback (services.ts); the engine is woken by nothing else, so its
    // count is exact while other suites' payouts and transfers keep the dispatcher busy.
    const told = vi.spyOn(service.services.transferEngine, 'wake');
    const dispatcher = vi.spyOn(service.services.dispatcher, 'wake');
    try {
      const { business: b } = await business(); // its verification, decided at once, wrote verification.updated
      expect(told).toHaveBeenCalled();
      const account = await unwrap(bank.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: b.id } }, body: {} }));
      const inbound = (key: string) =>
        unwrap(
          bank.POST('/finance/api/v1/simulations/inbound-transfer', {
            params: { header: { 'Idempotency-Key': key } },
            body: { accountId: account.id, amount: 50, currency: 'USD', rail: 'ACH', originatorName: 'Globex Payroll' },
          }),
        );
      const key = crypto.randomUUID();
      told.mockClear();
      dispatcher.mockClear();
      await inbound(key);
      expect(told).toHaveBeenCalledTimes(1);
      expect(dispatcher).toHaveBeenCalled();
      told.mockClear();
      await inbound(key);
      expect(told).not.toHaveBeenCalled();
      const cp = await unwrap(
        bank.POST('/finance/api/v1/counterparty', {
          body: {
            businessId: b.id,
            name: 'Acme Supplies Inc.',
            type: 'BUSINESS',
            ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
          },
        }),
      );
      told.mockClear();
      await unwrap(
        bank.POST('/finance/api/v1/transaction/ach/push', {
          body: { accountId: account.id, counterpartyId: cp.id, amount: 1, currency: 'USD' },
        }),
      );
      expect(told).toHaveBeenCalledTimes(1);
    } finally {
      told.mockRestore();
      dispatcher.mockRestore();
    }
  });

  it('settles a transfer held in processing by simulation, and refuses what cannot be settled', async () => {
    const { business: b } = await business();
    const account = await unwrap(bank.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: b.id } }, body: {} }));
    await unwrap(
      bank.POST('/finance/api/v1/simulations/inbound-transfer', {
        body: { accountId: account.id, amount: 500, currency: 'USD', rail: 'WIRE', originatorName: 'Initech' },
      }),
    );
    const cp = await unwrap(
      bank.POST('/finance/api/v1/counterparty', {
        body: {
          businessId: b.id,
          name: 'Acme Supplies Inc.',
          type: 'BUSINESS',
          ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
        },
      }),
    );
    // Cents 93: the sandbox leaves it processing; the simulation decides it.
    const held = await unwrap(
      bank.POST('/finance/api/v1/transaction/ach/push', {
        body: { accountId: account.id, counterpartyId: cp.id, amount: 100.93, currency: 'USD' },
      }),
    );
    await waitForStatus(held.id, 'processing');
    const failed = await unwrap(
      bank.POST('/finance/api/v1/simulations/transfers/{transferId}/settlement', {
        params: { path: { transferId: held.id } },
        body: { status: 'failed' },
      }),
    );
    expect(failed).toMatchObject({ status: 'failed', accountBalance: { available: '500.00', ledger: '500.00' } });
    expect(failed.ledgerEntries.every((e) => e.status === 'voided')).toBe(true);
    await ledgerHolds(service.services.store);

    // A pending transfer settles through processing.
    const pending = await unwrap(
      bank.POST('/finance/api/v1/transaction/ach/push', {
        body: { accountId: account.id, counterpartyId: cp.id, amount: 50, currency: 'USD' },
      }),
    );
    const settled = await unwrap(
      bank.POST('/finance/api/v1/simulations/transfers/{transferId}/settlement', {
        params: { path: { transferId: pending.id } },
        body: { status: 'completed' },
      }),
    );
    expect(settled).toMatchObject({ status: 'completed', accountBalance: { ledger: '450.00' } });
    await receiver.waitFor(1, (d) => d.body.includes('"transfer.processing"') && JSON.parse(d.body).transfer.id === pending.id);
    await ledgerHolds(service.services.store);

    // Another merchant's transfer is not found; an unknown one neither.
    const other = await newMerchant(service, 'Other');
    const otherBank = createBankingClient({
      baseUrl: service.baseUrl,
      credentials: { clientId: other.clientId, clientSecret: other.clientSecret },
    });
    const foreign = await otherBank.POST('/finance/api/v1/simulations/transfers/{transferId}/return', {
      params: { path: { transferId: settled.id } },
      body: { returnCode: 'R01' },
    });
    expect(foreign.response.status).toBe(404);
    // A bad code is refused before anything is written, naming the field.
    const bad = await bank.POST('/finance/api/v1/simulations/transfers/{transferId}/return', {
      params: { path: { transferId: settled.id } },
      body: { returnCode: 'X1' },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/returnCode' }));
    expect((await transfer(settled.id)).status).toBe('completed');
  });

  it('decides a verification under review; the business can then open accounts, and verification.updated goes out', async () => {
    const { business: b, verification } = await business('1111');
    expect(verification.status).toBe('needs_review');
    const refused = await bank.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: b.id } }, body: {} });
    expect(refused.error!.type).toBe('https://payouts.example/problems/business-not-verified');
    const decided = await unwrap(
      bank.POST('/finance/api/v1/simulations/identity-verification/{verificationId}/decision', {
        params: { path: { verificationId: verification.id } },
        body: { status: 'approved' },
      }),
    );
    expect(decided).toMatchObject({ id: verification.id, status: 'approved' });
    expect(decided.decidedOn).not.toBeNull();
    expect((await unwrap(bank.GET('/finance/api/v1/business/{id}', { params: { path: { id: b.id } } }))).verificationStatus).toBe(
      'approved',
    );
    await unwrap(bank.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: b.id } }, body: {} }));
    await receiver.waitFor(1, (d) => {
      const body = JSON.parse(d.body);
      return body.type === 'verification.updated' && body.verification.id === verification.id && body.verification.status === 'approved';
    });
    const again = await bank.POST('/finance/api/v1/simulations/identity-verification/{verificationId}/decision', {
      params: { path: { verificationId: verification.id } },
      body: { status: 'rejected' },
    });
    expect(again.response.status).toBe(409);
  });
});

describe('simulations in production', () => {
  it('answer 404 like an unknown path, and write nothing', async () => {
    const service = await startService(':memory:', { environment: 'production' }, { workers: false });
    try {
      const m = await newMerchant(service);
      const bank = createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: m.clientId, clientSecret: m.clientSecret } });
      const inbound = await bank.POST('/finance/api/v1/simulations/inbound-transfer', {
        body: { accountId: 1, amount: 10, currency: 'USD', rail: 'ACH', originatorName: 'Globex' },
      });
      expect(inbound.response.status).toBe(404);
      for (const path of ['settlement', 'return', 'notification-of-change'] as const) {
        const body = {
          settlement: { status: 'completed' },
          return: { returnCode: 'R01' },
          'notification-of-change': { changeCode: 'C01', correctedData: { accountType: 'SAVINGS' } },
        }[path];
        const r = await bank.POST(
          `/finance/api/v1/simulations/transfers/{transferId}/${path}` as '/finance/api/v1/simulations/transfers/{transferId}/return',
          {
            params: { path: { transferId: 1 } },
            body: body as { returnCode: string },
          },
        );
        expect(r.response.status, path).toBe(404);
      }
      const decision = await bank.POST('/finance/api/v1/simulations/identity-verification/{verificationId}/decision', {
        params: { path: { verificationId: 1 } },
        body: { status: 'approved' },
      });
      expect(decision.response.status).toBe(404);
      expect(await service.services.store.db.selectFrom('banking_transfers').select('id').execute()).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});

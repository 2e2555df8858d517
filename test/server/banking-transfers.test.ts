// Banking transfers (group D) over real HTTP with the generated client, on each store: ACH pull and push,
// domestic and international wires and internal transfers; every sandbox outcome with its ledger entries
// and balances, the funding-account sweep, and each documented refusal. An ACH or wire transfer is answered
// `pending` with its funds held, then read back through getTransfer once the sandbox has taken it to its end.
// Nothing is mocked.
import { beforeAll, describe, expect, it } from 'vitest';
import { createBankingClient, type BankingClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { convertToUsd, fxRates } from '../../server/domain/banking/fx-rates.js';
import { currencyExponents } from '../../server/platform/money/currencies.js';
import { settled } from '../support/settled-transfer.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';
import type { components } from '../../generated/banking/schema.js';

type BankingSchemas = components['schemas'];
type TransferStatus = BankingSchemas['TransferStatus'];

const problems = 'https://payouts.example/problems/';
let taxIds = 0;
const ein = () => {
  taxIds += 1;
  return `${String(20 + (taxIds % 79)).padStart(2, '0')}-${String(taxIds).padStart(3, '0')}4567`;
};
const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
const deAddress = { line1: 'Kaiserplatz', line2: null, city: 'Frankfurt am Main', state: null, postalCode: '60311', countryCode: 'DE' };

interface World {
  businessId: number;
  accountId: number;
  /** ACH details, a BUSINESS holder. */
  ach: number;
  /** ACH details, an INDIVIDUAL holder. */
  person: number;
  /** Wire details with an ABA bank. */
  aba: number;
  /** Wire details with a BIC bank and an IBAN. */
  bic: number;
}

describe.each(stores)('banking transfers on $name', (kind) => {
  const service = useService(kind);
  let acme: BankingClient;
  let other: BankingClient;

  const client = async (name: string) => {
    const c = await service.services.credentials.createMerchant(name);
    return createBankingClient({ baseUrl: service.baseUrl, credentials: { clientId: c.clientId, clientSecret: c.clientSecret } });
  };
  const openAccount = async (c: BankingClient, businessId: number, body: BankingSchemas['AccountCreateRequest'] = {}) =>
    unwrap(c.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId } }, body }));
  const counterparty = async (c: BankingClient, body: BankingSchemas['CounterpartyCreateRequest']) =>
    (await unwrap(c.POST('/finance/api/v1/counterparty', { body }))).id;

  /** A verified business with one account and a counterparty for each rail. */
  const world = async (c: BankingClient): Promise<World> => {
    const business = await unwrap(
      c.POST('/finance/api/v1/business', {
        body: {
          legalName: 'Northwind Logistics LLC',
          entityType: 'LLC',
          taxId: ein(),
          formationDate: '2019-03-14',
          incorporationCountry: 'US',
          incorporationState: 'DE',
          address: usAddress,
          phone: '+13125550198',
          email: 'treasury@northwind.example',
        },
      }),
    );
    await unwrap(c.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }));
    const account = await openAccount(c, business.id, { accountName: 'Operating' });
    const ach = { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' as const };
    return {
      businessId: business.id,
      accountId: account.id,
      ach: await counterparty(c, { businessId: business.id, name: 'Acme Supplies Inc.', type: 'BUSINESS', ach }),
      person: await counterparty(c, {
        businessId: business.id,
        name: 'Maria Gonzalez',
        type: 'INDIVIDUAL',
        ach: { ...ach, accountNumber: '55501234' },
      }),
      aba: await counterparty(c, {
        businessId: business.id,
        name: 'Harbor Freight Partners LLC',
        type: 'BUSINESS',
        address: usAddress,
        wire: { bankIdType: 'ABA', bankId: '026009593', accountNumber: '4455667788', bankName: 'Bank of America, N.A.' },
      }),
      bic: await counterparty(c, {
        businessId: business.id,
        name: 'Mueller Maschinenbau GmbH',
        type: 'BUSINESS',
        address: deAddress,
        wire: {
          bankIdType: 'BIC',
          bankId: 'COBADEFFXXX',
          accountNumber: 'DE89370400440532013000',
          bankName: 'Commerzbank AG',
          bankAddress: deAddress,
        },
      }),
    };
  };
  const pull = (c: BankingClient, accountId: number, counterpartyId: number, amount: number, extra: Record<string, unknown> = {}) =>
    c.POST('/finance/api/v1/transaction/ach/pull', { body: { accountId, counterpartyId, amount, currency: 'USD', ...extra } });
  const push = (c: BankingClient, accountId: number, counterpartyId: number, amount: number, extra: Record<string, unknown> = {}) =>
    c.POST('/finance/api/v1/transaction/ach/push', { body: { accountId, counterpartyId, amount, currency: 'USD', ...extra } });
  const internal = (c: BankingClient, accountId: number, toAccountId: number, amount: number) =>
    c.POST('/finance/api/v1/transaction/internal/transfer', { body: { accountId, toAccountId, amount, currency: 'USD' } });
  const balance = (c: BankingClient, accountId: number) =>
    unwrap(c.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId } } }));
  /**
   * Waits until the transfer is in `status` (getTransfer) and checks that the engine has no further step due
   * for it, so the state read is its end, not a stop on the way.
   */
  const ended = async (id: number, status: TransferStatus, c = acme) => {
    const transfer = await settled(c, id, status);
    const row = await service.services.store.db
      .selectFrom('banking_transfers')
      .select(['status', 'next_step_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row, `transfer ${id}`).toEqual({ status, next_step_at: null });
    return transfer;
  };
  /** A world whose account holds `amount`, pulled in and completed. */
  const funded = async (c: BankingClient, amount: number) => {
    const w = await world(c);
    await ended((await unwrap(pull(c, w.accountId, w.ach, amount))).id, 'completed', c);
    return w;
  };
  const transferCount = async () =>
    Number(
      (
        await service.services.store.db
          .selectFrom('banking_transfers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const setAccountStatus = (id: number, status: 'active' | 'frozen' | 'closed') =>
    service.services.store.db.updateTable('banking_accounts').set({ status }).where('id', '=', id).execute();
  const entry = (ledgerAccount: string, direction: 'DEBIT' | 'CREDIT', amount: string, status: string) =>
    expect.objectContaining({
      ledgerAccount,
      direction,
      amount,
      currency: 'USD',
      status,
      accountId: ledgerAccount.startsWith('account:') ? Number(ledgerAccount.slice(8)) : null,
    });

  beforeAll(async () => {
    acme = await client('Acme');
    other = await client('Other');
  });

  describe('ACH pull', () => {
    it('pulls money in: pending with its credit held (counting nowhere), then completed: posted entries, available and ledger up', async () => {
      const w = await world(acme);
      const { data, response } = await pull(acme, w.accountId, w.ach, 25000, { description: 'Initial funding', externalId: 'fund-1' });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(`/finance/api/v1/transaction/${data!.id}`);
      const accepted = {
        type: 'ACH_PULL',
        amount: '25000.00',
        currency: 'USD',
        from: { type: 'COUNTERPARTY', accountId: null, counterpartyId: w.ach, name: 'Acme Supplies Inc.', accountNumber: '6789' },
        to: {
          type: 'ACCOUNT',
          accountId: w.accountId,
          counterpartyId: null,
          name: 'Operating',
          accountNumber: expect.stringMatching(/^[0-9]{4}$/),
        },
        description: 'Initial funding',
        externalId: 'fund-1',
        wire: null,
        fundingTransferId: null,
        reasons: [],
        returnCode: null,
        returnedOn: null,
        notificationOfChange: null,
      };
      const ach = { secCode: 'CCD', sameDay: false, effectiveDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) };
      // Accepted: no trace number until submitted; the credit is held, so neither balance moves yet.
      expect(data).toMatchObject({
        ...accepted,
        status: 'pending',
        ach: { ...ach, traceNumber: null },
        accountBalance: { accountId: w.accountId, currency: 'USD', available: '0.00', ledger: '0.00' },
      });
      expect(data!.ach!.effectiveDate > data!.createdOn.slice(0, 10)).toBe(true);
      expect(data!.ledgerEntries).toEqual([
        entry('settlement:ach', 'DEBIT', '25000.00', 'pending'),
        entry(`account:${w.accountId}`, 'CREDIT', '25000.00', 'pending'),
      ]);
      const completed = await ended(data!.id, 'completed');
      expect(completed).toMatchObject({
        ...accepted,
        id: data!.id,
        status: 'completed',
        createdOn: data!.createdOn,
        ach: { ...ach, effectiveDate: data!.ach!.effectiveDate, traceNumber: expect.stringMatching(/^08410102[0-9]{7}$/) },
        accountBalance: { accountId: w.accountId, currency: 'USD', available: '25000.00', ledger: '25000.00' },
      });
      expect(completed.ledgerEntries).toEqual([
        entry('settlement:ach', 'DEBIT', '25000.00', 'posted'),
        entry(`account:${w.accountId}`, 'CREDIT', '25000.00', 'posted'),
      ]);
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '25000.00', ledger: '25000.00' });
    });

    it('settles same-day on the day, and defaults the SEC code to PPD for a person', async () => {
      const w = await world(acme);
      const sameDay = await unwrap(pull(acme, w.accountId, w.person, 10, { sameDay: true }));
      expect(sameDay.ach).toMatchObject({ secCode: 'PPD', sameDay: true, effectiveDate: sameDay.createdOn.slice(0, 10) });
      const web = await unwrap(pull(acme, w.accountId, w.person, 10, { secCode: 'WEB' }));
      expect(web.ach!.secCode).toBe('WEB');
    });

    it('returns an amount ending in .91 (R01): a reversing pair posted, the balance as before', async () => {
      const w = await funded(acme, 100);
      const created = await unwrap(pull(acme, w.accountId, w.ach, 250.91));
      expect(created).toMatchObject({
        status: 'pending',
        reasons: [],
        returnCode: null,
        accountBalance: { available: '100.00', ledger: '100.00' },
      });
      expect(created.ledgerEntries.map((e) => e.status)).toEqual(['pending', 'pending']);
      const returned = await ended(created.id, 'returned');
      expect(returned).toMatchObject({
        status: 'returned',
        reasons: [{ code: 'insufficient_funds', networkCode: 'R01', message: expect.any(String) }],
        returnCode: 'R01',
        returnedOn: expect.stringMatching(/Z$/),
      });
      expect(returned.ledgerEntries).toEqual([
        entry('settlement:ach', 'DEBIT', '250.91', 'posted'),
        entry(`account:${w.accountId}`, 'CREDIT', '250.91', 'posted'),
        entry(`account:${w.accountId}`, 'DEBIT', '250.91', 'posted'),
        entry('settlement:ach', 'CREDIT', '250.91', 'posted'),
      ]);
      expect(returned.accountBalance).toMatchObject({ available: '100.00', ledger: '100.00' });
    });

    it('fails an amount ending in .92 (entries voided) and leaves one ending in .93 processing (a pending credit counts nowhere)', async () => {
      const w = await funded(acme, 100);
      const toFail = await unwrap(pull(acme, w.accountId, w.ach, 5.92));
      expect(toFail).toMatchObject({ status: 'pending', accountBalance: { available: '100.00', ledger: '100.00' } });
      expect(toFail.ledgerEntries.map((e) => e.status)).toEqual(['pending', 'pending']);
      const failed = await ended(toFail.id, 'failed');
      expect(failed).toMatchObject({
        status: 'failed',
        reasons: [{ code: 'network_rejected', networkCode: null }],
        returnCode: null,
        accountBalance: { available: '100.00', ledger: '100.00' },
      });
      expect(failed.ledgerEntries.map((e) => e.status)).toEqual(['voided', 'voided']);
      const toHold = await unwrap(pull(acme, w.accountId, w.ach, 5.93));
      expect(toHold).toMatchObject({
        status: 'pending',
        ach: { traceNumber: null },
        accountBalance: { available: '100.00', ledger: '100.00' },
      });
      const processing = await ended(toHold.id, 'processing');
      expect(processing).toMatchObject({ status: 'processing', reasons: [], accountBalance: { available: '100.00', ledger: '100.00' } });
      expect(processing.ach!.traceNumber).toMatch(/^[0-9]{15}$/);
      expect(processing.ledgerEntries.map((e) => e.status)).toEqual(['pending', 'pending']);
    });

    it('refuses another currency, too many decimals, a same-day amount above 1,000,000.00 and zero', async () => {
      const w = await world(acme);
      const eur = await acme.POST('/finance/api/v1/transaction/ach/pull', {
        body: { accountId: w.accountId, counterpartyId: w.ach, amount: 5, currency: 'EUR' },
      });
      expect(eur.response.status).toBe(422);
      expect(eur.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/currency' }));
      const decimals = await pull(acme, w.accountId, w.ach, 10.001);
      expect(decimals.response.status).toBe(422);
      expect(decimals.error!.type).toBe(`${problems}invalid-amount`);
      const big = await pull(acme, w.accountId, w.ach, 1_000_000.01, { sameDay: true });
      expect(big.response.status).toBe(422);
      expect((await pull(acme, w.accountId, w.ach, 1_000_000, { sameDay: true })).response.status).toBe(201);
      expect((await pull(acme, w.accountId, w.ach, 0)).response.status).toBe(400);
    });
  });

  describe('ACH push', () => {
    it('pushes money out: held at first (available down, ledger not), then a posted debit to the account, credit to settlement:ach', async () => {
      const w = await funded(acme, 1000);
      const created = await unwrap(push(acme, w.accountId, w.ach, 1250 / 5, { description: 'Invoice 0042' }));
      const parties = {
        type: 'ACH_PUSH',
        amount: '250.00',
        from: { type: 'ACCOUNT', accountId: w.accountId, name: 'Operating' },
        to: { type: 'COUNTERPARTY', counterpartyId: w.ach, accountNumber: '6789' },
      };
      expect(created).toMatchObject({ ...parties, status: 'pending', accountBalance: { available: '750.00', ledger: '1000.00' } });
      expect(created.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '250.00', 'pending'),
        entry('settlement:ach', 'CREDIT', '250.00', 'pending'),
      ]);
      const pushed = await ended(created.id, 'completed');
      expect(pushed).toMatchObject({ ...parties, status: 'completed', accountBalance: { available: '750.00', ledger: '750.00' } });
      expect(pushed.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '250.00', 'posted'),
        entry('settlement:ach', 'CREDIT', '250.00', 'posted'),
      ]);
    });

    it('returns .91 (R02, money back), fails .92 (hold released) and holds .93 (available down, ledger not)', async () => {
      const w = await funded(acme, 1000);
      // Each is held at first, whatever its end.
      const pushed = async (amount: number, available: string) => {
        const created = await unwrap(push(acme, w.accountId, w.ach, amount));
        expect(created).toMatchObject({ status: 'pending', accountBalance: { available, ledger: '1000.00' } });
        expect(created.ledgerEntries.map((e) => e.status)).toEqual(['pending', 'pending']);
        return created.id;
      };
      const returned = await ended(await pushed(100.91, '899.09'), 'returned');
      expect(returned).toMatchObject({
        status: 'returned',
        reasons: [{ code: 'account_closed', networkCode: 'R02' }],
        returnCode: 'R02',
        accountBalance: { available: '1000.00', ledger: '1000.00' },
      });
      expect(returned.ledgerEntries).toHaveLength(4);
      const failed = await ended(await pushed(100.92, '899.08'), 'failed');
      expect(failed).toMatchObject({ status: 'failed', accountBalance: { available: '1000.00', ledger: '1000.00' } });
      expect(failed.ledgerEntries.map((e) => e.status)).toEqual(['voided', 'voided']);
      const held = await ended(await pushed(100.93, '899.07'), 'processing');
      expect(held).toMatchObject({ status: 'processing', accountBalance: { available: '899.07', ledger: '1000.00' } });
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '899.07', ledger: '1000.00' });
    });

    it('refuses a debit above the available balance (422 insufficient-funds) and writes nothing', async () => {
      const w = await funded(acme, 100);
      const before = await transferCount();
      const { response, error } = await push(acme, w.accountId, w.ach, 100.01);
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ type: `${problems}insufficient-funds`, status: 422 });
      expect(await transferCount()).toBe(before);
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '100.00', ledger: '100.00' });
      const all = await push(acme, w.accountId, w.ach, 100);
      expect(all.response.status).toBe(201);
      expect(all.data!.accountBalance).toMatchObject({ available: '0.00', ledger: '100.00' });
      expect((await balance(acme, w.accountId)).available).toBe('0.00');
      await ended(all.data!.id, 'completed');
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '0.00', ledger: '0.00' });
    });
  });

  describe('wires', () => {
    it('sends a domestic wire to an ABA counterparty, held until it settles with an IMAD', async () => {
      const w = await funded(acme, 10000);
      const created = await unwrap(
        acme.POST('/finance/api/v1/transaction/wire/domestic', {
          body: {
            accountId: w.accountId,
            counterpartyId: w.aba,
            amount: 5000,
            currency: 'USD',
            description: 'Freight deposit',
            externalId: 'po-7781',
            remittanceInformation: 'Deposit order 7781',
          },
        }),
      );
      const sent = {
        type: 'WIRE_DOMESTIC',
        to: { type: 'COUNTERPARTY', counterpartyId: w.aba, name: 'Harbor Freight Partners LLC', accountNumber: '7788' },
        ach: null,
      };
      const details = { purposeOfPayment: null, chargeBearer: null, remittanceInformation: 'Deposit order 7781', uetr: null, fx: null };
      expect(created).toMatchObject({
        ...sent,
        status: 'pending',
        wire: { ...details, imad: null },
        accountBalance: { available: '5000.00', ledger: '10000.00' },
      });
      expect(created.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '5000.00', 'pending'),
        entry('settlement:wire_domestic', 'CREDIT', '5000.00', 'pending'),
      ]);
      const wire = await ended(created.id, 'completed');
      expect(wire).toMatchObject({
        ...sent,
        status: 'completed',
        wire: { ...details, imad: expect.stringMatching(/^[0-9]{8}B1QGC01C[0-9]{6}$/) },
        accountBalance: { available: '5000.00', ledger: '5000.00' },
      });
      expect(wire.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '5000.00', 'posted'),
        entry('settlement:wire_domestic', 'CREDIT', '5000.00', 'posted'),
      ]);
      const wired = async (amount: number) => {
        const answer = await unwrap(
          acme.POST('/finance/api/v1/transaction/wire/domestic', {
            body: { accountId: w.accountId, counterpartyId: w.aba, amount, currency: 'USD' },
          }),
        );
        expect(answer).toMatchObject({ status: 'pending', accountBalance: { available: (5000 - amount).toFixed(2), ledger: '5000.00' } });
        return answer.id;
      };
      const returned = await ended(await wired(10.91), 'returned');
      expect(returned).toMatchObject({
        status: 'returned',
        reasons: [{ code: 'account_closed' }],
        returnCode: 'AC04',
        accountBalance: { available: '5000.00' },
      });
      const failed = await ended(await wired(10.92), 'failed');
      expect(failed).toMatchObject({ status: 'failed', reasons: [{ code: 'beneficiary_bank_rejected' }] });
    });

    it('refuses a domestic wire to a counterparty without ABA wire details, in another currency, or above the balance (422)', async () => {
      const w = await funded(acme, 100);
      for (const counterpartyId of [w.ach, w.bic]) {
        const { response, error } = await acme.POST('/finance/api/v1/transaction/wire/domestic', {
          body: { accountId: w.accountId, counterpartyId, amount: 5, currency: 'USD' },
        });
        expect(response.status).toBe(422);
        expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/counterpartyId' }));
      }
      expect(
        (
          await acme.POST('/finance/api/v1/transaction/wire/domestic', {
            body: { accountId: w.accountId, counterpartyId: w.aba, amount: 5, currency: 'CAD' },
          })
        ).response.status,
      ).toBe(422);
      const over = await acme.POST('/finance/api/v1/transaction/wire/domestic', {
        body: { accountId: w.accountId, counterpartyId: w.aba, amount: 100.5, currency: 'USD' },
      });
      expect(over.error!.type).toBe(`${problems}insufficient-funds`);
    });

    it('sends an international wire in EUR, holding the USD equivalent (half up to the cent), settled with a UETR', async () => {
      const w = await funded(acme, 10000);
      const created = await unwrap(
        acme.POST('/finance/api/v1/transaction/wire/international', {
          body: {
            accountId: w.accountId,
            counterpartyId: w.bic,
            amount: 5000,
            currency: 'EUR',
            purposeOfPayment: 'GOODS',
            remittanceInformation: 'RE-2026-1187',
          },
        }),
      );
      const sent = { type: 'WIRE_INTERNATIONAL', amount: '5000.00', currency: 'EUR', to: { accountNumber: '3000' } };
      const details = {
        purposeOfPayment: 'GOODS',
        chargeBearer: 'SHA',
        imad: null,
        fx: { sourceAmount: '5428.89', sourceCurrency: 'USD', targetAmount: '5000.00', targetCurrency: 'EUR', rate: '0.9210' },
      };
      expect(created).toMatchObject({
        ...sent,
        status: 'pending',
        wire: { ...details, uetr: null },
        accountBalance: { available: '4571.11', ledger: '10000.00' },
      });
      expect(created.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '5428.89', 'pending'),
        entry('settlement:wire_international', 'CREDIT', '5428.89', 'pending'),
      ]);
      const wire = await ended(created.id, 'completed');
      expect(wire).toMatchObject({
        ...sent,
        status: 'completed',
        wire: { ...details, uetr: expect.stringMatching(/^[0-9a-f-]{36}$/) },
        accountBalance: { available: '4571.11', ledger: '4571.11' },
      });
      expect(wire.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '5428.89', 'posted'),
        entry('settlement:wire_international', 'CREDIT', '5428.89', 'posted'),
      ]);
      const yen = await unwrap(
        acme.POST('/finance/api/v1/transaction/wire/international', {
          body: { accountId: w.accountId, counterpartyId: w.bic, amount: 15000, currency: 'JPY', purposeOfPayment: 'SERVICES' },
        }),
      );
      expect(yen).toMatchObject({
        amount: '15000',
        currency: 'JPY',
        wire: { fx: { sourceAmount: '100.34', targetAmount: '15000', rate: '149.5000' } },
      });
      const usd = await unwrap(
        acme.POST('/finance/api/v1/transaction/wire/international', {
          body: {
            accountId: w.accountId,
            counterpartyId: w.bic,
            amount: 100,
            currency: 'USD',
            purposeOfPayment: 'RENT',
            chargeBearer: 'OUR',
          },
        }),
      );
      expect(usd.wire).toMatchObject({ chargeBearer: 'OUR', fx: null });
      // The funds check uses the converted amount: 4100 EUR is 4451.69 USD, more than the 4370.77 left.
      const over = await acme.POST('/finance/api/v1/transaction/wire/international', {
        body: { accountId: w.accountId, counterpartyId: w.bic, amount: 4100, currency: 'EUR', purposeOfPayment: 'GOODS' },
      });
      expect(over.error!.type).toBe(`${problems}insufficient-funds`);
    });

    it('refuses an international wire without a purpose (400), to a non-BIC counterparty or in an unsent currency (422)', async () => {
      const w = await funded(acme, 100);
      const body = { accountId: w.accountId, counterpartyId: w.bic, amount: 5, currency: 'EUR', purposeOfPayment: 'GOODS' as const };
      const { purposeOfPayment: _p, ...noPurpose } = body;
      expect((await acme.POST('/finance/api/v1/transaction/wire/international', { body: noPurpose as typeof body })).response.status).toBe(
        400,
      );
      expect(
        (await acme.POST('/finance/api/v1/transaction/wire/international', { body: { ...body, counterpartyId: w.aba } })).response.status,
      ).toBe(422);
      expect(
        (await acme.POST('/finance/api/v1/transaction/wire/international', { body: { ...body, currency: 'XXX' } })).response.status,
      ).toBe(422);
      expect((await acme.POST('/finance/api/v1/transaction/wire/international', { body: { ...body, amount: 5.555 } })).error!.type).toBe(
        `${problems}invalid-amount`,
      );
    });

    it('debits the USD equivalent rounded up: split wires never debit less than the value they send', async () => {
      const w = await funded(acme, 100);
      const wire = (amount: number) =>
        unwrap(
          acme.POST('/finance/api/v1/transaction/wire/international', {
            body: { accountId: w.accountId, counterpartyId: w.bic, amount, currency: 'INR', purposeOfPayment: 'SERVICES' },
          }),
        );
      // INR 1.24 at 83.25 is USD 0.01489...: the debit is 0.02, not 0.01 (nor refused as too small).
      const small = await wire(1.24);
      expect(small.wire!.fx).toMatchObject({ sourceAmount: '0.02', targetAmount: '1.24', rate: '83.2500' });
      expect(small.ledgerEntries[0]).toMatchObject({ direction: 'DEBIT', amount: '0.02' });
      // The smallest amount sent still debits a cent.
      expect((await wire(0.01)).wire!.fx!.sourceAmount).toBe('0.01');
      // INR 12.40 sent as ten wires is worth USD 0.1489...; together they debit at least that (0.20).
      const split = await Promise.all(Array.from({ length: 10 }, () => wire(1.24)));
      const debitedCents = split.reduce((sum, t) => sum + Math.round(Number(t.wire!.fx!.sourceAmount) * 100), 0);
      expect(debitedCents / 100).toBeGreaterThanOrEqual(12.4 / 83.25);
      expect(debitedCents).toBe(20);
      expect(await balance(acme, w.accountId)).toMatchObject({ available: (100 - 0.02 - 0.01 - 0.2).toFixed(2) });
    });
  });

  describe('internal transfers', () => {
    it('moves money between two accounts, posted at once on both sides', async () => {
      const w = await funded(acme, 1000);
      const reserve = await openAccount(acme, w.businessId, { accountName: 'Tax reserve', accountType: 'SAVINGS' });
      const moved = await unwrap(internal(acme, w.accountId, reserve.id, 200));
      expect(moved).toMatchObject({
        type: 'INTERNAL',
        status: 'completed',
        from: { type: 'ACCOUNT', accountId: w.accountId, name: 'Operating' },
        to: { type: 'ACCOUNT', accountId: reserve.id, name: 'Tax reserve', accountNumber: reserve.accountNumber },
        ach: null,
        wire: null,
        accountBalance: { accountId: w.accountId, available: '800.00', ledger: '800.00' },
      });
      expect(moved.ledgerEntries).toEqual([
        entry(`account:${w.accountId}`, 'DEBIT', '200.00', 'posted'),
        entry(`account:${reserve.id}`, 'CREDIT', '200.00', 'posted'),
      ]);
      expect(await balance(acme, reserve.id)).toMatchObject({ available: '200.00', ledger: '200.00' });
      // Always completes, whatever the cents.
      expect((await unwrap(internal(acme, w.accountId, reserve.id, 0.91))).status).toBe('completed');
    });

    it('moves money to another business of the same merchant', async () => {
      const w = await funded(acme, 100);
      const second = await world(acme);
      await unwrap(internal(acme, w.accountId, second.accountId, 40));
      expect(await balance(acme, second.accountId)).toMatchObject({ available: '40.00' });
    });

    it("refuses the same account (422), another merchant's account (404) and an overdraft (422 insufficient-funds)", async () => {
      const w = await funded(acme, 100);
      const theirs = await world(other);
      const same = await internal(acme, w.accountId, w.accountId, 5);
      expect(same.response.status).toBe(422);
      const foreign = await internal(acme, w.accountId, theirs.accountId, 5);
      expect(foreign.response.status).toBe(404);
      expect(foreign.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/toAccountId' }));
      const from = await internal(acme, theirs.accountId, w.accountId, 5);
      expect(from.response.status).toBe(404);
      expect(from.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/accountId' }));
      const over = await internal(acme, w.accountId, (await world(acme)).accountId, 100.01);
      expect(over.error!.type).toBe(`${problems}insufficient-funds`);
    });

    it('draws a shortfall from the funding account first, by an internal transfer named in fundingTransferId', async () => {
      const w = await world(acme);
      const operating = await service.services.store.db
        .selectFrom('banking_accounts')
        .select('account_number')
        .where('id', '=', w.accountId)
        .executeTakeFirstOrThrow();
      const reserve = await openAccount(acme, w.businessId, { accountName: 'Card spend', fundingAccountNumber: operating.account_number });
      await ended((await unwrap(pull(acme, w.accountId, w.ach, 500))).id, 'completed');
      await unwrap(internal(acme, w.accountId, reserve.id, 30));
      // 100 from an account holding 30: 70 is swept from Operating (posted at once), then the debit (held).
      const created = await unwrap(push(acme, reserve.id, w.ach, 100));
      expect(created.fundingTransferId).toEqual(expect.any(Number));
      expect(created.accountBalance).toMatchObject({ accountId: reserve.id, available: '0.00', ledger: '100.00' });
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '400.00', ledger: '400.00' });
      const pushed = await ended(created.id, 'completed');
      expect(pushed.fundingTransferId).toBe(created.fundingTransferId);
      expect(pushed.accountBalance).toMatchObject({ accountId: reserve.id, available: '0.00', ledger: '0.00' });
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '400.00', ledger: '400.00' });
      const sweep = await service.services.store.db
        .selectFrom('banking_transfers')
        .selectAll()
        .where('id', '=', pushed.fundingTransferId!)
        .executeTakeFirstOrThrow();
      expect(sweep).toMatchObject({
        type: 'INTERNAL',
        status: 'completed',
        amount_minor: 7000,
        from_account_id: w.accountId,
        to_account_id: reserve.id,
      });
      // No sweep when the account has enough.
      await unwrap(internal(acme, w.accountId, reserve.id, 50));
      expect((await unwrap(push(acme, reserve.id, w.ach, 50))).fundingTransferId).toBeNull();
      // Neither can cover it: refused, nothing moved, not even the sweep.
      const before = await transferCount();
      const refused = await push(acme, reserve.id, w.ach, 400.01);
      expect(refused.error!.type).toBe(`${problems}insufficient-funds`);
      expect(await transferCount()).toBe(before);
      expect(await balance(acme, w.accountId)).toMatchObject({ available: '350.00' });
    });
  });

  describe('ownership and states, for every kind of transfer', () => {
    it("answers 404 for another merchant's account or counterparty, 422 for a counterparty of another business", async () => {
      const w = await funded(acme, 100);
      const theirs = await world(other);
      const sibling = await world(acme);
      const calls = (accountId: number, cp: World) => [
        pull(acme, accountId, cp.ach, 5),
        push(acme, accountId, cp.ach, 5),
        acme.POST('/finance/api/v1/transaction/wire/domestic', { body: { accountId, counterpartyId: cp.aba, amount: 5, currency: 'USD' } }),
        acme.POST('/finance/api/v1/transaction/wire/international', {
          body: { accountId, counterpartyId: cp.bic, amount: 5, currency: 'USD', purposeOfPayment: 'GOODS' },
        }),
      ];
      for (const r of await Promise.all(calls(w.accountId, theirs))) {
        expect(r.response.status).toBe(404);
        expect(r.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/counterpartyId' }));
      }
      for (const r of await Promise.all(calls(theirs.accountId, w))) expect(r.response.status).toBe(404);
      for (const r of await Promise.all(calls(w.accountId, sibling))) {
        expect(r.response.status).toBe(422);
        expect(r.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/counterpartyId' }));
      }
    });

    it('refuses frozen and closed accounts and a suspended business (422), for credits and debits', async () => {
      const w = await funded(acme, 100);
      const second = await openAccount(acme, w.businessId);
      for (const status of ['frozen', 'closed'] as const) {
        await setAccountStatus(w.accountId, status);
        for (const r of [
          await pull(acme, w.accountId, w.ach, 5),
          await push(acme, w.accountId, w.ach, 5),
          await internal(acme, second.id, w.accountId, 5),
        ]) {
          expect(r.response.status).toBe(422);
          expect(r.error!.type).toBe(`${problems}inactive-account`);
        }
      }
      await setAccountStatus(w.accountId, 'active');
      await service.services.store.db
        .updateTable('banking_businesses')
        .set({ status: 'suspended' })
        .where('id', '=', w.businessId)
        .execute();
      expect((await push(acme, w.accountId, w.ach, 5)).response.status).toBe(422);
      expect((await pull(acme, w.accountId, w.ach, 5)).response.status).toBe(422);
    });
  });
});

describe('the USD debit of an international wire', () => {
  it('is the least whole cent worth at least the amount sent, for every currency and amount', () => {
    for (const [currency, rate] of Object.entries(fxRates)) {
      const exponent = currencyExponents[currency]!;
      const [whole = '0', fraction = ''] = rate.split('.');
      const rateUnits = BigInt(whole + fraction);
      for (let targetMinor = 1; targetMinor <= 5000; targetMinor += 7) {
        const { sourceMinor } = convertToUsd(targetMinor, currency);
        // In exact integers: cents × rate ≥ target, and one cent less would be worth less than the target.
        const worth = (cents: number) => BigInt(cents) * rateUnits * 10n ** BigInt(exponent);
        const sent = BigInt(targetMinor) * 10n ** BigInt(2 + fraction.length);
        expect(worth(sourceMinor) >= sent, `${currency} ${targetMinor}`).toBe(true);
        expect(worth(sourceMinor - 1) < sent, `${currency} ${targetMinor}`).toBe(true);
      }
    }
  });
});

// Payee accounts through group A over real HTTP, on each store: the seed's account rules, masking to the
// last 4 digits, disabling that keeps the record, and isolation between merchants.
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

describe.each(stores)('payee accounts on $name', (kind) => {
  const service = useService(kind);
  let acme: TestMerchant;
  let payeeId: number;

  beforeAll(async () => {
    acme = await newMerchant(service);
    payeeId = (await unwrap(acme.a.POST('/v1/payees', { body: individual }))).id;
  });

  const path = () => ({ path: { id: payeeId } });

  it('adds a bank account and returns its id; the number comes back as its last 4 digits', async () => {
    const { data, response } = await acme.a.POST('/v1/payees/{id}/accounts', { params: path(), body: bankAccount() });
    expect(response.status).toBe(201);
    expect(data!.PayeeAccountId).toMatch(/^pa_[0-9a-z]{26}$/);
    const account = await unwrap(
      acme.a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: payeeId, account_id: data!.PayeeAccountId } } }),
    );
    expect(account).toMatchObject({
      payeeId,
      type: 'BANK_ACCOUNT',
      accountNumber: '6789',
      routingNumber: '021000021',
      accountType: 'CHECKINGS',
      accountTypeId: 1,
      active: true,
    });
    expect(JSON.stringify(account)).not.toContain('000123456789');
  });

  it('adds an IBAN account, checking its check digits', async () => {
    const good = await acme.a.POST('/v1/payees/{id}/accounts', {
      params: path(),
      body: { type: 'IBAN', accountHolderName: null, IBAN: 'DE89370400440532013000', Currency: 'EUR' },
    });
    expect(good.response.status).toBe(201);
    const account = await unwrap(
      acme.a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: payeeId, account_id: good.data!.PayeeAccountId } } }),
    );
    expect(account).toMatchObject({ type: 'IBAN', IBAN: '3000', accountType: null, accountTypeId: null });
    const bad = await acme.a.POST('/v1/payees/{id}/accounts', {
      params: path(),
      body: { type: 'IBAN', accountHolderName: null, IBAN: 'DE89370400440532013001' },
    });
    expect(bad.response.status).toBe(422);
    expect(bad.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/IBAN' }));
  });

  it.each(['accountHolderName', 'bankName', 'routingNumber', 'accountNumber', 'accountType'] as const)(
    'rejects a BANK_ACCOUNT without %s',
    async (field) => {
      const { response, error } = await acme.a.POST('/v1/payees/{id}/accounts', {
        params: path(),
        body: { ...bankAccount(), [field]: undefined },
      });
      expect(response.status).toBe(400);
      expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: `#/${field}` }));
    },
  );

  it('rejects an IBAN account without IBAN', async () => {
    const { response, error } = await acme.a.POST('/v1/payees/{id}/accounts', {
      params: path(),
      // @ts-expect-error refused by the service, and by the types (a conditional requirement)
      body: { type: 'IBAN', accountHolderName: 'Maria' },
    });
    expect(response.status).toBe(400);
    expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/IBAN' }));
  });

  it('updates an account, disables it (kept, listed, inactive) and then refuses changes', async () => {
    const id = (await unwrap(acme.a.POST('/v1/payees/{id}/accounts', { params: path(), body: bankAccount('000555554321') })))
      .PayeeAccountId;
    const params = { path: { id: payeeId, account_id: id } };
    const updated = await unwrap(
      acme.a.PATCH('/v1/payees/{id}/accounts/{account_id}', { params, body: { ...bankAccount('000999998888'), accountType: 'SAVINGS' } }),
    );
    expect(updated).toMatchObject({ accountNumber: '8888', accountType: 'SAVINGS', accountTypeId: 2 });
    const disabled = await unwrap(acme.a.DELETE('/v1/payees/{id}/accounts/{account_id}', { params }));
    expect(disabled).toEqual({ accountId: id, message: `Payee account ${id} is disabled.` });
    const again = await unwrap(acme.a.DELETE('/v1/payees/{id}/accounts/{account_id}', { params }));
    expect(again.accountId).toBe(id);
    const listed = await unwrap(acme.a.GET('/v1/payees/{id}/accounts', { params: path() }));
    expect(listed.find((a) => a.payeeAccountId === id)).toMatchObject({ active: false, accountNumber: '8888' });
    const change = await acme.a.PATCH('/v1/payees/{id}/accounts/{account_id}', { params, body: bankAccount() });
    expect(change.response.status).toBe(409);
  });

  it('hides accounts from other merchants', async () => {
    const other = await newMerchant(service, 'Other');
    const id = (await unwrap(acme.a.POST('/v1/payees/{id}/accounts', { params: path(), body: bankAccount() }))).PayeeAccountId;
    expect((await other.a.GET('/v1/payees/{id}/accounts', { params: path() })).response.status).toBe(404);
    expect(
      (await other.a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: payeeId, account_id: id } } })).response.status,
    ).toBe(404);
    expect(
      (await other.a.DELETE('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: payeeId, account_id: id } } })).response
        .status,
    ).toBe(404);
    expect((await other.a.POST('/v1/payees/{id}/accounts', { params: path(), body: bankAccount() })).response.status).toBe(404);
    expect(
      await unwrap(acme.a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: payeeId, account_id: id } } })),
    ).toMatchObject({ active: true });
  });

  it('holds at most 20 accounts per payee (422)', async () => {
    const payee = await unwrap(acme.a.POST('/v1/payees', { body: individual }));
    for (let i = 0; i < 20; i++)
      await unwrap(acme.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() }));
    const over = await acme.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() });
    expect(over.response.status).toBe(422);
    expect(over.error!.type).toBe('https://payouts.example/problems/limit-reached');
  });
});

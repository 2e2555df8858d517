// Payees through groups A and B over real HTTP, on each store: creation rules, update, list filters and
// paging, and isolation between merchants.
import { eachPayee } from '../../client/paginate.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { address, business, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

describe.each(stores)('payees on $name', (kind) => {
  const service = useService(kind);
  let acme: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    acme = await newMerchant(service, 'Acme');
    other = await newMerchant(service, 'Other');
  });

  it('creates an individual payee without phone or tax id, and returns its id', async () => {
    const { data, response } = await acme.a.POST('/v1/payees', { body: individual });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ ...individual, phoneNumber: null, taxId: null, idType: null, dateOfBirth: null });
    expect(data!.id).toBeGreaterThan(0);
    expect(response.headers.get('location')).toBe(`/v1/payees/${data!.id}`);
  });

  it('creates a business payee with tax id and phone number; the tax id comes back as its last 4', async () => {
    const payee = await unwrap(acme.a.POST('/v1/payees', { body: business }));
    expect(payee).toMatchObject({ ...business, taxId: '6789' });
    // Kept whole: the list filter still matches the full value.
    const found = await unwrap(acme.a.POST('/v1/payees/list', { body: { taxId: business.taxId } }));
    expect(found.map((p) => p.id)).toContain(payee.id);
  });

  it('rejects a business payee without taxId, naming the field', async () => {
    // @ts-expect-error refused by the service, and by the types (a conditional requirement)
    const { error, response } = await acme.a.POST('/v1/payees', { body: { ...business, taxId: undefined } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(error).toMatchObject({ type: 'https://payouts.example/problems/validation-error', status: 400 });
    expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/taxId' }));
  });

  it('rejects a business payee without phoneNumber, naming the field', async () => {
    // @ts-expect-error refused by the service, and by the types (a conditional requirement)
    const { error } = await acme.a.POST('/v1/payees', { body: { ...business, phoneNumber: null } });
    expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/phoneNumber' }));
  });

  it('rejects a 101-character name and an unknown field, stores nothing', async () => {
    const before = await unwrap(acme.a.POST('/v1/payees/list', { body: { pageSize: 100 } }));
    const long = await acme.a.POST('/v1/payees', { body: { ...individual, name: 'x'.repeat(101) } });
    expect(long.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/name' }));
    const extra = await acme.a.POST('/v1/payees', { body: { ...individual, MerchantId: 2 } as typeof individual });
    expect(extra.response.status).toBe(400);
    expect(extra.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/MerchantId' }));
    const after = await unwrap(acme.a.POST('/v1/payees/list', { body: { pageSize: 100 } }));
    expect(after).toHaveLength(before.length);
  });

  it('walks every payee a page at a time with the client pager, through either group', async () => {
    for (const name of ['Pager One', 'Pager Two', 'Pager Three'])
      await unwrap(acme.a.POST('/v1/payees', { body: { ...individual, name } }));
    const all = await unwrap(acme.a.POST('/v1/payees/list', { body: { pageSize: 100 } }));
    expect(all.length).toBeGreaterThan(2);
    for (const client of [acme.a, acme.b]) {
      const paged = [];
      for await (const p of eachPayee(client, { pageSize: 2 })) paged.push(p.id);
      expect(paged).toEqual(all.map((p) => p.id));
    }
  });

  it("creates through group B's /v1/payees/Create the same payees group A sees", async () => {
    const created = await unwrap(acme.b.POST('/v1/payees/Create', { body: { ...individual, name: 'Via Platform' } }));
    expect(await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: created.id } } }))).toEqual(created);
    expect(await unwrap(acme.b.GET('/v1/payees/{id}', { params: { path: { id: created.id } } }))).toEqual(created);
  });

  it('updates only the fields sent and replaces the address', async () => {
    const payee = await unwrap(acme.a.POST('/v1/payees', { body: { ...individual, idType: 'passport' } }));
    const newAddress = { ...address, addressLine: '1 Main Street', postalCode: '10001' };
    const updated = await unwrap(
      acme.a.PATCH('/v1/payees/{id}', {
        params: { path: { id: payee.id } },
        body: { EmailAddress: 'new@example.com', address: newAddress },
      }),
    );
    expect(updated).toMatchObject({
      id: payee.id,
      name: individual.name,
      idType: 'passport',
      EmailAddress: 'new@example.com',
      address: newAddress,
    });
    expect(new Date(updated.updatedOn).getTime()).toBeGreaterThanOrEqual(new Date(payee.updatedOn).getTime());
  });

  it('refuses an update that would leave a business without a tax id (422), and keeps the record', async () => {
    const payee = await unwrap(acme.a.POST('/v1/payees', { body: individual }));
    const { error, response } = await acme.a.PATCH('/v1/payees/{id}', {
      params: { path: { id: payee.id } },
      body: { payeeType: 'business', taxId: '12-3456789', phoneNumber: '+13125550198', address },
    });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    const cleared = await acme.a.PATCH('/v1/payees/{id}', { params: { path: { id: payee.id } }, body: { taxId: null, address } });
    expect(cleared.response.status).toBe(422);
    expect(cleared.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/taxId' }));
    expect(await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: payee.id } } }))).toMatchObject({ taxId: '6789' });
  });

  it('lists with filters, sorting and pages', async () => {
    const m = await newMerchant(service, 'Lister');
    for (const name of ['Charlie Brown', 'alice Smith', 'Bob Stone', 'Alicia Keys']) {
      await unwrap(
        m.a.POST('/v1/payees', { body: { ...individual, name, EmailAddress: `${name.split(' ')[0]!.toLowerCase()}@example.com` } }),
      );
    }
    await unwrap(m.a.POST('/v1/payees', { body: { ...business, name: 'Zeta Corp' } }));
    const names = (list: { name: string }[]) => list.map((p) => p.name);
    expect(names(await unwrap(m.a.POST('/v1/payees/list', { body: { name: 'ALI', sortProperty: 'name' } })))).toEqual([
      'alice Smith',
      'Alicia Keys',
    ]);
    expect(names(await unwrap(m.a.POST('/v1/payees/list', { body: { payeeType: 'business' } })))).toEqual(['Zeta Corp']);
    expect(names(await unwrap(m.a.POST('/v1/payees/list', { body: { EmailAddress: 'BOB@example.com' } })))).toEqual(['Bob Stone']);
    expect(
      names(
        await unwrap(
          m.a.POST('/v1/payees/list', {
            body: { address: { city: 'new york' }, payeeType: 'individual', sortProperty: 'name', isDescending: true, pageSize: 2 },
          }),
        ),
      ),
    ).toEqual(['Charlie Brown', 'Bob Stone']);
    expect(
      names(
        await unwrap(
          m.a.POST('/v1/payees/list', {
            body: { payeeType: 'individual', sortProperty: 'name', isDescending: true, pageSize: 2, pageNumber: 2 },
          }),
        ),
      ),
    ).toEqual(['Alicia Keys', 'alice Smith']);
    expect(await unwrap(m.b.POST('/v1/payees/list', { body: {} }))).toHaveLength(5);
  });

  it('bounds the page size (400 above 100)', async () => {
    const { response, error } = await acme.a.POST('/v1/payees/list', { body: { pageSize: 101 } });
    expect(response.status).toBe(400);
    expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/pageSize' }));
  });

  it("never shows or changes another merchant's payee (404, same as missing)", async () => {
    const mine = await unwrap(acme.a.POST('/v1/payees', { body: individual }));
    const read = await other.a.GET('/v1/payees/{id}', { params: { path: { id: mine.id } } });
    const missing = await other.a.GET('/v1/payees/{id}', { params: { path: { id: 999_999 } } });
    expect(read.response.status).toBe(404);
    expect(missing.response.status).toBe(404);
    expect(read.error!.title).toBe(missing.error!.title);
    const write = await other.a.PATCH('/v1/payees/{id}', { params: { path: { id: mine.id } }, body: { name: 'Hijacked', address } });
    expect(write.response.status).toBe(404);
    expect(await unwrap(other.a.POST('/v1/payees/list', { body: {} }))).toEqual([]);
    expect(await unwrap(acme.a.GET('/v1/payees/{id}', { params: { path: { id: mine.id } } }))).toMatchObject({ name: individual.name });
  });
});

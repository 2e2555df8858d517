// Name searches ignore case in every script, the same on both stores (server/platform/store/case-folding.ts): SQLite's
// own lower() folds ASCII only, so "élodie" never found "ÉLODIE" there. Driven through the real search
// operations: listPayees (groups A and B, `name`) and listRecipients (group C, `SearchText`).
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { foldCase } from '../../server/platform/store/case-folding.js';
import { individual } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

// Each search, and the names it must find (and no other) among those stored.
const stored = ['ÉLODIE Dupont', 'élodie Durand', 'ΣΩΚΡΑΤΗΣ Ltd', 'Дмитрий Иванов', 'STRAßE Bau', 'Ǆemal Ǉubić', 'ÖZGÜR Çelik'];
const searches: [search: string, finds: string[]][] = [
  ['élodie', ['ÉLODIE Dupont', 'élodie Durand']],
  ['ÉLODIE', ['ÉLODIE Dupont', 'élodie Durand']],
  ['Élodie dup', ['ÉLODIE Dupont']],
  ['ÉLODIE DUR', ['élodie Durand']],
  ['σωκρατης', ['ΣΩΚΡΑΤΗΣ Ltd']],
  ['σωκρατησ', ['ΣΩΚΡΑΤΗΣ Ltd']],
  ['Σωκρατης LTD', ['ΣΩΚΡΑΤΗΣ Ltd']],
  ['ДМИТРИЙ', ['Дмитрий Иванов']],
  ['иванов', ['Дмитрий Иванов']],
  ['straße', ['STRAßE Bau']],
  ['ǅEMAL', ['Ǆemal Ǉubić']],
  ['ǉubić', ['Ǆemal Ǉubić']],
  ['özgür', ['ÖZGÜR Çelik']],
  ['ÇELIK', ['ÖZGÜR Çelik']],
];
// Searches that must find none of them: case is folded, accents and letters are not.
const misses = ['elodie', 'sokratis', 'strasse', 'ozgur'];

describe('foldCase', () => {
  it('folds upper, title and final-sigma forms to one', () => {
    expect(foldCase('ÉLODIE')).toBe(foldCase('élodie'));
    expect(foldCase('ΣΩΚΡΑΤΗΣ')).toBe('σωκρατησ');
    expect(foldCase('σωκρατης')).toBe('σωκρατησ');
    expect(foldCase('ǄǅǆdžDŽ')).toBe('ǆǆǆdždž');
  });
});

describe.each(stores)('name search on $name', (kind) => {
  const service = useService(kind, {}, { resolve: loopbackResolver });
  let tenant: Tenant;
  const payeeIds = new Map<string, number>();
  const recipientIds = new Map<string, number>();

  beforeAll(async () => {
    tenant = await newTenant(service, 'Folding');
    for (const name of stored) {
      const payee = await unwrap(tenant.a.POST('/v1/payees', { body: { ...individual, name } }));
      payeeIds.set(name, payee.id);
      const recipient = await unwrap(
        tenant.c.POST('/finance/v1/recipient-ach', {
          body: {
            email: 'recipient@example.com',
            name: `${name} Recipient`,
            type: 'INDIVIDUAL',
            merchantId: tenant.merchantId,
            ach: { accountNumber: '000777123456', bankAccountType: 'CHECKING', routingNumber: '021000021' },
          },
        }),
      );
      recipientIds.set(name, recipient.id);
    }
  });

  it.each(searches)('listPayees (A and B) finds %j in %j', async (search, finds) => {
    const viaA = await unwrap(tenant.a.POST('/v1/payees/list', { body: { name: search, pageSize: 100 } }));
    const viaB = await unwrap(tenant.b.POST('/v1/payees/list', { body: { name: search, pageSize: 100 } }));
    for (const found of [viaA, viaB]) {
      const ours = found.map((p) => p.id).filter((id) => [...payeeIds.values()].includes(id));
      expect(ours.sort()).toEqual(finds.map((n) => payeeIds.get(n)).sort());
    }
  });

  it.each(searches)('listRecipients (C) finds %j in %j', async (search, finds) => {
    const page = await unwrap(tenant.c.GET('/finance/v1/payees', { params: { query: { SearchText: search, PageSize: 100 } } }));
    const ours = page.data.map((r) => r.id).filter((id) => [...recipientIds.values()].includes(id));
    expect(ours.sort()).toEqual(finds.map((n) => recipientIds.get(n)).sort());
  });

  it.each(misses)('finds nothing for %j: accents and spellings are not folded', async (search) => {
    expect(await unwrap(tenant.a.POST('/v1/payees/list', { body: { name: search } }))).toEqual([]);
    const page = await unwrap(tenant.c.GET('/finance/v1/payees', { params: { query: { SearchText: search } } }));
    expect(page.data).toEqual([]);
  });

  it('sorts names ignoring case, the same on both stores', async () => {
    const sorted = await unwrap(tenant.a.POST('/v1/payees/list', { body: { sortProperty: 'name', pageSize: 100 } }));
    const ours = sorted.filter((p) => payeeIds.has(p.name)).map((p) => p.name);
    // "ÉLODIE Dupont" and "élodie Durand" sort together, by their folded text, not "ÉLODIE" among capitals.
    const i = ours.indexOf('ÉLODIE Dupont');
    expect(ours[i + 1]).toBe('élodie Durand');
  });
});

// Text the service cuts is cut by code points (server/platform/text/code-points.ts), and no store is handed half a
// character (server/platform/store/well-formed-parameters.ts). Cut by UTF-16 units, an emoji at the cut left a lone
// surrogate: SQLite then kept text that read back longer than its maxLength (every read of it a 500), PostgreSQL
// kept U+FFFD. Each server-side cut of client text is driven here through real HTTP on both stores with an
// astral character straddling it, and read back whole.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/platform/store/database.js';
import { cutToCodePoints, isWellFormed } from '../../server/platform/text/code-points.js';
import { stores } from '../support/stores.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

const emoji = '😀'; // U+1F600: two UTF-16 units
const codePoints = (text: string) => [...text].length;
const firstCodePoints = (text: string, n: number) => [...text].slice(0, n).join('');

describe('cutToCodePoints', () => {
  it.each([
    ['abc', 5, 'abc'],
    ['abcdef', 3, 'abc'],
    [`ab${emoji}cd`, 3, `ab${emoji}`],
    [`ab${emoji}cd`, 2, 'ab'],
    [emoji.repeat(4), 3, emoji.repeat(3)],
    [`${emoji}𝔘é`, 2, `${emoji}𝔘`],
    ['', 0, ''],
    ['abc', 0, ''],
  ])('cuts %j to %i code points: %j', (text, max, cut) => {
    expect(cutToCodePoints(text, max)).toBe(cut);
    expect(isWellFormed(cutToCodePoints(text, max))).toBe(true);
  });

  it('leaves a lone surrogate already in the text as one code point, never pairing across it', () => {
    expect(cutToCodePoints('a\ud83db', 2)).toBe('a\ud83d');
    expect(cutToCodePoints('\ude00\ud83d\ude00', 2)).toBe(`\ude00${emoji}`);
  });

  it('tells well-formed text from text holding a lone surrogate', () => {
    expect([emoji, 'plain', '', '𝔘x'].map(isWellFormed)).toEqual([true, true, true, true]);
    expect(['\ud83d', 'a\ude00', `${emoji}\ud83d`].map(isWellFormed)).toEqual([false, false, false]);
  });
});

// Where each cut falls: a legal name + " Checking" cut to 100 (the default account name), an address's
// line1 + ", " + line2 cut to 200 (the payee's one address line).
const legalNames = [
  `${'A'.repeat(99)}${emoji} Holdings`, // the emoji's halves are UTF-16 units 99 and 100
  emoji.repeat(101), // every character astral: 100 of them fit, not 50
  `${'A'.repeat(95)}${emoji}`, // " Checking" pushes the name over; the emoji is kept whole
  `${'A'.repeat(91)}${emoji}`, // legal name + " Checking" is exactly 100 code points (101 units)
];
const addresses = [
  { line1: 'A'.repeat(197), line2: `${emoji}Suite 4` }, // line2's emoji at units 199 and 200
  { line1: `${'A'.repeat(198)}${emoji}`, line2: 'Suite 4' }, // line1's emoji at units 198 and 199, cut after it
  { line1: emoji.repeat(150), line2: emoji.repeat(100) },
];

describe.each(stores)('cuts on $name', (kind) => {
  const service = useService(kind, {}, { resolve: loopbackResolver });
  let tenant: Tenant;
  let made = 0;

  beforeAll(async () => {
    tenant = await newTenant(service, 'Cuts');
  });

  const merchant = (method: string, path: string, body?: unknown) =>
    service.send(method, path, { token: tenant.merchantToken, ...(body === undefined ? {} : { body }) });

  it.each(legalNames.map((name) => [codePoints(name), name]))(
    'a %i-character legal name names its default account whole',
    async (_, legalName) => {
      made += 1;
      const business = await merchant('POST', '/finance/api/v1/business', {
        legalName,
        entityType: 'LLC',
        taxId: `41-${String(3_000_000 + made * 101).slice(-7)}`,
        formationDate: '2019-03-14',
        incorporationCountry: 'US',
        incorporationState: 'DE',
        address: { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' },
        phone: '+13125550198',
        email: 'treasury@example.com',
      });
      expect(business.status, business.text).toBe(201);
      const id = business.body.id;
      const verified = await merchant('POST', '/finance/api/v1/identity-verification', { businessId: id, subject: 'BUSINESS' });
      expect(verified.status, verified.text).toBe(201);
      const created = await merchant('POST', `/finance/api/v1/account/${id}`, {});
      expect(created.status, created.text).toBe(201);
      const expected = firstCodePoints(`${legalName} Checking`, 100);
      expect(created.body.accountName).toBe(expected);
      // Read back from the store: whole, well-formed, within the contract's 100.
      const read = await merchant('GET', `/finance/api/v1/business/${id}/accounts/${created.body.id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.accountName).toBe(expected);
      expect(isWellFormed(read.body.accountName)).toBe(true);
      expect(codePoints(read.body.accountName)).toBeLessThanOrEqual(100);
      const listed = await merchant('GET', `/finance/api/v1/business/${id}/accounts`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.map((a: { accountName: string }) => a.accountName)).toContain(expected);
    },
  );

  it.each(addresses.map((a) => [codePoints(a.line1), codePoints(a.line2), a]))(
    'a recipient address of %i + %i characters is the payee address line whole',
    async (_, __, lines) => {
      const created = await service.send('POST', '/finance/v1/recipient-ach', {
        token: tenant.partnerToken,
        body: {
          email: 'recipient@example.com',
          name: 'Cut Recipient',
          type: 'INDIVIDUAL',
          merchantId: tenant.merchantId,
          ach: {
            accountNumber: '000555123456',
            bankAccountType: 'CHECKING',
            routingNumber: '021000021',
            address: { ...lines, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US', type: 'RESIDENCE' },
          },
        },
      });
      expect(created.status, created.text).toBe(201);
      const expected = firstCodePoints(`${lines.line1}, ${lines.line2}`, 200);
      // Group A shows the recipient as a payee, its two lines as one address line of at most 200.
      const read = await merchant('GET', `/v1/payees/${created.body.id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.address.addressLine).toBe(expected);
      expect(isWellFormed(read.body.address.addressLine)).toBe(true);
      expect(codePoints(read.body.address.addressLine)).toBeLessThanOrEqual(200);
      const listed = await merchant('POST', '/v1/payees/list', { name: 'Cut Recipient', pageSize: 100 });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.map((p: { address: { addressLine: string } }) => p.address.addressLine)).toContain(expected);
    },
  );

  it('refuses client text holding a lone surrogate with a 400 naming the field, writing nothing', async () => {
    const before = await merchant('GET', `/finance/api/v1/business/${tenant.ids.business}/accounts`);
    const refused = await service.send('POST', `/finance/api/v1/account/${tenant.ids.business}`, {
      token: tenant.merchantToken,
      raw: '{"accountName":"Operating \\ud83d"}',
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '#/accountName' })]);
    const after = await merchant('GET', `/finance/api/v1/business/${tenant.ids.business}/accounts`);
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it('refuses at the store, on either store, any text parameter holding a lone surrogate, before it is sent', async () => {
    const second = await kind.fresh();
    const store = await openStore(second.url);
    try {
      await expect(sql`select ${'a\ud83d'} as x`.execute(store.db)).rejects.toThrow(/lone UTF-16 surrogate/);
      await expect(
        store.db
          .insertInto('partners')
          .values({ name: `Half ${emoji.slice(0, 1)}`, created_at: Date.now() })
          .execute(),
      ).rejects.toThrow(/lone UTF-16 surrogate/);
      // An array parameter (PostgreSQL's `= any($1)`) is checked item by item.
      await expect(sql`select ${['ok', 'b\ude00']} as x`.execute(store.db)).rejects.toThrow(/lone UTF-16 surrogate/);
      await expect(store.db.selectFrom('partners').select('id').execute()).resolves.toEqual([]);
      // Well-formed astral text passes and reads back whole.
      const row = await sql<{ x: string }>`select ${`ok ${emoji}`} as x`.execute(store.db);
      expect(row.rows[0]!.x).toBe(`ok ${emoji}`);
    } finally {
      await store.close();
      await second.drop();
    }
  });
});

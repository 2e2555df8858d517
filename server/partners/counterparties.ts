// Reading group E's counterparties (`getCounterparty`, `listCounterparties`): the payees of kind `counterparty`
// of the merchants linked to the partner, whichever linked partner registered them, as their registration echoed
// them. Anything else (another merchant's, a recipient, a group A payee) is not found.
import type { components, operations } from '../../generated/counterparty/schema.js';
import { Problem } from '../problems.js';
import type { Store } from '../store/database.js';
import { linkedTo, type PartnerScope } from './partner-scope.js';
import { toCounterparty } from './recipients.js';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listCounterparties']['parameters']['query']>;

// Newest first by id (ids grow with creation); the cursor is the last id seen, opaque to callers.
const encodeCursor = (id: number) => Buffer.from(String(id)).toString('base64url');
function decodeCursor(cursor: string): number {
  const id = Buffer.from(cursor, 'base64url').toString();
  if (!/^[1-9][0-9]{0,15}$/.test(id) || !Number.isSafeInteger(Number(id)))
    throw new Problem('validation-error', 'The cursor is not one this service issued.', {
      errors: [{ parameter: 'Cursor', detail: 'unknown cursor' }],
    });
  return Number(id);
}

export const counterpartyNotFound = (payeeId: number) =>
  new Problem('not-found', `No counterparty ${payeeId} exists for the merchants linked to this partner.`);

export class Counterparties {
  constructor(
    private readonly store: Store,
    private readonly scope: PartnerScope,
  ) {}

  async get(partnerId: number, payeeId: number): Promise<Schemas['Counterparty']> {
    const row = await this.store.db
      .selectFrom('payees')
      .selectAll()
      .where('id', '=', payeeId)
      .where('kind', '=', 'counterparty')
      .where('merchant_id', 'in', linkedTo(this.store.db, partnerId))
      .executeTakeFirst();
    if (!row) throw counterpartyNotFound(payeeId);
    return toCounterparty(row);
  }

  async list(partnerId: number, query: ListQuery): Promise<Schemas['CounterpartyList']> {
    if (query.MerchantId !== undefined)
      await this.scope.requireLinked(partnerId, query.MerchantId, { parameter: 'MerchantId', detail: 'unknown merchant' });
    const pageSize = query.PageSize ?? 25;
    let q = this.store.db
      .selectFrom('payees')
      .selectAll()
      .where('kind', '=', 'counterparty')
      .where('merchant_id', 'in', linkedTo(this.store.db, partnerId));
    if (query.MerchantId !== undefined) q = q.where('merchant_id', '=', query.MerchantId);
    if (query.Cursor !== undefined) q = q.where('id', '<', decodeCursor(query.Cursor));
    const rows = await q
      .orderBy('id', 'desc')
      .limit(pageSize + 1)
      .execute();
    const page = rows.slice(0, pageSize);
    return { data: page.map(toCounterparty), nextCursor: rows.length > pageSize ? encodeCursor(Number(page[page.length - 1]!.id)) : null };
  }
}

// Reading group E's counterparties (`getCounterparty`, `listCounterparties`): the payees of kind `counterparty`
// of the merchants linked to the partner, whichever linked partner registered them, as their registration echoed
// them. Anything else (another merchant's, a recipient, a group A payee) is not found.
import type { components, operations } from '../../../generated/counterparty/schema.js';
import { Problem } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { linkedTo, type PartnerScope } from './partner-scope.js';
import { toCounterparty } from './recipients.js';
import { cursorPage, idCursorList } from '../../platform/store/cursor.js';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listCounterparties']['parameters']['query']>;

// Newest first by id (ids grow with creation); cursors issued before store/cursor.ts were the bare id, still read.
const counterpartyCursors = idCursorList('payee', { readsBarePositions: true });

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
    let q = this.store.db
      .selectFrom('payees')
      .selectAll()
      .where('kind', '=', 'counterparty')
      .where('merchant_id', 'in', linkedTo(this.store.db, partnerId));
    if (query.MerchantId !== undefined) q = q.where('merchant_id', '=', query.MerchantId);
    const { page, nextCursor } = await cursorPage(
      counterpartyCursors,
      query,
      (below, limit) =>
        q
          .$if(below !== undefined, (p) => p.where('id', '<', below!))
          .orderBy('id', 'desc')
          .limit(limit)
          .execute(),
      (row) => Number(row.id),
    );
    return { data: page.map(toCounterparty), nextCursor };
  }
}

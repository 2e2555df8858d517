// Changing recipients (group C, `updateRecipient`) and counterparties (group E, `updateCounterparty`): contact
// details and bank details, field by field; this is how a notification of change is applied. The change is merged
// into the recorded request and the result checked as the create checks it, before anything is written. Payments
// already made keep the account number they were made with (`payments.account_number`); later ones read the new
// details. Group A sees the changed name, email, phone and address on the same payee.
import type { Selectable, Updateable } from 'kysely';
import type { components as C } from '../../../generated/partner/schema.js';
import type { components as E } from '../../../generated/counterparty/schema.js';
import { type FieldError, Problem, bodyField } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import type { PayeeTable } from '../../platform/store/schema.js';
import { linkedTo } from './partner-scope.js';
import { payeeColumns, requireAba, requireWireBanks, toCounterparty, toRecipient, type Recipient } from './recipients.js';

type CS = C['schemas'];
type ES = E['schemas'];
type Address = CS['RecipientAddress'];
type Change = CS['RecipientUpdateRequest'] | ES['CounterpartyUpdateRequest'];

/** The create's request as recorded in `payees.details` (the fields a change may touch, and what decides its rules). */
interface Recorded {
  name: string;
  email: string;
  phone?: string | null;
  type: 'INDIVIDUAL' | 'BUSINESS';
  ach?: { accountNumber: string; routingNumber: string; rdfiNumberQualifier?: string; gatewayRoutingNumber?: string; address?: Address };
  wire?: CS['WireDetails'];
}

const aba = /^[0-9]{9}$/;
const bic = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
// What an ACH account's routingNumber holds, by its recorded rdfiNumberQualifier (NACHA IAT); none is a US account.
const routingByQualifier: Record<string, { pattern: RegExp; detail: string }> = {
  '': { pattern: aba, detail: 'must be a 9-digit ABA routing number for a US account' },
  '02': { pattern: bic, detail: 'must be a BIC, as the account is recorded with rdfiNumberQualifier 02' },
  '03': { pattern: /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/, detail: 'must be an IBAN, as the account is recorded with rdfiNumberQualifier 03' },
};
const intermediaryFields = ['intermediaryFIIdType', 'intermediaryFIIdNumber', 'intermediaryFIName', 'intermediaryFIAddress'] as const;

/**
 * The recorded request with the change applied, or a 422 naming each field that does not fit the payee as recorded
 * (the body itself passed the schema: what it breaks is a rule of this payee, as the create's own rules answer 422).
 */
function merge(recorded: Recorded, change: Change, row: Selectable<PayeeTable>): Recorded {
  const errors: FieldError[] = [];
  const next: Recorded = { ...recorded, ...(change.name !== undefined ? { name: change.name } : {}) };
  if (change.email !== undefined) next.email = change.email;
  if (change.phone === null) delete next.phone;
  else if (change.phone !== undefined) next.phone = change.phone;
  if (next.type === 'BUSINESS' && !next.phone) errors.push(bodyField('phone', 'a business needs a phone number'));

  if (change.ach && row.route !== 'ACH') errors.push(bodyField('ach', `payee ${row.id} is paid by wire: send wire details`));
  else if (change.ach) {
    next.ach = { ...recorded.ach!, ...change.ach };
    const rule = routingByQualifier[next.ach.rdfiNumberQualifier ?? ''];
    if (change.ach.routingNumber !== undefined && rule && !rule.pattern.test(change.ach.routingNumber))
      errors.push(bodyField('ach.routingNumber', rule.detail));
    if (change.ach.accountNumber !== undefined && !next.ach.rdfiNumberQualifier && !/^[0-9]{4,17}$/.test(change.ach.accountNumber))
      errors.push(bodyField('ach.accountNumber', 'a US account number has 4 to 17 digits'));
  }

  if (change.wire && row.route !== 'WIRE') errors.push(bodyField('wire', `payee ${row.id} is paid by ACH: send ach details`));
  else if (change.wire) {
    // The intermediary bank is replaced whole: a recorded one goes when a new one is sent.
    const replacesIntermediary = intermediaryFields.some((f) => change.wire![f] !== undefined);
    const kept = { ...recorded.wire! };
    if (replacesIntermediary) for (const f of intermediaryFields) delete kept[f];
    next.wire = { ...kept, ...change.wire };
    if (change.wire.beneficiaryFIIdType === undefined && change.wire.receiverRoutingNumber !== undefined) {
      const byAba = next.wire.beneficiaryFIIdType === 'ABA';
      if (!(byAba ? aba : bic).test(change.wire.receiverRoutingNumber))
        errors.push(
          bodyField('wire.receiverRoutingNumber', `must be ${byAba ? 'a 9-digit ABA routing number' : 'a BIC'}, as beneficiaryFIIdType is`),
        );
    }
    if (row.payment_method_type === 'DOMESTIC_WIRE' && next.wire.beneficiaryFIIdType !== 'ABA')
      errors.push(bodyField('wire.beneficiaryFIIdType', 'a domestic wire identifies the beneficiary bank by ABA routing number'));
  }
  if (errors.length > 0) throw new Problem('business-rule', `The change does not fit payee ${row.id} as recorded.`, { errors });

  // The rules the create checks beyond the schema (422), on the details as they will be.
  if (change.ach && !next.ach!.rdfiNumberQualifier) requireAba(next.ach!.routingNumber, 'ach.routingNumber');
  const gateway = (change.ach as ES['CounterpartyAchUpdate'] | undefined)?.gatewayRoutingNumber;
  if (gateway !== undefined) requireAba(gateway, 'ach.gatewayRoutingNumber');
  if (change.wire) requireWireBanks(next.wire!, 'wire');
  return next;
}

export class PayeeUpdates {
  constructor(private readonly store: Store) {}

  /** `updateRecipient`: a recipient (group C) of a merchant linked to the partner. */
  async updateRecipient(partnerId: number, payeeId: number, change: CS['RecipientUpdateRequest']): Promise<Recipient> {
    return toRecipient(await this.update(partnerId, payeeId, 'recipient', change));
  }

  /** `updateCounterparty`: a counterparty (group E) of a merchant linked to the partner. */
  async updateCounterparty(partnerId: number, payeeId: number, change: ES['CounterpartyUpdateRequest']): Promise<ES['Counterparty']> {
    return toCounterparty(await this.update(partnerId, payeeId, 'counterparty', change));
  }

  private update(partnerId: number, payeeId: number, kind: 'recipient' | 'counterparty', change: Change): Promise<Selectable<PayeeTable>> {
    return this.store.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('payees')
        .selectAll()
        .where('id', '=', payeeId)
        .where('kind', '=', kind)
        .where('merchant_id', 'in', linkedTo(trx, partnerId));
      // Two changes of one payee take turns, so neither overwrites the other's fields (SQLite runs one transaction at a time).
      if (this.store.dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) throw new Problem('not-found', `No ${kind} ${payeeId} exists for the merchants linked to this partner.`);
      const next = merge(JSON.parse(row.details!) as Recorded, change, row);
      // `next` is the whole recorded request (every field the create recorded), changed.
      const set: Updateable<PayeeTable> = { details: JSON.stringify(next), updated_at: Date.now() };
      if (change.name !== undefined) set.name = next.name;
      if (change.email !== undefined) set.email = next.email;
      if (change.phone !== undefined) set.phone = next.phone ?? null;
      // Group A's address is the account holder's (ACH) or the beneficiary's (wire), as on creation.
      const address = change.ach?.address ?? change.wire?.address;
      if (address) {
        const { address_line, state, city, country, postal_code } = payeeColumns(Number(row.merchant_id), { ...next, address });
        Object.assign(set, { address_line, state, city, country, postal_code });
      }
      return trx.updateTable('payees').set(set).where('id', '=', payeeId).returningAll().executeTakeFirstOrThrow();
    });
  }
}

// Counterparties of a business: the external account holders of its ACH and wire transfers. The contract
// checks shapes; this checks the numbers (ABA check digits, IBAN check digits) and that the business is
// active. Full account numbers are kept for the rails; responses show their last 4 characters.
import type { components } from '../../../generated/banking/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { ibanIsValid } from '../payees/iban.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import { findBusiness } from './lookups.js';
import { abaIsValid } from './routing-numbers.js';
import { BankingReads } from './reads.js';
import { toCounterparty, type Counterparty } from './views.js';

type Schemas = components['schemas'];

export type CounterpartyCreateRequest = Schemas['CounterpartyCreateRequest'];

const invalidBank = (field: string, detail: string) =>
  new Problem('invalid-bank', detail, { errors: [bodyField(field, 'unknown bank or account number')] });

/** Countries whose banks are paid to IBANs (the BIC's 5th and 6th characters name the country). */
const ibanCountries = new Set(
  (
    'AD AE AT AZ BA BE BG BH BR CH CR CY CZ DE DK DO EE EG ES FI FO FR GB GE GI GL GR GT HR HU IE IL IQ IS IT JO KW KZ LB LC LI LT LU LV ' +
    'MC MD ME MK MR MT MU NL NO PK PL PS PT QA RO RS SA SC SE SI SK SM ST SV TL TN TR UA VA VG XK'
  ).split(' '),
);

/** An IBAN starts with a country code and two check digits; other account numbers are digits only. */
const looksLikeIban = (accountNumber: string) => /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(accountNumber);

function checkBanks(body: CounterpartyCreateRequest): void {
  if (body.ach && !abaIsValid(body.ach.routingNumber))
    throw invalidBank('ach.routingNumber', `${body.ach.routingNumber} is not a valid ABA routing number.`);
  const wire = body.wire;
  if (!wire) return;
  if (wire.bankIdType === 'ABA' && !abaIsValid(wire.bankId))
    throw invalidBank('wire.bankId', `${wire.bankId} is not a valid ABA routing number.`);
  if (wire.bankIdType === 'BIC') {
    const country = wire.bankId.slice(4, 6);
    if (ibanCountries.has(country) && !(looksLikeIban(wire.accountNumber) && wire.accountNumber.startsWith(country))) {
      throw invalidBank('wire.accountNumber', `Banks in ${country} are paid to an IBAN of ${country}.`);
    }
    if (looksLikeIban(wire.accountNumber) && !ibanIsValid(wire.accountNumber))
      throw invalidBank('wire.accountNumber', 'The IBAN check digits are wrong.');
  }
  const intermediary = wire.intermediaryBank;
  if (intermediary?.bankIdType === 'ABA' && !abaIsValid(intermediary.bankId)) {
    throw invalidBank('wire.intermediaryBank.bankId', `${intermediary.bankId} is not a valid ABA routing number.`);
  }
}

export class Counterparties {
  /** What a replayed create answers: the resource as it is now. */
  private readonly reads: BankingReads;

  constructor(private readonly store: Store) {
    this.reads = new BankingReads(store);
  }

  async create(merchantId: number, body: CounterpartyCreateRequest, idempotencyKey?: string): Promise<StoredResponse<Counterparty>> {
    checkBanks(body);
    return idempotent(this.store, claimOf(`merchant:${merchantId}`, 'createBankingCounterparty', idempotencyKey, body), {
      current: (first: Counterparty) => this.reads.counterparty(merchantId, first.id),
      run: async (trx) => {
        const business = await findBusiness(trx, merchantId, body.businessId, bodyField('businessId', 'unknown business'));
        if (business.status !== 'active') {
          throw new Problem(
            'business-rule',
            `Business ${body.businessId} is ${business.status}; only an active business adds counterparties.`,
            {
              errors: [bodyField('businessId', `business is ${business.status}`)],
            },
          );
        }
        const row = await trx
          .insertInto('banking_counterparties')
          .values({
            business_id: body.businessId,
            merchant_id: merchantId,
            name: body.name,
            type: body.type,
            email: body.email ?? null,
            phone: body.phone ?? null,
            address: body.address ? JSON.stringify(body.address) : null,
            ach_routing_number: body.ach?.routingNumber ?? null,
            ach_account_number: body.ach?.accountNumber ?? null,
            ach_account_type: body.ach?.accountType ?? null,
            wire_bank_id_type: body.wire?.bankIdType ?? null,
            wire_bank_id: body.wire?.bankId ?? null,
            wire_bank_name: body.wire?.bankName ?? null,
            wire_account_number: body.wire?.accountNumber ?? null,
            wire_bank_address: body.wire?.bankAddress ? JSON.stringify(body.wire.bankAddress) : null,
            wire_intermediary_bank: body.wire?.intermediaryBank ? JSON.stringify(body.wire.intermediaryBank) : null,
            created_at: Date.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { status: 201, body: toCounterparty(row) };
      },
    });
  }
}

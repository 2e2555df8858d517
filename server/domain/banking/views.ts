// Rows as the contract shows them. Account numbers leave only as their last 4 characters; person tax ids,
// birth dates and document numbers never leave at all. Amounts are integer minor units inside and decimal
// strings outside.
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import { toDecimalString } from '../../platform/money/currencies.js';
import { lastFour } from '../../platform/personal-data/masking.js';
import type {
  BankingAccountTable,
  BankingBusinessTable,
  BankingCounterpartyTable,
  BankingLedgerEntryTable,
  BankingTransferTable,
  BankingVerificationTable,
} from '../../platform/store/banking-schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { metadataOf } from '../../platform/store/metadata.js';
import { notificationOfChangeOf } from '../../platform/money/notification-of-change.js';
import { bankRoutingNumber } from './routing-numbers.js';

type Schemas = components['schemas'];
export type Business = Schemas['Business'];
export type IdentityVerification = Schemas['IdentityVerification'];
export type Counterparty = Schemas['Counterparty'];
export type Account = Schemas['Account'];
export type Balance = Schemas['Balance'];
export type Transfer = Schemas['Transfer'];
export type LedgerEntry = Schemas['LedgerEntry'];
export type PostalAddress = Schemas['PostalAddress'];

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** Signed minor units as a decimal string: a returned ACH pull may leave a balance below zero. */
export const signedDecimal = (minor: number, currency: string) =>
  minor < 0 ? `-${toDecimalString(-minor, currency)}` : toDecimalString(minor, currency);

export function toBusiness(row: Selectable<BankingBusinessTable>): Business {
  return {
    id: Number(row.id),
    legalName: row.legal_name,
    dbaName: row.dba_name,
    entityType: row.entity_type,
    taxId: row.tax_id,
    formationDate: row.formation_date,
    incorporationCountry: row.incorporation_country,
    incorporationState: row.incorporation_state,
    address: JSON.parse(row.address) as PostalAddress,
    phone: row.phone,
    email: row.email,
    website: row.website,
    status: row.status,
    verificationStatus: row.verification_status,
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
    metadata: metadataOf(row.metadata),
  };
}

export function toVerification(row: Selectable<BankingVerificationTable>): IdentityVerification {
  return {
    id: Number(row.id),
    businessId: Number(row.business_id),
    subject: row.subject,
    person: json<Schemas['IdentityVerificationPersonSummary']>(row.person),
    status: row.status,
    reasons: JSON.parse(row.reasons) as Schemas['VerificationReason'][],
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
    decidedOn: row.decided_at === null ? null : isoTimestamp(row.decided_at),
  };
}

export function toCounterparty(row: Selectable<BankingCounterpartyTable>): Counterparty {
  return {
    id: Number(row.id),
    businessId: Number(row.business_id),
    name: row.name,
    type: row.type,
    email: row.email,
    phone: row.phone,
    address: json<PostalAddress>(row.address),
    ach:
      row.ach_routing_number !== null && row.ach_account_number !== null && row.ach_account_type !== null
        ? { routingNumber: row.ach_routing_number, accountNumber: lastFour(row.ach_account_number), accountType: row.ach_account_type }
        : null,
    wire:
      row.wire_bank_id_type !== null && row.wire_bank_id !== null && row.wire_bank_name !== null && row.wire_account_number !== null
        ? {
            bankIdType: row.wire_bank_id_type,
            bankId: row.wire_bank_id,
            bankName: row.wire_bank_name,
            accountNumber: lastFour(row.wire_account_number),
            bankAddress: json<PostalAddress>(row.wire_bank_address),
            intermediaryBank: json<Schemas['WireIntermediaryBank']>(row.wire_intermediary_bank),
          }
        : null,
    createdOn: isoTimestamp(row.created_at),
  };
}

/** A closed account holds nothing and reads zero. */
export function toBalance(
  row: Pick<Selectable<BankingAccountTable>, 'id' | 'currency' | 'status' | 'ledger_minor' | 'available_minor'>,
  asOf = Date.now(),
): Balance {
  const closed = row.status === 'closed';
  return {
    accountId: Number(row.id),
    currency: row.currency,
    available: signedDecimal(closed ? 0 : Number(row.available_minor), row.currency),
    ledger: signedDecimal(closed ? 0 : Number(row.ledger_minor), row.currency),
    asOf: isoTimestamp(asOf),
  };
}

export function toAccount(row: Selectable<BankingAccountTable>): Account {
  return {
    id: Number(row.id),
    businessId: Number(row.business_id),
    accountName: row.account_name,
    accountType: row.account_type,
    accountNumber: lastFour(row.account_number),
    routingNumber: bankRoutingNumber,
    fundingAccountId: row.funding_account_id === null ? null : Number(row.funding_account_id),
    currency: row.currency,
    status: row.status,
    balance: toBalance(row),
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
  };
}

/** The columns of a ledger entry its view reads. */
export const ledgerEntryViewColumns = [
  'ledger_account',
  'account_id',
  'direction',
  'amount_minor',
  'currency',
  'status',
  'created_at',
] as const;
export type LedgerEntryViewRow = Pick<Selectable<BankingLedgerEntryTable>, (typeof ledgerEntryViewColumns)[number]>;

/** The columns of a transfer its view reads (`account_id` names the account whose balance it shows). */
export const transferViewColumns = [
  'id',
  'type',
  'status',
  'amount_minor',
  'currency',
  'account_id',
  'from_account_id',
  'from_counterparty_id',
  'from_name',
  'from_number_last4',
  'to_account_id',
  'to_counterparty_id',
  'to_name',
  'to_number_last4',
  'description',
  'external_id',
  'ach',
  'wire',
  'funding_transfer_id',
  'reasons',
  'return_code',
  'returned_at',
  'change_code',
  'corrected_data',
  'noc_received_at',
  'created_at',
  'updated_at',
  'metadata',
] as const;
export type TransferViewRow = Pick<Selectable<BankingTransferTable>, (typeof transferViewColumns)[number]>;

export function toLedgerEntry(row: LedgerEntryViewRow): LedgerEntry {
  return {
    ledgerAccount: row.ledger_account,
    accountId: row.account_id === null ? null : Number(row.account_id),
    direction: row.direction,
    amount: toDecimalString(Number(row.amount_minor), row.currency),
    currency: row.currency,
    status: row.status,
    createdOn: isoTimestamp(row.created_at),
  };
}

const transferParty = (
  accountId: number | null,
  counterpartyId: number | null,
  name: string,
  number: string,
): Schemas['TransferParty'] => ({
  type: accountId !== null ? 'ACCOUNT' : 'COUNTERPARTY',
  accountId: accountId === null ? null : Number(accountId),
  counterpartyId: counterpartyId === null ? null : Number(counterpartyId),
  name,
  accountNumber: number,
});

export function toTransfer(row: TransferViewRow, entries: readonly LedgerEntryViewRow[], balance: Balance): Transfer {
  return {
    id: Number(row.id),
    type: row.type,
    status: row.status,
    amount: toDecimalString(Number(row.amount_minor), row.currency),
    currency: row.currency,
    from: transferParty(row.from_account_id, row.from_counterparty_id, row.from_name, row.from_number_last4),
    to: transferParty(row.to_account_id, row.to_counterparty_id, row.to_name, row.to_number_last4),
    description: row.description,
    externalId: row.external_id,
    ach: json<Schemas['AchTransferDetails']>(row.ach),
    wire: json<Schemas['WireTransferDetails']>(row.wire),
    fundingTransferId: row.funding_transfer_id === null ? null : Number(row.funding_transfer_id),
    ledgerEntries: entries.map(toLedgerEntry),
    accountBalance: balance,
    reasons: JSON.parse(row.reasons) as Schemas['TransferReason'][],
    returnCode: row.return_code,
    returnedOn: row.returned_at === null ? null : isoTimestamp(row.returned_at),
    notificationOfChange: notificationOfChangeOf<Schemas['CorrectedData']>(row),
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
    metadata: metadataOf(row.metadata),
  };
}

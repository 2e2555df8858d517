// The banking tables (group D) as Kysely sees them; merged into `Database` by schema.ts. As elsewhere,
// timestamps are epoch milliseconds and money is integer minor units; nested contract objects that are
// never queried (addresses, reasons, rail details) are JSON text.
import type { Generated } from 'kysely';
import type { Environment } from '../environment.js';

export type BusinessStatus = 'active' | 'suspended' | 'closed';
export type BusinessVerificationStatus = 'unverified' | 'pending' | 'needs_review' | 'approved' | 'rejected';
export type VerificationStatus = 'pending' | 'approved' | 'rejected' | 'needs_review';
export type BankAccountStatus = 'active' | 'frozen' | 'closed';
/** The rails a merchant sends a transfer on (all but internal book transfers). */
export type OutboundRail = 'ACH_PULL' | 'ACH_PUSH' | 'WIRE_DOMESTIC' | 'WIRE_INTERNATIONAL';
export type TransferType = OutboundRail | 'INTERNAL' | 'INBOUND_ACH' | 'INBOUND_WIRE';
export type TransferStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'returned';
export type EntryDirection = 'DEBIT' | 'CREDIT';
export type EntryStatus = 'pending' | 'posted' | 'voided';

export interface BankingBusinessTable {
  id: Generated<number>;
  merchant_id: number;
  legal_name: string;
  dba_name: string | null;
  entity_type: 'LLC' | 'CORPORATION' | 'PARTNERSHIP' | 'SOLE_PROPRIETORSHIP' | 'NON_PROFIT';
  /** As sent (echoed). */
  tax_id: string;
  /** The tax id without separators: what "one business per tax id per merchant" compares. */
  tax_id_key: string;
  formation_date: string;
  incorporation_country: string;
  incorporation_state: string | null;
  /** JSON PostalAddress. */
  address: string;
  phone: string;
  email: string;
  website: string | null;
  status: BusinessStatus;
  /** Combined over the business's verifications; rewritten in the transaction that changes one. */
  verification_status: BusinessVerificationStatus;
  created_at: number;
  updated_at: number;
  /** JSON object of the caller's metadata (store/metadata.ts); null when none was ever sent. */
  metadata: string | null;
}

export interface BankingVerificationTable {
  id: Generated<number>;
  business_id: number;
  merchant_id: number;
  /** Where the verification was started: its events carry it (migration 0017). */
  environment: Environment;
  subject: 'BUSINESS' | 'PERSON';
  /** `BUSINESS`, or `PERSON:` and a SHA-256 of the person's tax id or document: finds a running check of the same subject without keeping the number. */
  subject_key: string;
  /** JSON IdentityVerificationPersonSummary, or null for BUSINESS. */
  person: string | null;
  /** JSON of the rest of the person record (birth date, contacts, address, document kind) without tax id or document number. */
  person_details: string | null;
  status: VerificationStatus;
  /** JSON array of { code, message }. */
  reasons: string;
  created_at: number;
  updated_at: number;
  decided_at: number | null;
}

export interface BankingCounterpartyTable {
  id: Generated<number>;
  business_id: number;
  merchant_id: number;
  name: string;
  type: 'INDIVIDUAL' | 'BUSINESS';
  email: string | null;
  phone: string | null;
  /** JSON PostalAddress, or null. */
  address: string | null;
  ach_routing_number: string | null;
  ach_account_number: string | null;
  ach_account_type: 'CHECKING' | 'SAVINGS' | null;
  wire_bank_id_type: 'ABA' | 'BIC' | null;
  wire_bank_id: string | null;
  wire_bank_name: string | null;
  /** Account number or IBAN. */
  wire_account_number: string | null;
  /** JSON PostalAddress, or null. */
  wire_bank_address: string | null;
  /** JSON WireIntermediaryBank, or null. */
  wire_intermediary_bank: string | null;
  created_at: number;
}

/**
 * A deposit account and its balances. `ledger_minor` is the sum of its posted entries (credits minus
 * debits); `available_minor` is that minus its pending debits. Both change only in the transaction that
 * writes or changes the entries (server/domain/banking/ledger.ts).
 */
export interface BankingAccountTable {
  id: Generated<number>;
  business_id: number;
  merchant_id: number;
  account_name: string;
  account_type: 'CHECKING' | 'SAVINGS';
  /** The full number (unique across the bank); responses show its last 4 digits. */
  account_number: string;
  funding_account_id: number | null;
  currency: string;
  status: BankAccountStatus;
  ledger_minor: number;
  available_minor: number;
  created_at: number;
  updated_at: number;
}

export interface BankingTransferTable {
  id: Generated<number>;
  merchant_id: number;
  business_id: number;
  /** Where the transfer was made: its events carry it (migration 0017). */
  environment: Environment;
  type: TransferType;
  status: TransferStatus;
  /** As requested, in `currency`. */
  amount_minor: number;
  currency: string;
  /** What the ledger moves, in USD minor units (differs from amount_minor for a converted international wire). */
  ledger_amount_minor: number;
  /** The request's `accountId`: whose balance the response shows. */
  account_id: number;
  from_account_id: number | null;
  from_counterparty_id: number | null;
  from_name: string;
  from_number_last4: string;
  to_account_id: number | null;
  to_counterparty_id: number | null;
  to_name: string;
  to_number_last4: string;
  description: string | null;
  external_id: string | null;
  /** JSON AchTransferDetails, or null. */
  ach: string | null;
  /** JSON WireTransferDetails, or null. */
  wire: string | null;
  funding_transfer_id: number | null;
  /** JSON array of { code, networkCode, message }. */
  reasons: string;
  /** When the sandbox takes the transfer's next step; null once it waits for nothing (final, or held). */
  next_step_at: number | null;
  /** The ACH return reason code (R01...) or a wire's return reason, once returned. */
  return_code: string | null;
  returned_at: number | null;
  /** The latest notification of change: its C code and the corrected data (JSON). Moves no money. */
  change_code: string | null;
  corrected_data: string | null;
  noc_received_at: number | null;
  created_at: number;
  updated_at: number;
  /** JSON object of the caller's metadata (store/metadata.ts); null when none was ever sent. */
  metadata: string | null;
}

/** One side of a transfer on the double-entry ledger: `account:<id>` or a rail's `settlement:<rail>`. */
export interface BankingLedgerEntryTable {
  id: Generated<number>;
  transfer_id: number;
  ledger_account: string;
  /** The business account, or null for a settlement account. */
  account_id: number | null;
  direction: EntryDirection;
  amount_minor: number;
  currency: string;
  status: EntryStatus;
  created_at: number;
  updated_at: number;
}

export interface BankingTables {
  banking_businesses: BankingBusinessTable;
  banking_verifications: BankingVerificationTable;
  banking_counterparties: BankingCounterpartyTable;
  banking_accounts: BankingAccountTable;
  banking_transfers: BankingTransferTable;
  banking_ledger_entries: BankingLedgerEntryTable;
}

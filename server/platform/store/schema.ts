// The store's tables as Kysely sees them. Timestamps are epoch milliseconds and money is integer minor
// units in both SQLite and PostgreSQL, so the code above the store never cares which one it runs on.
// test/server/store-schema.test.ts holds these types and the migrations to the same columns.
import type { Generated } from 'kysely';
import type { Environment } from '../environment.js';
import type { BankingTables } from './banking-schema.js';
import type { ConsoleTables } from './console-schema.js';

export interface MerchantTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface PartnerTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface PartnerMerchantTable {
  partner_id: number;
  merchant_id: number;
  linked_at: number;
}

/** Client credentials; the secret is kept only as a salted SHA-256 hash (client-secrets.ts). */
export interface ApiClientTable {
  client_id: string;
  secret_hash: string;
  owner_kind: 'merchant' | 'partner';
  owner_id: number;
  created_at: number;
  revoked_at: number | null;
  /** Raised by each secret rotation; a token names the generation it was issued under. */
  generation: Generated<number>;
  /** After a roll with an overlap: the secret before it (generation - 1), which works until `previous_until`. */
  previous_secret_hash: string | null;
  previous_until: number | null;
  rolled_at: number | null;
  /** When a token was last issued with it (written at most once a minute). */
  last_used_at: number | null;
}

export interface SigningKeyTable {
  kid: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
}

export interface PayeeTable {
  id: Generated<number>;
  merchant_id: number;
  payee_type: 'individual' | 'business';
  name: string;
  email: string;
  phone: string | null;
  tax_id: string | null;
  id_type: string | null;
  address_line: string;
  state: string;
  city: string;
  country: string;
  postal_code: string;
  date_of_birth: string | null;
  created_at: number;
  updated_at: number;
  /** `payee` (group A or B), `recipient` (group C) or `counterparty` (group E). */
  kind: Generated<'payee' | 'recipient' | 'counterparty'>;
  /** The partner that created a recipient or counterparty. */
  partner_id: number | null;
  rail_payee_id: string | null;
  payment_method_type: string | null;
  route: 'ACH' | 'WIRE' | null;
  /** JSON: the recipient's or counterparty's request, whole (account numbers are masked on the way out). */
  details: string | null;
  /** JSON object of the caller's metadata (store/metadata.ts); null when none was ever sent. */
  metadata: string | null;
}

export interface PayeeAccountTable {
  id: string;
  payee_id: number;
  merchant_id: number;
  type: 'BANK_ACCOUNT' | 'IBAN';
  holder_name: string | null;
  bank_name: string | null;
  routing_number: string | null;
  account_number: string | null;
  clearing_system_code: string | null;
  branch_transit_number: string | null;
  iban: string | null;
  currency: string | null;
  account_type: 'CHECKINGS' | 'SAVINGS' | null;
  active: number;
  created_at: number;
  updated_at: number;
}

/** A payout's states; `returned` is an ACH return after completion. */
export type PayoutState = 'created' | 'processing' | 'sent' | 'completed' | 'failed' | 'cancelled' | 'returned';
/** A payment request's states: a payout's. */
export type PaymentState = PayoutState;

export interface PayoutTable {
  reference: string;
  merchant_id: number;
  payee_id: number;
  account_id: string;
  amount_minor: number;
  currency: string;
  description: string | null;
  status: PayoutState;
  /** JSON array of { code, message }. */
  reasons: string;
  environment: Environment;
  created_at: number;
  updated_at: number;
  /** When the engine may take the next step; null once final, or while held in its state (a rail's or the sandbox's hold). */
  next_step_at: number | null;
  /** The ACH return reason code (R01...), once returned. */
  return_code: string | null;
  returned_at: number | null;
  /** JSON object of the caller's metadata (store/metadata.ts); null when none was ever sent. */
  metadata: string | null;
}

/**
 * Events, and the outbox of their deliveries: one row per event (a payout state entered, a webhook test), written
 * in the transaction that made it happen, kept 30 days. `id` orders them internally; `event_id` is the public id.
 */
export interface EventTable {
  id: Generated<number>;
  /** `evt_...`, also in the payload and in each delivery's `webhook-id`. */
  event_id: string;
  /** `payout.completed`, `webhook.test`, ... */
  type: string;
  /** What the event is about: a payout's reference; a registration's id for `webhook.test`. Its events go out in order. */
  subject: string;
  /** The merchant the event is about (0 for a partner's `webhook.test`, which is about no merchant). */
  merchant_id: number;
  /** Null: the merchant's event. Set: the copy for the partner that requested the payment (events/owners.ts). */
  partner_id: number | null;
  environment: Environment;
  /** The JSON body every delivery carries and the events API returns. */
  payload: string;
  created_at: number;
  /** When every delivery of the event ended (or it had none); null while it waits to be sent. */
  dispatched_at: number | null;
}

export interface WebhookTable {
  id: string;
  /** The merchant's registration; null for a partner's. */
  merchant_id: number | null;
  /** Null: a merchant's registration. Set: a partner's (events/owners.ts). */
  partner_id: number | null;
  url: string;
  /** JSON array of event names. */
  events: string;
  environment: Environment;
  /** The signing secret (needed to sign), or null for unsigned registrations. */
  secret: string | null;
  /** 1 while deliveries are made; 0 when turned off by updateWebhook. Defaults to 1. */
  enabled: Generated<number>;
  /** 1 when failed deliveries are tried again on a schedule (opt-in); 0 by default: each event once. */
  retries: Generated<number>;
  /** The secret before the last rotation, which still signs until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  deleted_at: number | null;
}

/**
 * One row per (event, registration): claimed before the POST, so no event is ever sent twice. `unknown`: the
 * process that sent it stopped before it recorded the answer (see WebhookDispatcher.settleAbandoned).
 */
export interface WebhookDeliveryTable {
  event_id: number;
  webhook_id: string;
  /** 1 for the delivery made when the event happened, then one more for each redelivery. */
  attempt: Generated<number>;
  message_id: string;
  url: string;
  outcome: 'sending' | 'delivered' | 'failed' | 'refused' | 'unknown';
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  /** The start of the receiver's answer body (at most 200 characters); null when there was none. */
  response_excerpt: string | null;
  attempted_at: number;
  /** When the next attempt is due, on a failed attempt of a registration with retries; null when none is. */
  retry_at: number | null;
}

/** A payment request of group C or E. */
export interface PaymentTable {
  payment_id: Generated<number>;
  merchant_id: number;
  partner_id: number | null;
  payee_id: number;
  /** Where the payment was made: its events carry it (migration 0017). */
  environment: Environment;
  merchant_account_number: string | null;
  /** The payee's account number at the time of the payment, whole (searchable, never returned whole). */
  account_number: string;
  amount_minor: number;
  currency: string;
  payment_method_type: 'STANDARD' | 'SAME_DAY' | 'DOMESTIC_WIRE' | 'INTERNATIONAL_WIRE';
  route: 'ACH' | 'WIRE';
  description: string;
  external_id: string | null;
  internal_note: string | null;
  partner_payment_unique_id: string | null;
  request_hash: string;
  status: PaymentState;
  processing_status: PaymentState;
  recon_status: 'UNRECONCILED' | 'RECONCILED' | 'EXCEPTION';
  direction: 'INBOUND' | 'OUTBOUND';
  product_id: number | null;
  requester_ip: string | null;
  requester_username: string | null;
  post_date: number | null;
  next_step_at: number | null;
  /** The ACH return reason code (R01...), once returned. */
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

export interface PaymentStatusChangeTable {
  payment_id: number;
  status: PaymentState;
  at: number;
}

export interface IdempotencyKeyTable {
  scope: string;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: number;
}

/** The limits shared by instances on PostgreSQL (limits/limits.ts); written by rate-limiter-flexible. */
export interface RateLimitTable {
  key: string;
  points: number;
  /** When the key's window closes (epoch milliseconds). */
  expire: number | null;
}

export interface Database extends BankingTables, ConsoleTables {
  merchants: MerchantTable;
  partners: PartnerTable;
  partner_merchants: PartnerMerchantTable;
  api_clients: ApiClientTable;
  signing_keys: SigningKeyTable;
  payees: PayeeTable;
  payee_accounts: PayeeAccountTable;
  payouts: PayoutTable;
  events: EventTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  idempotency_keys: IdempotencyKeyTable;
  payments: PaymentTable;
  payment_status_changes: PaymentStatusChangeTable;
  rate_limits: RateLimitTable;
}

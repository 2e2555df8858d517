// The events of group D: a transfer's `transfer.created` when it is accepted, then one per state it enters
// (`transfer.processing`, `transfer.completed`, `transfer.failed`, `transfer.returned`), and `noc.received` for a
// notification of change, each carrying the transfer as `getTransfer` shows it at that moment; and a verification's
// `verification.updated`. Written in the transaction that makes the change (the outbox), through
// the one event writer (../events/event-rows.ts), so the webhook dispatcher delivers them like payouts' events.
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import { eventRow } from '../events/event-rows.js';
import type { BankingTransferTable, BankingVerificationTable } from '../../platform/store/banking-schema.js';
import type { Database } from '../../platform/store/schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { transferViews } from './transfer-reads.js';
import { toVerification, type Transfer } from './views.js';

type TransferEventType = `transfer.${'created' | 'processing' | 'completed' | 'failed' | 'returned'}`;

/** The transfer as its reads show it: its entries, and its account's balance now. */
export async function transferView(db: Kysely<Database>, row: Selectable<BankingTransferTable>, now = Date.now()): Promise<Transfer> {
  const [transfer] = await transferViews(db, [row], now);
  return transfer!;
}

export async function recordTransferEvent(
  db: Kysely<Database>,
  row: Selectable<BankingTransferTable>,
  type: TransferEventType,
  at: number,
): Promise<void> {
  const transfer = await transferView(db, row, at);
  await db
    .insertInto('events')
    .values(
      eventRow({
        type,
        subject: `transfer:${row.id}`,
        merchantId: Number(row.merchant_id),
        environment: row.environment,
        at,
        body: (envelope): components['schemas']['TransferEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), transfer }),
      }),
    )
    .execute();
}

export async function recordNocEvent(db: Kysely<Database>, row: Selectable<BankingTransferTable>, at: number): Promise<void> {
  const transfer = await transferView(db, row, at);
  await db
    .insertInto('events')
    .values(
      eventRow({
        type: 'noc.received' as const,
        subject: `transfer:${row.id}`,
        merchantId: Number(row.merchant_id),
        environment: row.environment,
        at,
        body: (envelope): components['schemas']['NocEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), transfer }),
      }),
    )
    .execute();
}

/** `verification.updated`, when a verification is created and whenever its status changes. */
export async function recordVerificationEvent(db: Kysely<Database>, row: Selectable<BankingVerificationTable>, at: number): Promise<void> {
  const verification = toVerification(row);
  await db
    .insertInto('events')
    .values(
      eventRow({
        type: 'verification.updated' as const,
        subject: `verification:${row.id}`,
        merchantId: Number(row.merchant_id),
        environment: row.environment,
        at,
        body: (envelope): components['schemas']['VerificationEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), verification }),
      }),
    )
    .execute();
}

// Stored events in bulk for the `list` part, written straight into the store: each row made by the service's
// own event writer (`eventRow`: an `evt_` ULID of its time, the envelope inside the body) with the body the
// payout transitions write (`eventPayload`, payout-views.ts), four per payout as the engine leaves them: created, processing,
// sent, then completed (or failed, one payout in 25), 1 ms apart, each already dispatched. The payouts
// themselves are not stored: `listEvents` reads the events alone.
import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import { eventRow } from '../server/domain/events/event-rows.js';
import { eventPayload } from '../server/domain/payouts/payout-views.js';
import type { Store } from '../server/platform/store/database.js';
import type { EventTable, PayoutState } from '../server/platform/store/schema.js';
import { reference } from './payout-rows.js';

const lifecycle: PayoutState[] = ['created', 'processing', 'sent'];
const failedReasons = [{ code: 'account_closed' as const, message: 'The account is closed.' }];

/**
 * Adds `count` events of merchant `merchantId` (whole payouts' worth, `count` rounded up to a multiple of 4),
 * the newest at `endsAt` ms; `first` numbers them so successive calls continue one sequence. Returns the seconds
 * it took.
 */
export async function insertEvents(
  store: Store,
  merchantId: number,
  first: number,
  count: number,
  endsAt: number,
  rowsPerStatement = 1000,
  rowsPerTransaction = 100_000,
): Promise<number> {
  const started = performance.now();
  const payouts = Math.ceil(count / 4);
  const firstPayout = Math.floor(first / 4);
  const perStatement = Math.floor(rowsPerStatement / 4);
  const perTransaction = Math.floor(rowsPerTransaction / 4);
  for (let done = 0; done < payouts; ) {
    const inTransaction = Math.min(perTransaction, payouts - done);
    await store.db.transaction().execute(async (trx) => {
      for (let k = 0; k < inTransaction; k += perStatement) {
        const n = Math.min(perStatement, inTransaction - k);
        const random = randomBytes(16 * n);
        const rows: Insertable<EventTable>[] = [];
        for (let j = 0; j < n; j++) {
          const p = firstPayout + done + k + j;
          const createdAt = endsAt - 4 * (payouts + firstPayout - p); // older payouts first, 4 ms apart
          const payout = {
            reference: reference(createdAt, random, 16 * j),
            amount_minor: 100 + (p % 100_000),
            currency: 'USD',
            return_code: null,
            metadata: null,
          };
          const failed = p % 25 === 24;
          const states: PayoutState[] = [...lifecycle, failed ? 'failed' : 'completed'];
          states.forEach((state, step) => {
            const at = createdAt + step;
            const reasons = state === 'failed' ? failedReasons : [];
            rows.push(
              eventRow({
                type: `payout.${state}` as const,
                subject: payout.reference,
                merchantId,
                environment: 'sandbox',
                at,
                body: (envelope) => eventPayload(envelope, payout, state, at, reasons),
                dispatchedAt: at + 2,
              }),
            );
          });
        }
        await trx.insertInto('events').values(rows).execute();
      }
    });
    done += inTransaction;
  }
  return (performance.now() - started) / 1000;
}

// Stored payouts in bulk, written straight into the store with Kysely (the API would take hours for a
// million): rows shaped as Payouts.create and the engine leave them, final states only, references
// time-ordered like the service's (po_ + a ULID), in big batched transactions.
import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Store } from '../server/platform/store/database.js';
import type { PayoutTable } from '../server/platform/store/schema.js';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/** po_ + 10 characters of millisecond time + 16 random ones, as server/platform/ids/identifiers.ts makes them. */
export function reference(at: number, random: Buffer, offset: number): string {
  let time = '';
  for (let i = 0, t = at; i < 10; i++, t = Math.floor(t / 32)) time = alphabet[t % 32] + time;
  let rest = '';
  for (let i = 0; i < 16; i++) rest += alphabet[random[offset + i]! % 32];
  return `po_${time}${rest}`;
}

// Mostly completed, some failed or cancelled: a Status filter for `failed` selects about 4%.
function statusOf(i: number): PayoutTable['status'] {
  const r = i % 100;
  return r < 95 ? 'completed' : r < 99 ? 'failed' : 'cancelled';
}

const failedReasons = JSON.stringify([{ code: 'account_closed', message: 'The account is closed.' }]);

export interface Owner {
  merchantId: number;
  payeeId: number;
  accountId: string;
}

/**
 * Adds `count` payouts of `owner`, created one millisecond apart and ending `endsAt` ms; `first` numbers
 * them so successive calls continue the same sequence. Returns the seconds it took.
 */
export async function insertPayouts(
  store: Store,
  owner: Owner,
  first: number,
  count: number,
  endsAt: number,
  rowsPerStatement = 2000,
  rowsPerTransaction = 100_000,
): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < count; ) {
    const inTransaction = Math.min(rowsPerTransaction, count - done);
    await store.db.transaction().execute(async (trx) => {
      for (let k = 0; k < inTransaction; k += rowsPerStatement) {
        const n = Math.min(rowsPerStatement, inTransaction - k);
        const random = randomBytes(16 * n);
        const rows: Insertable<PayoutTable>[] = [];
        for (let j = 0; j < n; j++) {
          const i = first + done + k + j;
          const at = endsAt - (count + first) + i; // older rows first, 1 ms apart
          const status = statusOf(i);
          rows.push({
            reference: reference(at, random, 16 * j),
            merchant_id: owner.merchantId,
            payee_id: owner.payeeId,
            account_id: owner.accountId,
            amount_minor: 100 + (i % 100_000),
            currency: 'USD',
            description: `Invoice ${i}`,
            status,
            reasons: status === 'failed' ? failedReasons : '[]',
            environment: 'sandbox',
            created_at: at,
            updated_at: at + 5,
            next_step_at: null,
          });
        }
        await trx.insertInto('payouts').values(rows).execute();
      }
    });
    done += inTransaction;
  }
  return (performance.now() - started) / 1000;
}

// Payouts that can be returned: a completed payout may come back from the receiving bank days later, with an
// ACH return code and when it was received, as payments and transfers already do (0008).
import type { Kysely, Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  const big = store.dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payouts').addColumn('return_code', 'text').execute();
      await db.schema.alterTable('payouts').addColumn('returned_at', big).execute();
    },
  };
}

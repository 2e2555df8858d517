// Transfers and payments that can be followed (issue 13): the sandbox paces transfers through their states
// like payouts (`next_step_at`, the transfer engine's queue), and both carry what the network reports after
// the fact: a return (an R code and when) and a notification of change (a C code and the corrected data).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  const big = store.dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['banking_transfers', 'payments']) {
        if (table === 'banking_transfers') await db.schema.alterTable(table).addColumn('next_step_at', big).execute();
        await db.schema.alterTable(table).addColumn('return_code', 'text').execute();
        await db.schema.alterTable(table).addColumn('returned_at', big).execute();
        await db.schema.alterTable(table).addColumn('change_code', 'text').execute();
        await db.schema.alterTable(table).addColumn('corrected_data', 'text').execute();
        await db.schema.alterTable(table).addColumn('noc_received_at', big).execute();
      }
      await db.schema
        .createIndex('banking_transfers_due')
        .on('banking_transfers')
        .column('next_step_at')
        .where(sql.ref('next_step_at'), 'is not', null)
        .execute();
    },
  };
}

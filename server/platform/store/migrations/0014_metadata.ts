// Metadata (the caller's own key-value pairs) on payouts, payees, payment requests, banking transfers and
// businesses: one JSON text column each, null on rows written before it (read as `{}`, store/metadata.ts).
import type { Kysely, Migration } from 'kysely';

export const metadataTables = ['payouts', 'payees', 'payments', 'banking_transfers', 'banking_businesses'] as const;

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of metadataTables) await db.schema.alterTable(table).addColumn('metadata', 'text').execute();
    },
  };
}

// The environment an event carries is that of the resource it is about, kept on the resource's row from its
// creation, as payouts and webhook registrations already kept it: payments, banking transfers and verifications
// gain the column. Rows written before it were written by this deployment, so they take the environment the store is
// opened in (`openStore`'s `environment`, the service's ENVIRONMENT).
import type { Kysely, Migration } from 'kysely';
import type { Environment } from '../../environment.js';
import type { Store } from '../store.js';

export const environmentTables = ['payments', 'banking_transfers', 'banking_verifications'] as const;

export function migration(_store: Store, context: { environment: Environment }): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of environmentTables)
        await db.schema
          .alterTable(table)
          .addColumn('environment', 'text', (c) => c.notNull().defaultTo(context.environment))
          .execute();
    },
  };
}

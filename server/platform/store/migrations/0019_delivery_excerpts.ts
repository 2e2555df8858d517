// The start of a webhook receiver's answer body, kept with each delivery attempt (at most 200 characters), so the
// delivery log shows what the receiver said; null when it answered no body, did not answer, or before this column.
import type { Kysely, Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(_store: Store): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('webhook_deliveries').addColumn('response_excerpt', 'text').execute();
    },
  };
}

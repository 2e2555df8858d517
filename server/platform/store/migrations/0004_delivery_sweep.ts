// An index of the webhook deliveries still marked `sending`, for the dispatcher's sweep of deliveries whose
// sender stopped (a crash) before it recorded the answer. Partial, so it holds only the few in flight.
import { sql, type Kysely, type Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('webhook_deliveries_sending')
        .on('webhook_deliveries')
        .column('attempted_at')
        .where(sql.ref('outcome'), '=', 'sending')
        .execute();
    },
  };
}

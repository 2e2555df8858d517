// A generation per API client, raised by every secret rotation. Tokens carry the generation they were issued
// under, so rotating a secret ends the old secret's tokens too, not only its token requests (issue 10).
import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('api_clients')
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  };
}

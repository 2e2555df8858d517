// PostgreSQL parses and plans an unnamed statement each time it runs it. The service sends the same few hundred SQL
// texts over and over, so each (that takes parameters) is sent as a named statement: pg parses it once per
// connection and then only binds and executes it, as SQLite's statement cache does for the embedded store
// (database.ts). In the benchmark's pipeline, PostgreSQL's own CPU per payout was more than the service's.
//
// Names are given only once a store is migrated (a statement prepared before a migration changed its table would
// fail with "cached plan must not change result type"), and to the first `maxNamed` texts of the process: a
// connection keeps what it prepared until it closes, so the bound is what each connection can hold. Behind a
// pooler in transaction mode (PgBouncer before 1.21), set DATABASE_NAMED_STATEMENTS=false.
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

const maxNamed = 2000;

export interface NamedStatements {
  pool: PostgresPool;
  /** Starts naming statements (after the migrations). */
  enable(): void;
}

export function withNamedStatements(pool: pg.Pool): NamedStatements {
  const names = new Map<string, string>();
  let enabled = false;
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < maxNamed) {
      name = `k${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    enable: () => {
      enabled = true;
    },
    pool: {
      connect: async (): Promise<PostgresPoolClient> => {
        const client = await pool.connect();
        return {
          query: ((textOrCursor: unknown, values?: readonly unknown[]) => {
            if (typeof textOrCursor !== 'string') return client.query(textOrCursor as never);
            const name = enabled && values !== undefined && values.length > 0 ? nameOf(textOrCursor) : undefined;
            return name === undefined
              ? client.query(textOrCursor, values as unknown[])
              : client.query({ name, text: textOrCursor, values: values as unknown[] });
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
      },
      end: () => pool.end(),
    },
  };
}

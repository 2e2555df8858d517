// Every text bound into SQL is well-formed Unicode, on both stores. Neither store can keep a lone UTF-16
// surrogate: SQLite stores bytes that read back as other, longer text (a response then breaks its own
// `maxLength` on every read), PostgreSQL stores U+FFFD. Client text holding one is refused with a 400 naming the
// field before any handler runs (http/well-formed-text.ts), and the service cuts text by code points
// (text/code-points.ts), so reaching this check is the service's own defect: the query is refused before it is
// sent, and nothing is written, rather than stored altered.
import type { CompiledQuery, DatabaseConnection, Dialect } from 'kysely';
import { isWellFormed } from '../text/code-points.js';

function illFormedAt(parameters: readonly unknown[]): number {
  return parameters.findIndex((p) =>
    typeof p === 'string' ? !isWellFormed(p) : Array.isArray(p) && p.some((item) => typeof item === 'string' && !isWellFormed(item)),
  );
}

function check(query: CompiledQuery): void {
  const at = illFormedAt(query.parameters);
  if (at >= 0)
    throw new Error(`Parameter ${at + 1} of a query holds a lone UTF-16 surrogate, which no store keeps: ${query.sql.slice(0, 200)}`);
}

const guarded = new WeakSet<DatabaseConnection>();

/** The connection, its queries checked before they run. Checked in place: the driver's own transaction and
 * release methods are handed back the object they made. */
function guard(connection: DatabaseConnection): DatabaseConnection {
  if (guarded.has(connection)) return connection;
  const execute = connection.executeQuery.bind(connection);
  const stream = connection.streamQuery.bind(connection);
  connection.executeQuery = (query) => {
    check(query);
    return execute(query);
  };
  connection.streamQuery = (query, chunkSize) => {
    check(query);
    return stream(query, chunkSize);
  };
  guarded.add(connection);
  return connection;
}

/** The dialect, every query of every connection it opens checked for well-formed text parameters. */
export function withWellFormedParameters(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      driver.acquireConnection = async () => guard(await acquire());
      return driver;
    },
  };
}

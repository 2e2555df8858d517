// The store's Kysely table types (server/platform/store/schema.ts and banking-schema.ts) are written by hand beside the
// migrations that create the tables; this keeps the two from drifting apart. On each store kind a fresh store
// is migrated and its real columns (Kysely's introspection) are compared with the `Database` type as the
// TypeScript compiler reads it: the same tables and columns; each column nullable exactly when its type
// admits null, a number or a string as its SQL type says, and `Generated<...>` exactly when the store fills
// it in (an identity or a default).
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentTables } from '../../server/platform/store/migrations/0017_resource_environment.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { stores } from '../support/stores.js';

interface Column {
  nullable: boolean;
  kind: 'number' | 'string' | 'other';
  generated: boolean;
}
type Tables = Record<string, Record<string, Column>>;

const schemaFile = fileURLToPath(new URL('../../server/platform/store/schema.ts', import.meta.url));

/** The tables and columns of the `Database` interface exported by `file`, as its types declare them. */
function declaredTables(file: string): Tables {
  const program = ts.createProgram([file], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (problems.length > 0) throw new Error(`${file} does not compile:\n${problems.join('\n')}`);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  const database = checker.getExportsOfModule(module).find((s) => s.name === 'Database');
  if (!database) throw new Error(`${file} exports no Database`);
  const kindOf = (types: ts.Type[]): Column['kind'] => {
    if (types.every((t) => t.flags & ts.TypeFlags.NumberLike)) return 'number';
    if (types.every((t) => t.flags & ts.TypeFlags.StringLike)) return 'string';
    return 'other';
  };
  const partsOf = (type: ts.Type) => (type.isUnion() ? type.types : [type]);
  const tables: Tables = {};
  for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(database))) {
    const columns: Record<string, Column> = {};
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      let type = checker.getTypeOfSymbol(column);
      // Generated<T> is Kysely's ColumnType<T, T | undefined, T>: selected as T, optional on insert.
      const select = type.getProperty('__select__');
      const insert = type.getProperty('__insert__');
      const generated = insert !== undefined && partsOf(checker.getTypeOfSymbol(insert)).some((t) => t.flags & ts.TypeFlags.Undefined);
      if (select) type = checker.getTypeOfSymbol(select);
      const parts = partsOf(type);
      const values = parts.filter((t) => !(t.flags & ts.TypeFlags.Null));
      columns[column.name] = { nullable: values.length < parts.length, kind: kindOf(values), generated };
    }
    tables[table.name] = columns;
  }
  return tables;
}

const sqlKinds: Record<string, Column['kind']> = { integer: 'number', bigint: 'number', int4: 'number', int8: 'number', text: 'string' };

/** The tables and columns a migrated store really has. */
async function storedTables(store: Store): Promise<Tables> {
  const tables: Tables = {};
  for (const table of await store.db.introspection.getTables()) {
    // SQLite reports every primary key column as nullable: it lets a primary key that is not INTEGER hold
    // NULL (kept for compatibility), and an INTEGER one is the rowid, which is never NULL. PostgreSQL makes
    // them NOT NULL; the service never writes NULL to a key on either.
    const keys = new Set<string>();
    if (store.dialect === 'sqlite') {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table.name}) where pk > 0`.execute(store.db);
      for (const { name } of rows) keys.add(name);
    }
    tables[table.name] = Object.fromEntries(
      table.columns.map((c) => {
        const column: Column = {
          nullable: c.isNullable && !keys.has(c.name),
          kind: sqlKinds[c.dataType.toLowerCase()] ?? 'other',
          generated: c.isAutoIncrementing || c.hasDefaultValue,
        };
        return [c.name, column];
      }),
    );
  }
  return tables;
}

const declared = declaredTables(schemaFile);

describe('the declared table types', () => {
  it('are read from schema.ts: every table, and every column a number or a string', () => {
    expect(Object.keys(declared)).toContain('payouts');
    expect(Object.keys(declared)).toContain('banking_transfers');
    expect(declared.payees?.id).toEqual({ nullable: false, kind: 'number', generated: true });
    expect(declared.payees?.tax_id).toEqual({ nullable: true, kind: 'string', generated: false });
    const others = Object.entries(declared).flatMap(([table, columns]) =>
      Object.entries(columns)
        .filter(([, c]) => c.kind === 'other')
        .map(([name]) => `${table}.${name}`),
    );
    expect(others).toEqual([]);
  });
});

describe.each(stores)('the migrated store on $name', (kind) => {
  let store: Store;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await kind.fresh();
    drop = db.drop;
    store = await openStore(db.url);
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  it('has exactly the tables and columns schema.ts declares, with their nullability, kind and generated values', async () => {
    const stored = await storedTables(store);
    expect(Object.keys(stored).sort()).toEqual(Object.keys(declared).sort());
    for (const [table, columns] of Object.entries(declared))
      expect({ [table]: stored[table] }).toEqual({ [table]: withBackfills(table, columns) });
  });
});

/** A column whose default only fills the rows written before it (migration 0017's environment) has a default in the
 * store, yet every insert must name it, so its type keeps it required: the one kind of default schema.ts does not show. */
function withBackfills(table: string, columns: Record<string, Column>): Record<string, Column> {
  if (!(environmentTables as readonly string[]).includes(table)) return columns;
  return { ...columns, environment: { ...columns.environment!, generated: true } };
}

// Kysely builds a query's tree and compiles it to SQL on every call. For a page's wide select with joins that is
// about 60 µs of CPU, more than SQLite takes to run it (bench/README.md, "What limits the rest"). A query whose SQL
// depends only on which of its values are given and on the lengths of its lists is built once for each such
// shape, with a placeholder for every value, and each call then runs that SQL through Kysely with its own values
// put where Kysely put the placeholders. No caller lists the values in SQL order, so none can get it wrong.
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';

/** A query's values by name: each a value, a list of values (an `in` list), or undefined (a filter not asked for). */
export type QueryValues = Record<string, unknown>;

/** Where a placeholder stands for: a value by name, or an item of a list. */
class Placeholder {
  constructor(
    readonly name: string,
    readonly index: number,
  ) {}
}

interface Shape {
  sql: string;
  /** The placeholders in the order the SQL binds them. */
  places: Placeholder[];
}

const shapeOf = (values: QueryValues) =>
  Object.keys(values)
    .map((name) => {
      const value = values[name];
      return value === undefined ? '-' : Array.isArray(value) ? String(value.length) : '+';
    })
    .join(',');

/**
 * A query built by `build` from its values, compiled once per shape and per dialect. `build` must use the values
 * only as values bound to the SQL (compared, listed, limited), never to decide its shape other than by whether
 * one is undefined or how long a list is: it is called with placeholders in their stead.
 */
export function compiledQuery<V extends QueryValues, Row>(
  build: (db: Kysely<any>, values: V) => Compilable<Row>,
): (db: Kysely<any>, values: V) => Promise<Row[]> {
  // By dialect adapter: a transaction shares its database's, and each store's SQL differs.
  const shapes = new WeakMap<object, Map<string, Shape>>();
  return async (db, values) => {
    const adapter = db.getExecutor().adapter;
    let byShape = shapes.get(adapter);
    if (!byShape) {
      byShape = new Map();
      shapes.set(adapter, byShape);
    }
    const key = shapeOf(values);
    let shape = byShape.get(key);
    if (!shape) {
      const placeholders = Object.fromEntries(
        Object.keys(values).map((name) => {
          const value = values[name];
          return [
            name,
            value === undefined
              ? undefined
              : Array.isArray(value)
                ? value.map((_, i) => new Placeholder(name, i))
                : new Placeholder(name, -1),
          ];
        }),
      ) as V;
      const compiled = build(db, placeholders).compile();
      const places = compiled.parameters.map((p) => {
        if (!(p instanceof Placeholder))
          throw new Error(`compiledQuery: a value bound by its builder is not one of its values: ${compiled.sql}`);
        return p;
      });
      shape = { sql: compiled.sql, places };
      byShape.set(key, shape);
    }
    const parameters = shape.places.map((p) => (p.index < 0 ? values[p.name] : (values[p.name] as unknown[])[p.index]));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(shape.sql, parameters));
    return result.rows;
  };
}

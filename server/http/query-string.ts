// How every request's query string becomes `req.query`, before express-openapi-validator reads it: the names and
// values as sent (URLSearchParams decoding), a repeated name as an array, and `name[key]=value` (the contract's
// `deepObject` style, e.g. `metadata[order_id]=...`) folded into `name: { key: value }`. Every object built here has
// no prototype, so a key named after an Object.prototype member (`constructor`, `__proto__`, `toString`) is a key
// like any other. The validator's own folding (qs) drops such keys, which turned `metadata[toString]=x` into no
// filter at all: a filter must narrow or be refused, never widen. A key that nests or holds a bracket
// (`metadata[a][b]`) is kept whole (`a][b`), so the parameter's schema refuses it by name.
type Query = Record<string, unknown>;

const deepName = /^([^[\]]+)\[(.*)\]$/s;

function add(into: Query, name: string, value: string): void {
  const existing = into[name];
  if (existing === undefined) into[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else into[name] = [existing, value];
}

/** Express's `query parser` function. */
export function parseQuery(text: string): Query {
  const query: Query = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const deep = deepName.exec(name);
    if (deep === null) {
      add(query, name, value);
      continue;
    }
    const [, outer, key] = deep as unknown as [string, string, string];
    const existing = query[outer];
    if (existing === undefined) query[outer] = Object.create(null);
    else if (typeof existing !== 'object' || Array.isArray(existing)) {
      // `name=x` and `name[k]=y` together: kept as sent, which the parameter's schema refuses.
      add(query, name, value);
      continue;
    }
    add(query[outer] as Query, key, value);
  }
  return query;
}

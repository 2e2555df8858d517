// Values for an SQL `in` / `not in` list, padded to a power of two by repeating the first value (which changes
// nothing the list matches). Lists whose length varies from call to call then give a few statement texts
// instead of one per length, so the SQLite store's statement cache keeps them rather than compiling each anew
// (and evicting everyone else's).
export function inList<T>(values: readonly T[]): T[] {
  if (values.length <= 1) return [...values];
  const size = 2 ** Math.ceil(Math.log2(values.length));
  return [...values, ...Array<T>(size - values.length).fill(values[0]!)];
}

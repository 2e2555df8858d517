// Strings must be well-formed Unicode. JSON can carry a lone UTF-16 surrogate (`"abc\ud83d"`), which neither
// store keeps: SQLite writes U+FFFD in its place (three UTF-8 bytes that then break the field's maxLength on
// the way out) and PostgreSQL alters it too, so what was accepted is not what is stored. Every string of a
// request body (values and member names) and of its query is checked before the handler runs.
import type { FieldError } from '../platform/problems.js';
import { isWellFormed } from '../platform/text/code-points.js';
const detail = 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)';

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A field error for each ill-formed string in a JSON body, at its JSON Pointer. */
export function illFormedBodyStrings(value: unknown, pointer = '#', out: FieldError[] = []): FieldError[] {
  if (typeof value === 'string') {
    if (!isWellFormed(value)) out.push({ pointer, detail });
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) illFormedBodyStrings(item, `${pointer}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A bad member name cannot be quoted back faithfully either: the fault is reported at the object.
      if (!isWellFormed(key)) out.push({ pointer, detail: 'member names must be well-formed Unicode text' });
      else illFormedBodyStrings(item, `${pointer}/${escapePointer(key)}`, out);
    }
  }
  return out;
}

/** A field error for each query parameter whose decoded value is ill-formed. */
export function illFormedQueryStrings(query: Record<string, unknown>): FieldError[] {
  return Object.entries(query)
    .filter(([, value]) => [value].flat().some((v) => typeof v === 'string' && !isWellFormed(v)))
    .map(([name]) => ({ parameter: name, detail }));
}

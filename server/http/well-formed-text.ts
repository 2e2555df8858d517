// Strings must be well-formed Unicode. JSON can carry a lone UTF-16 surrogate (`"abc\ud83d"`), which neither
// store keeps: SQLite writes U+FFFD in its place (three UTF-8 bytes that then break the field's maxLength on
// the way out) and PostgreSQL alters it too, so what was accepted is not what is stored. Every string of a
// request body (values and member names) and of its query is checked before the handler runs.
import type { FieldError } from '../platform/problems.js';
import { isWellFormed } from '../platform/text/code-points.js';
const detail = 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)';

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A field error for each ill-formed string in a JSON body, at its JSON Pointer. The pointer is spelled only for a
 * fault: the walk itself keeps the path as a stack (every request with a body takes this walk). */
export function illFormedBodyStrings(value: unknown): FieldError[] {
  const out: FieldError[] = [];
  const path: string[] = [];
  const pointer = () => ['#', ...path.map(escapePointer)].join('/');
  const walk = (node: unknown): void => {
    if (typeof node === 'string') {
      if (!isWellFormed(node)) out.push({ pointer: pointer(), detail });
    } else if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(String(i));
        walk(node[i]);
        path.pop();
      }
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        // A bad member name cannot be quoted back faithfully either: the fault is reported at the object.
        if (!isWellFormed(key)) {
          out.push({ pointer: pointer(), detail: 'member names must be well-formed Unicode text' });
          continue;
        }
        path.push(key);
        walk((node as Record<string, unknown>)[key]);
        path.pop();
      }
    }
  };
  walk(value);
  return out;
}

/** A field error for each query parameter whose decoded value is ill-formed. */
export function illFormedQueryStrings(query: Record<string, unknown>): FieldError[] {
  const out: FieldError[] = [];
  for (const name in query) {
    const value = query[name];
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && !isWellFormed(v))) out.push({ parameter: name, detail });
  }
  return out;
}

// The contract's compatibility policy (openapi/DECISIONS.md "Compatibility") where it differs from api-smart-diff's
// own classification, which knows neither open responses nor open enumerations. A change api-smart-diff reports in a
// response (or a webhook payload, compared as a response) or a request is reclassified when it is:
// - a value added to an open enumeration (`anyOf: [<the known values>, OpenEnumValue]`): non-breaking;
// - `additionalProperties: false` removed (a response opened): non-breaking; added (a response closed): breaking;
// - OpenEnumValue added to an enumeration (it is made open: clients must now handle values they do not know) or
//   removed from one (it is closed again): breaking;
// - a response header made required (always sent): non-breaking; made optional: breaking. api-smart-diff reads
//   every header's `required` as a request parameter's;
// - a changed `type`: breaking, unless a response's types only narrowed or a request's only widened, then
//   non-breaking (api-smart-diff passes some type changes and refuses some widenings).
// Everything else keeps api-smart-diff's classification.
import type { Diff } from 'api-smart-diff';
import { deref as follow, type Node as Document } from './document.js';

type Key = string | number;

const combinators = new Set<Key>(['anyOf', 'allOf', 'oneOf']);

/**
 * The node before each step of a diff's path, $refs followed, and the node it ends at. api-smart-diff compares a
 * plain schema against an `anyOf` as `anyOf: [schema]`, and moves the siblings of an `anyOf` into an `allOf` of each
 * member, so a step into a combinator a schema lacks stays on the schema.
 */
function nodesAlong(doc: Document, path: readonly Key[]): any[] {
  const chain: any[] = [];
  let node: any = doc;
  let stay = false;
  for (const key of path) {
    node = follow(doc, node);
    chain.push(node);
    if (stay && typeof key === 'number') {
      stay = false;
      continue;
    }
    if (node === null || typeof node !== 'object') return chain;
    stay = combinators.has(key) && !Array.isArray(node[key]);
    if (!stay) node = node[key];
  }
  chain.push(follow(doc, node));
  return chain;
}

const isOpenValue = (doc: Document, node: unknown) => follow(doc, node)?.['x-open-enum-value'] === true;

/** The enumeration a path ends in (`..., anyOf, i[, allOf, j], enum[, k]`) is the known values of an open one. */
function inOpenEnumeration(doc: Document, path: readonly Key[]): boolean {
  let at = path.lastIndexOf('enum');
  while (at >= 2 && (path[at - 2] === 'allOf' || path[at - 2] === 'oneOf') && typeof path[at - 1] === 'number') at -= 2;
  if (at < 2 || path[at - 2] !== 'anyOf') return false;
  const holder = nodesAlong(doc, path)[at - 2];
  const members: unknown[] = Array.isArray(holder?.anyOf) ? holder.anyOf : [];
  return members.some((m) => isOpenValue(doc, m)) && !isOpenValue(doc, members[Number(path[at - 1])]);
}

/** Where a path of a compared document lies: in a response (or webhook payload), a request, or elsewhere. */
function sideOf(path: readonly Key[]): 'response' | 'request' | 'other' {
  if (path[0] !== 'paths') return 'other';
  if (path[3] === 'responses') return 'response';
  return path[3] === 'requestBody' || path[3] === 'parameters' ? 'request' : 'other';
}

const reclassified = (diff: Diff, type: Diff['type'], description: string): Diff => ({ ...diff, type, description });

/** The change classified by the policy. `before` and `after` are the documents api-smart-diff compared. */
export function applyPolicy(diff: Diff, before: Document, after: Document): Diff {
  const path = diff.path as Key[];
  const side = sideOf(path);
  const last = path.at(-1);
  // An example's fields are values, not schema keywords (an example's `type` is a problem's, not a JSON type).
  if (path.some((k) => k === 'examples' || k === 'example')) return diff;
  if (last === 'type' && path.at(-2) !== 'properties' && diff.action === 'replace' && side !== 'other') {
    // A response may now carry a type it did not, or a request is refused a type it took: breaking.
    const [was, now] = [[diff.before].flat(), [diff.after].flat()];
    const within = (a: unknown[], b: unknown[]) => a.every((t) => b.includes(t));
    const change = `the type from ${was.join(' or ')} to ${now.join(' or ')}`;
    return (side === 'response' ? within(now, was) : within(was, now))
      ? reclassified(diff, 'non-breaking', `[Changed] ${change}: ${side === 'response' ? 'narrower' : 'wider'}`)
      : reclassified(diff, 'breaking', `[Changed] ${change}`);
  }
  if (side !== 'response') return diff;

  if (path.includes('enum') && diff.action !== 'remove' && inOpenEnumeration(after, path)) {
    const grew =
      last !== 'enum' ||
      (Array.isArray(diff.before) && Array.isArray(diff.after) && diff.before.every((v) => (diff.after as unknown[]).includes(v)));
    if (grew) return reclassified(diff, 'non-breaking', '[Added] a value of an open enumeration');
  }
  if (last === 'additionalProperties') {
    if (diff.action !== 'remove' && diff.after === false)
      return reclassified(diff, 'breaking', '[Closed] a response object: a field added later would break strict clients');
    if (diff.before === false)
      return reclassified(diff, 'non-breaking', '[Opened] a response object: clients ignore fields they do not know');
  }
  if (last === 'required' && path.at(-3) === 'headers' && typeof diff.after === 'boolean') {
    // A response header the API now always sends is a promise more; one it may now leave out, a promise less.
    return diff.after
      ? reclassified(diff, 'non-breaking', '[Required] a response header: it is now always sent')
      : reclassified(diff, 'breaking', '[Optional] a response header: it may now be left out');
  }
  if (path.at(-2) === 'anyOf') {
    const doc = diff.action === 'remove' ? before : after;
    if (isOpenValue(doc, nodesAlong(doc, path).at(-1)))
      return diff.action === 'remove'
        ? reclassified(diff, 'breaking', '[Closed] an open enumeration: a value added later would break clients')
        : reclassified(diff, 'breaking', '[Opened] an enumeration: clients must now handle values they do not know');
  }
  return diff;
}

// The one cursor codec of every cursor list (`{data, nextCursor}`, newest first). A cursor is the base64url of the
// list's kind and the last position seen (`payout:po_...`, `transfer:98113`): opaque to callers, and bound to its
// list, so a cursor of another list, or one this service did not issue, is refused with the one bad-cursor problem
// (`badCursor`), naming the parameter. A position must match its list's pattern exactly, so an edited cursor is
// refused rather than read as something else. The lists that issued bare positions before this codec (payouts,
// events, webhook deliveries, group E's counterparties) still read them, so a client holding one keeps paging.
// Every list pages through `cursorPage`, so each reads its cursor, fetches one row beyond its page and splits it alike.
import { Problem } from '../problems.js';

export interface CursorList<Position> {
  /** The list's name inside its cursors: lower-case letters. */
  kind: string;
  /** The position a cursor carries, from its text; undefined if the text is not one of this list's. */
  parse: (text: string) => Position | undefined;
  /** The text of a position (what `parse` reads back). */
  format: (position: Position) => string;
  /** Also read a bare position (no kind), as this list's cursors were before the codec. */
  readsBarePositions?: boolean;
}

/** The one answer to a cursor this list did not issue: the same type and detail on every list of every group. */
export const badCursor = (parameter = 'Cursor') =>
  new Problem('validation-error', 'The cursor is not one this service issued.', {
    errors: [{ parameter, detail: 'unknown cursor' }],
  });

export function encodeCursor<Position>(list: CursorList<Position>, position: Position): string {
  return Buffer.from(`${list.kind}:${list.format(position)}`).toString('base64url');
}

/** The position of a cursor of `list`, or undefined for none (the first page); `badCursor` if not one of its. */
export function decodeCursor<Position>(list: CursorList<Position>, cursor: string | undefined, parameter = 'Cursor'): Position | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString();
  const colon = text.indexOf(':');
  const position =
    colon >= 0
      ? text.slice(0, colon) === list.kind
        ? list.parse(text.slice(colon + 1))
        : undefined
      : list.readsBarePositions
        ? list.parse(text)
        : undefined;
  if (position === undefined) throw badCursor(parameter);
  return position;
}

/** A list positioned by a row id (a positive safe integer). */
export function idCursorList(kind: string, options: { readsBarePositions?: boolean } = {}): CursorList<number> {
  return {
    kind,
    parse: (text) => (/^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined),
    format: (id) => String(id),
    ...options,
  };
}

/** A list positioned by a text matching `pattern` (anchored by the caller). */
export function textCursorList(kind: string, pattern: RegExp, options: { readsBarePositions?: boolean } = {}): CursorList<string> {
  return { kind, parse: (text) => (pattern.test(text) ? text : undefined), format: (text) => text, ...options };
}

export const defaultPageSize = 25;

/** How many rows a page fetches: one beyond the page tells whether another follows. */
const rowsToFetch = (pageSize: number | undefined) => (pageSize ?? defaultPageSize) + 1;

/** Rows fetched newest first (`rowsToFetch` of them) as the page and the cursor of the next, null on the last page. */
function splitPage<Row, Position>(
  list: CursorList<Position>,
  rows: Row[],
  pageSize: number | undefined,
  positionOf: (row: Row) => Position,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, pageSize ?? defaultPageSize);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > page.length && last !== undefined ? encodeCursor(list, positionOf(last)) : null };
}

/**
 * One page of a cursor list, the one way every list pages: the request's cursor read (or refused with `badCursor`),
 * `fetch` asked for the rows after that position, newest first, one more than the page (so the extra row says
 * whether another page follows), and the page with the cursor of the next.
 */
export async function cursorPage<Row, Position>(
  list: CursorList<Position>,
  query: { Cursor?: string; PageSize?: number },
  fetch: (after: Position | undefined, limit: number) => Promise<Row[]>,
  positionOf: (row: Row) => Position,
): Promise<{ page: Row[]; nextCursor: string | null }> {
  const after = decodeCursor(list, query.Cursor);
  const rows = await fetch(after, rowsToFetch(query.PageSize));
  return splitPage(list, rows, query.PageSize, positionOf);
}

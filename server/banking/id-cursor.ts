// The cursor pages of group D's lists: newest first by id (ids only grow), the cursor the base64url of the list's
// kind and the last id seen. The kind makes a cursor of one list (or one not issued here) a 400 on another, naming
// `Cursor`, rather than a page of something else.
import { invalidRequest } from '../problems.js';

export type CursorKind = 'business' | 'account' | 'counterparty' | 'transfer' | 'entry';

export interface CursorQuery {
  PageSize?: number;
  Cursor?: string;
}

export const defaultPageSize = 25;

/** The id the page starts below, or undefined for the first page. */
export function startBelow(kind: CursorKind, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^([a-z]+):([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  const id = Number(match?.[2]);
  if (match?.[1] !== kind || !Number.isSafeInteger(id)) throw invalidRequest([{ parameter: 'Cursor', detail: 'unknown cursor' }]);
  return id;
}

/** How many rows a page fetches: one beyond the page tells whether another follows. */
export const limitOf = (query: CursorQuery) => (query.PageSize ?? defaultPageSize) + 1;

/** Rows fetched newest first (`limitOf` of them) as the page and the cursor of the next, null on the last page. */
export function splitPage<Row extends { id: number }>(
  kind: CursorKind,
  rows: Row[],
  query: CursorQuery,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, query.PageSize ?? defaultPageSize);
  const last = page[page.length - 1];
  return {
    page,
    nextCursor: rows.length > page.length && last ? Buffer.from(`${kind}:${Number(last.id)}`).toString('base64url') : null,
  };
}

// The cursor codec on its own, without a service (server/platform/store/cursor.ts): a cursor reads back as its position on
// its own list only; anything else (another list's, an edited position, bytes it never issued) is the one
// bad-cursor problem naming the parameter; bare positions are read only by the lists that issued them; pages split
// with the next cursor on all but the last.
import { describe, expect, it } from 'vitest';
import {
  badCursor,
  cursorPage,
  decodeCursor,
  encodeCursor,
  idCursorList,
  textCursorList,
  type CursorList,
} from '../../server/platform/store/cursor.js';

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const transfers = idCursorList('transfer');
const payouts = textCursorList('payout', /^po_[0-9a-z]{26}$/, { readsBarePositions: true });
const reference = 'po_01jd3z8k2m4n6p8q0r2s4t6v8w';

/** The problem a decode throws, as the body's parts. */
const refusal = <P>(list: CursorList<P>, cursor: string, parameter?: string) => {
  try {
    decodeCursor(list, cursor, parameter);
  } catch (err) {
    const problem = err as { kind: string; detail: string; status: number; extra: { errors?: unknown[] } };
    return { kind: problem.kind, status: problem.status, detail: problem.detail, errors: problem.extra.errors };
  }
  throw new Error(`the codec read ${cursor}`);
};
const refused = (parameter = 'Cursor') => ({
  kind: 'validation-error',
  status: 400,
  detail: 'The cursor is not one this service issued.',
  errors: [{ parameter, detail: 'unknown cursor' }],
});

describe('encodeCursor and decodeCursor', () => {
  it('read back the position on the list that issued it, as the base64url of kind and position', () => {
    expect(encodeCursor(transfers, 98113)).toBe(b64('transfer:98113'));
    expect(decodeCursor(transfers, encodeCursor(transfers, 98113))).toBe(98113);
    expect(decodeCursor(payouts, encodeCursor(payouts, reference))).toBe(reference);
    expect(decodeCursor(transfers, undefined)).toBeUndefined();
  });

  it.each([
    ['another list', b64('business:5')],
    ['an edited position', b64('transfer:abc')],
    ['a zero id', b64('transfer:0')],
    ['an id beyond safe integers', b64('transfer:9999999999999999')],
    ['a bare id on a list that never issued bare ids', b64('98113')],
    ['bytes it never issued', 'bm90LWEtY3Vyc29y'],
    ['nothing', ''],
  ])('refuse %s with the one bad-cursor problem', (_, cursor) => {
    expect(refusal(transfers, cursor)).toEqual(refused());
  });

  it('name the parameter the list calls its cursor', () => {
    expect(refusal(transfers, 'x', 'cursor')).toEqual(refused('cursor'));
    expect(badCursor('After').extra.errors).toEqual([{ parameter: 'After', detail: 'unknown cursor' }]);
  });

  it('read a bare position only on a list that issued them before the codec', () => {
    expect(decodeCursor(payouts, b64(reference))).toBe(reference);
    expect(refusal(payouts, b64('po_short'))).toEqual(refused());
    expect(refusal(payouts, b64(`event:${reference}`))).toEqual(refused());
  });
});

describe('cursorPage', () => {
  // A list of ids 100, 99, ... 1, newest first, as a store walks it: the rows after a position, at most `limit`.
  const walked: { after: number | undefined; limit: number }[] = [];
  const fetch = async (after: number | undefined, limit: number) => {
    walked.push({ after, limit });
    return Array.from({ length: 100 }, (_, i) => ({ id: 100 - i }))
      .filter((r) => after === undefined || r.id < after)
      .slice(0, limit);
  };
  const byId = (r: { id: number }) => r.id;

  it('fetches one row beyond the page, from the position its cursor names', async () => {
    walked.length = 0;
    const first = await cursorPage(transfers, {}, fetch, byId);
    expect(first.page.map(byId)).toEqual(Array.from({ length: 25 }, (_, i) => 100 - i));
    expect(walked).toEqual([{ after: undefined, limit: 26 }]);
    const second = await cursorPage(transfers, { Cursor: first.nextCursor!, PageSize: 2 }, fetch, byId);
    expect(second.page.map(byId)).toEqual([75, 74]);
    expect(walked[1]).toEqual({ after: 76, limit: 3 });
    expect(decodeCursor(transfers, second.nextCursor!)).toBe(74);
  });

  it('gives null as the next cursor on the last page, and refuses a cursor of another list before fetching', async () => {
    expect(await cursorPage(transfers, { Cursor: encodeCursor(transfers, 3), PageSize: 2 }, fetch, byId)).toEqual({
      page: [{ id: 2 }, { id: 1 }],
      nextCursor: null,
    });
    walked.length = 0;
    await expect(cursorPage(transfers, { Cursor: encodeCursor(payouts, reference) }, fetch, byId)).rejects.toEqual(badCursor());
    expect(walked).toEqual([]);
  });
});

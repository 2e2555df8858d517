// A list page's items, fetched a page at a time from one of the client package's pagers (an async iterator that
// follows the API's cursors): the first page when the list opens or its filters change, the next on "Load more".
// Each pull takes `pageSize` items, the page size the iterator was opened with, so one pull is one request.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { counted } from './format.js';
import { ProblemNote } from './problem.js';

export const pageSize = 25;

export interface Pager<T> {
  items: T[];
  loading: boolean;
  error: unknown;
  /** True once the list has no more items. */
  done: boolean;
  more(): void;
  /** Opens the list again from its first page. */
  reload(): void;
}

export function usePager<T>(open: () => AsyncIterator<T>, deps: readonly unknown[]): Pager<T> {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState(false);
  const [opened, setOpened] = useState(0);
  const iterator = useRef<AsyncIterator<T> | undefined>(undefined);
  // A pull that finishes after the list was opened again (filters changed) is dropped.
  const generation = useRef(0);

  const pull = useCallback(async (fresh: boolean) => {
    const mine = ++generation.current;
    if (fresh) iterator.current = open();
    setLoading(true);
    setError(undefined);
    const batch: T[] = [];
    let finished = false;
    try {
      while (batch.length < pageSize) {
        const next = await iterator.current!.next();
        if (next.done) {
          finished = true;
          break;
        }
        batch.push(next.value);
      }
    } catch (e) {
      if (mine === generation.current) setError(e);
    }
    if (mine !== generation.current) return;
    setItems((before) => (fresh ? batch : [...before, ...batch]));
    setDone(finished);
    setLoading(false);
  }, deps);

  useEffect(() => {
    setItems([]);
    void pull(true);
  }, [pull, opened]);

  return {
    items,
    loading,
    error,
    done,
    more: () => void pull(false),
    reload: () => setOpened((n) => n + 1),
  };
}

/** Below a list: its state said to screen readers too, and the button for the next page. */
/** `noun` in the singular and the plural ("1 delivery shown", "2 deliveries shown"). */
export function PagerFooter<T>({ pager, noun: forms }: { pager: Pager<T>; noun: readonly [string, string] }) {
  const { items, loading, error, done } = pager;
  const noun = forms[1];
  let status = '';
  if (loading) status = `Loading ${noun}…`;
  else if (items.length === 0 && !error) status = `No ${noun}.`;
  else status = `${counted(items.length, forms)} shown${done ? '' : ', more to load'}.`;
  return (
    <div class="pager">
      {error ? <ProblemNote error={error} /> : null}
      <p class="pager-status" role="status">
        {status}
      </p>
      {!done && !loading && !error ? (
        <button type="button" onClick={pager.more}>
          Load more {noun}
        </button>
      ) : null}
      {error ? (
        <button type="button" onClick={pager.more}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

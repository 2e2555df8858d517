// A button's call to the API: whether it is running, what it answered, or the problem it met.
import { useState } from 'preact/hooks';

export interface Action<A extends unknown[], R> {
  /** Runs the call: its answer as `{ value }`, or undefined when it failed (the failure is in `error`). */
  run(...args: A): Promise<{ value: R } | undefined>;
  busy: boolean;
  error: unknown;
  result: R | undefined;
  clear(): void;
}

export function useAction<A extends unknown[], R>(call: (...args: A) => Promise<R>): Action<A, R> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [result, setResult] = useState<R | undefined>(undefined);
  return {
    busy,
    error,
    result,
    clear: () => {
      setError(undefined);
      setResult(undefined);
    },
    async run(...args: A) {
      setBusy(true);
      setError(undefined);
      try {
        const answer = await call(...args);
        setResult(answer);
        return { value: answer };
      } catch (e) {
        setError(e);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
  };
}

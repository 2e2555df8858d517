// One read when a page opens (or what it depends on changes): its value, or the problem it met.
import { useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
}

export function useLoad<T>(read: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ value: undefined, error: undefined, loading: true });
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    read().then(
      (value) => current && setState({ value, error: undefined, loading: false }),
      (error: unknown) => current && setState({ value: undefined, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return state;
}

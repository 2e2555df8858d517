// History routing under /console/: each page has its own address, so a reload or a shared link opens it (the
// service answers index.html for any /console/... page path). Links are plain <a href> elements that the router
// follows without a reload; a modified click (a new tab) is left to the browser.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const basePath = '/console';

/** The page's path inside the console (`/payouts/po_1`), with its query string. */
export function currentRoute(): string {
  const path = location.pathname.startsWith(basePath) ? location.pathname.slice(basePath.length) : location.pathname;
  return (path || '/') + location.search;
}

const listeners = new Set<() => void>();
addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export function navigate(route: string, { replace = false } = {}): void {
  const url = basePath + route;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The current route, re-rendering the caller when it changes. */
export function useRoute(): string {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return route;
}

/** `/payouts/:reference` against `/payouts/po_1` → `{ reference: 'po_1' }`; undefined when it does not match. */
export function match(pattern: string, route: string): Record<string, string> | undefined {
  const path = route.split('?')[0]!.replace(/\/+$/, '') || '/';
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(have[i]!);
    else if (want[i] !== have[i]) return undefined;
  }
  return params;
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
  'aria-label'?: string;
}

export function Link({ href, children, ...rest }: LinkProps) {
  const follow = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={basePath + href} onClick={follow}>
      {children}
    </a>
  );
}

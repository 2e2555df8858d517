// A page's frame: its one h1, named in the document's title, and focused when the page opens so a screen reader
// starts reading there after a link was followed.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Page({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Payout Service console`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <>
      <div class="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div class="page-actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}

/** A labelled section of a page, with its h2. */
export function Section({ title, children, id }: { title: string; children: ComponentChildren; id: string }) {
  return (
    <section aria-labelledby={id} class="section">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

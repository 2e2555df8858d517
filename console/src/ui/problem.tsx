// How a failed call is shown: the problem the service answered (its title, detail, the fields at fault and the
// request id to quote to support), or the connection failure.
import { ApiProblemError, ConnectionError } from '@payout-service/client';
import type { ComponentChildren } from 'preact';
import { Page } from './page.js';

/** Whether a read found nothing: the service answered 404 (another tenant's resource reads the same). */
export const isNotFound = (error: unknown): boolean => error instanceof ApiProblemError && error.status === 404;

/** A detail page whose resource does not exist: its title, what the service said, and the way back; nothing else. */
export function MissingPage({ title, error, children }: { title: string; error: unknown; children: ComponentChildren }) {
  return (
    <Page title={title}>
      <div class="missing" role="alert">
        <p>{error instanceof ApiProblemError ? error.detail : 'It does not exist.'}</p>
        <p>{children}</p>
      </div>
    </Page>
  );
}

export function describeError(error: unknown): { title: string; detail?: string; fields: string[]; requestId?: string } {
  if (error instanceof ApiProblemError) {
    const fields = (error.errors ?? []).map((e) => `${e.pointer ?? e.parameter ?? e.header ?? ''}: ${e.detail}`.replace(/^#\//, ''));
    return { title: `${error.title} (${error.status})`, detail: error.detail, fields, requestId: error.requestId };
  }
  if (error instanceof ConnectionError) return { title: 'The service could not be reached', detail: error.message, fields: [] };
  return { title: 'Something went wrong', detail: error instanceof Error ? error.message : String(error), fields: [] };
}

export function ProblemNote({ error }: { error: unknown }) {
  const { title, detail, fields, requestId } = describeError(error);
  return (
    <div class="problem" role="alert">
      <p class="problem-title">{title}</p>
      {detail ? <p>{detail}</p> : null}
      {fields.length > 0 ? (
        <ul>
          {fields.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      ) : null}
      {requestId ? (
        <p class="muted">
          Request id <code>{requestId}</code>
        </p>
      ) : null}
    </div>
  );
}

// The request log: the merchant's or partner's latest API requests (time, method, path, status, request id,
// duration, the Client ID; the console's own marked), kept 7 days, filtered by status, method, path, Client ID (`console`
// for the console's own) and time. Never bodies or credentials.
import { useState } from 'preact/hooks';
import { eachRequestLog, type RequestLogQuery } from '../api/console-api.js';
import { formatDuration } from '../ui/format.js';
import { Page } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { Time } from '../ui/values.js';
import { toInstant } from './events.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const satisfies readonly NonNullable<RequestLogQuery['Method']>[];

export function RequestLogPage() {
  const [draft, setDraft] = useState({ status: '', method: '', path: '', client: '', from: '', to: '' });
  const [query, setQuery] = useState<RequestLogQuery>({});
  const pager = usePager(() => eachRequestLog({ ...query, PageSize: pageSize }), [query]);
  return (
    <Page title="Request log">
      <p class="lead">
        Your latest requests to the API, kept 7 days: what was asked and how it was answered, never a body, a query string or a credential.
        Quote a request id to support.
      </p>
      <form
        class="filters"
        aria-label="Filter requests"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({
            Status: draft.status || undefined,
            Method: (draft.method || undefined) as RequestLogQuery['Method'],
            PathPrefix: draft.path || undefined,
            ClientId: draft.client || undefined,
            CreatedFrom: toInstant(draft.from),
            CreatedTo: toInstant(draft.to),
          });
        }}
      >
        <div>
          <label for="log-status">Status</label>
          <input
            id="log-status"
            placeholder="4xx or 404"
            pattern="[1-5]([0-9]{2}|xx)"
            size={5}
            value={draft.status}
            onInput={(e) => setDraft({ ...draft, status: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="log-method">Method</label>
          <select id="log-method" value={draft.method} onChange={(e) => setDraft({ ...draft, method: e.currentTarget.value })}>
            <option value="">Any method</option>
            {methods.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="log-path">Path starts with</label>
          <input
            id="log-path"
            placeholder="/v1/payouts"
            value={draft.path}
            onInput={(e) => setDraft({ ...draft, path: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="log-client">Client ID</label>
          <input
            id="log-client"
            placeholder="console, or a Client ID"
            pattern="[A-Za-z0-9_\-]+"
            list="log-clients"
            value={draft.client}
            onInput={(e) => setDraft({ ...draft, client: e.currentTarget.value })}
          />
          <datalist id="log-clients">
            <option value="console">The console's own requests</option>
            {[...new Set(pager.items.flatMap((r) => (r.clientId ? [r.clientId] : [])))].map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
        </div>
        <div>
          <label for="log-from">From</label>
          <input
            id="log-from"
            type="datetime-local"
            value={draft.from}
            onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="log-to">Before</label>
          <input id="log-to" type="datetime-local" value={draft.to} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <table>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Status</th>
            <th scope="col" class="number">
              Duration
            </th>
            <th scope="col">Request id</th>
            <th scope="col">Client ID</th>
          </tr>
        </thead>
        <tbody>
          {pager.items.map((r) => (
            <tr key={r.requestId}>
              <td>
                <Time iso={r.time} />
              </td>
              <td>{r.method}</td>
              <td>
                <code>{r.path}</code>
              </td>
              <td>
                <span class={`status status-${String(r.status)[0]}xx`}>{r.status}</span>
              </td>
              <td class="number">{formatDuration(r.durationMs)}</td>
              <td>
                <code>{r.requestId}</code>
              </td>
              <td>{r.clientId ? <code>{r.clientId}</code> : <span class="muted">console</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <PagerFooter pager={pager} noun={['request', 'requests']} />
    </Page>
  );
}

// Events: every event of the last 30 days, newest first, filtered by type, payout (merchants) and time, each with
// the payload its webhooks received; and one event's page.
import { isPayoutEvent, type MerchantClient, unwrap } from '@payout-service/client';
import { useMemo, useState } from 'preact/hooks';
import { usePayeeNames } from '../api/payee-names.js';
import { type AnyEvent, type EventFilters, eventsOf, eventTime } from '../api/events.js';
import { useConsole } from '../context.js';
import { Link } from '../router.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { isNotFound, MissingPage, ProblemNote } from '../ui/problem.js';
import { formatAmount } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { Payload, Time } from '../ui/values.js';

/** A `datetime-local` value (the reader's local time) as the ISO 8601 instant the API takes. */
export const toInstant = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

export function EventsPage() {
  const { clients } = useConsole();
  const api = useMemo(() => eventsOf(clients), [clients]);
  const initial = new URLSearchParams(location.search);
  const [draft, setDraft] = useState({ type: '', payout: initial.get('payout') ?? '', from: '', to: '' });
  const [filters, setFilters] = useState<EventFilters>({ types: [], payout: draft.payout || undefined });
  const pager = usePager(() => api.each(filters, pageSize), [api, filters]);
  const apply = (e: Event) => {
    e.preventDefault();
    setFilters({
      types: draft.type ? [draft.type] : [],
      payout: draft.payout || undefined,
      createdFrom: toInstant(draft.from),
      createdTo: toInstant(draft.to),
    });
  };
  return (
    <Page title="Events">
      <p class="lead">
        Every event of the last 30 days, as its webhooks received it. A receiver that missed a delivery recovers it here or through the
        events list of the API.
      </p>
      <form class="filters" onSubmit={apply} aria-label="Filter events">
        <div>
          <label for="event-type">Type</label>
          <select id="event-type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}>
            <option value="">All types</option>
            {api.types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        {api.byPayout ? (
          <div>
            <label for="event-payout">Payout reference</label>
            <input id="event-payout" value={draft.payout} onInput={(e) => setDraft({ ...draft, payout: e.currentTarget.value })} />
          </div>
        ) : null}
        <div>
          <label for="event-from">From</label>
          <input
            id="event-from"
            type="datetime-local"
            value={draft.from}
            onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="event-to">Before</label>
          <input id="event-to" type="datetime-local" value={draft.to} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <EventList events={pager.items} />
      <PagerFooter pager={pager} noun={['event', 'events']} />
    </Page>
  );
}

/** Events as a list whose every item opens to its payload. */
export function EventList({ events }: { events: AnyEvent[] }) {
  return (
    <ul class="event-list">
      {events.map((event) => (
        <li key={event.id}>
          <details>
            <summary>
              <span class="event-type">{event.type}</span> <Time iso={eventTime(event)} />{' '}
              {isPayoutEvent(event) ? (
                <span>
                  {formatAmount(event.amount, event.currency)} · <code>{event.payout_request_id}</code>
                </span>
              ) : null}{' '}
              <code class="muted">{event.id}</code>
            </summary>
            <p>
              <Link href={`/events/${event.id}`}>Open the event</Link>
              {isPayoutEvent(event) ? (
                <>
                  {' '}
                  · <Link href={`/payouts/${event.payout_request_id}`}>Open its payout</Link>
                </>
              ) : null}
            </p>
            <Payload value={event} label={`Payload of ${event.type} ${event.id}`} />
          </details>
        </li>
      ))}
    </ul>
  );
}

export function EventPage({ id }: { id: string }) {
  const { clients } = useConsole();
  const api = useMemo(() => eventsOf(clients), [clients]);
  const event = useLoad(() => api.get(id), [api, id]);
  if (isNotFound(event.error))
    return (
      <MissingPage title="No such event" error={event.error}>
        <Link href="/events">All events</Link>
      </MissingPage>
    );
  return (
    <Page title="Event">
      <p>
        <Link href="/events">All events</Link>
      </p>
      {event.error ? <ProblemNote error={event.error} /> : null}
      {event.value ? (
        <>
          <dl class="facts">
            <dt>Type</dt>
            <dd>{event.value.type}</dd>
            <dt>Id</dt>
            <dd>
              <code>{event.value.id}</code>
            </dd>
            <dt>Environment</dt>
            <dd>{event.value.environment}</dd>
            <dt>Time</dt>
            <dd>
              <Time iso={eventTime(event.value)} />
            </dd>
            {isPayoutEvent(event.value) && clients.kind === 'merchant' ? (
              <EventPayout merchant={clients.merchant} reference={event.value.payout_request_id} />
            ) : null}
          </dl>
          <Section title="Payload" id="event-payload">
            <Payload value={event.value} label="The event's payload" />
          </Section>
        </>
      ) : null}
    </Page>
  );
}

/** The payout an event is about, with the payee it pays by name. */
function EventPayout({ merchant, reference }: { merchant: MerchantClient; reference: string }) {
  const payout = useLoad(
    () => unwrap(merchant.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } })),
    [merchant, reference],
  );
  const names = usePayeeNames(merchant, payout.value ? [payout.value.PayeeId] : []);
  const p = payout.value;
  return (
    <>
      <dt>Payout</dt>
      <dd>
        <Link href={`/payouts/${reference}`}>{reference}</Link>
        {p ? ` · ${formatAmount(p.Amount, p.Currency)} to ${names.get(p.PayeeId) ?? `payee ${p.PayeeId}`}` : null}
      </dd>
    </>
  );
}

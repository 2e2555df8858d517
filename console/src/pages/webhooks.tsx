// Webhooks: the registrations of the merchant (or partner), a form to register one (its signing secret shown once),
// and each registration's page: a test event, a new signing secret, deletion, and its delivery log with redelivery.
import { merchantEnums } from '@payout-service/client';
import { useMemo, useState } from 'preact/hooks';
import { type Delivery, type Environment, type Webhook, webhooksOf } from '../api/webhooks.js';
import { useConsole } from '../context.js';
import { Link, navigate } from '../router.js';
import { useAction } from '../ui/action.js';
import { formatDuration } from '../ui/format.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { isNotFound, MissingPage, ProblemNote } from '../ui/problem.js';
import { SecretOnce } from '../ui/secret.js';
import { Badge, Time } from '../ui/values.js';
import { useLoad } from '../ui/load.js';

export function WebhooksPage() {
  const { clients } = useConsole();
  const api = useMemo(() => webhooksOf(clients), [clients]);
  const [version, setVersion] = useState(0);
  const list = useLoad(() => api.list(), [api, version]);
  const [secret, setSecret] = useState<{ id: string; secret: string } | undefined>();
  return (
    <Page title="Webhooks">
      <p class="lead">
        The service posts each event to every registration that selected it, once, signed with the registration's secret (Standard
        Webhooks). A registration hears only the events of its environment.
      </p>
      {secret ? (
        <div class="panel">
          <p>
            Registered. <Link href={`/webhooks/${secret.id}`}>Open the registration</Link>.
          </p>
          <SecretOnce label="Signing secret" value={secret.secret} onDone={() => setSecret(undefined)} />
        </div>
      ) : null}
      <Section title="Registrations" id="webhooks-list">
        {list.error ? <ProblemNote error={list.error} /> : null}
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Environment</th>
              <th scope="col">Signed</th>
              <th scope="col">Enabled</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {(list.value ?? []).map((w) => (
              <tr key={w.id}>
                <td>
                  <Link href={`/webhooks/${w.id}`}>{w.url}</Link>
                </td>
                <td>{w.events.length === 0 ? 'All' : w.events.join(', ')}</td>
                <td>{w.environment}</td>
                <td>{w.signed ? 'Yes' : 'No'}</td>
                <td>{w.enabled ? 'Yes' : 'No'}</td>
                <td>
                  <Time iso={w.createdOn} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="pager-status" role="status">
          {list.loading ? 'Loading registrations…' : list.value?.length === 0 ? 'No registrations yet.' : ''}
        </p>
      </Section>
      <Section title="Register a webhook" id="webhook-register">
        <RegisterForm
          events={api.events}
          onRegistered={(id, signingSecret) => {
            if (signingSecret) setSecret({ id, secret: signingSecret });
            setVersion((v) => v + 1);
          }}
          create={api.create}
        />
      </Section>
    </Page>
  );
}

function RegisterForm({
  events,
  create,
  onRegistered,
}: {
  events: readonly string[];
  create: ReturnType<typeof webhooksOf>['create'];
  onRegistered: (id: string, secret: string | null) => void;
}) {
  const { session } = useConsole();
  const [url, setUrl] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [environment, setEnvironment] = useState<Environment>(session.environment === 'production' ? 'production' : 'sandbox');
  const [signed, setSigned] = useState(true);
  const [retries, setRetries] = useState(false);
  const action = useAction(create);
  const submit = async (e: Event) => {
    e.preventDefault();
    const made = (await action.run({ url, events: chosen, environment, signed, retries }))?.value;
    if (made) {
      setUrl('');
      setChosen([]);
      onRegistered(made.id, made.secret);
    }
  };
  return (
    <form class="form" onSubmit={submit}>
      <label for="webhook-url">URL</label>
      <input
        id="webhook-url"
        type="url"
        required
        placeholder="https://hooks.example.com/payouts"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <EventChoices legend="Events (none chosen: every event)" events={events} chosen={chosen} onChange={setChosen} />
      <fieldset>
        <legend>Environment</legend>
        {merchantEnums.WebhookEnvironment.map((env) => (
          <label key={env} class="choice">
            <input type="radio" name="environment" value={env} checked={environment === env} onChange={() => setEnvironment(env)} />
            {env}
          </label>
        ))}
      </fieldset>
      <label class="choice">
        <input type="checkbox" checked={signed} onChange={(e) => setSigned(e.currentTarget.checked)} />
        Sign deliveries (a signing secret is shown once)
      </label>
      <label class="choice">
        <input type="checkbox" checked={retries} onChange={(e) => setRetries(e.currentTarget.checked)} />
        Retry failed deliveries
      </label>
      <button type="submit" disabled={action.busy}>
        Register
      </button>
      {action.error ? <ProblemNote error={action.error} /> : null}
    </form>
  );
}

/** The events a registration may select, as checkboxes. */
function EventChoices({
  legend,
  events,
  chosen,
  onChange,
}: {
  legend: string;
  events: readonly string[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div class="choices">
        {events.map((type) => (
          <label key={type} class="choice">
            <input
              type="checkbox"
              name="events"
              value={type}
              checked={chosen.includes(type)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, type] : chosen.filter((t) => t !== type))}
            />
            {type}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A registration's events, changed; a registration made without a choice receives every event until one is saved. */
function EditEvents({
  webhook,
  events,
  save,
}: {
  webhook: Webhook;
  events: readonly string[];
  save: (events: string[]) => Promise<unknown>;
}) {
  const [chosen, setChosen] = useState<string[]>(webhook.events);
  const action = useAction(save);
  return (
    <form
      class="form"
      aria-label="Change the events"
      onSubmit={async (e) => {
        e.preventDefault();
        await action.run(chosen);
      }}
    >
      <EventChoices legend="Events to receive from now on (one at least)" events={events} chosen={chosen} onChange={setChosen} />
      <button type="submit" disabled={action.busy || chosen.length === 0}>
        Save the events
      </button>
      {action.result ? (
        <p role="status" class="notice">
          Saved: {chosen.length} {chosen.length === 1 ? 'event' : 'events'}.
        </p>
      ) : null}
      {action.error ? <ProblemNote error={action.error} /> : null}
    </form>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const { clients } = useConsole();
  const api = useMemo(() => webhooksOf(clients), [clients]);
  const [version, setVersion] = useState(0);
  const webhook = useLoad(() => api.get(id), [api, id, version]);
  const deliveries = usePager(() => api.deliveries(id, pageSize), [api, id]);
  const test = useAction(api.test);
  const rotate = useAction(api.rotateSecret);
  const remove = useAction(api.remove);
  const toggle = useAction((enabled: boolean) => api.update(id, { enabled }));
  const [secret, setSecret] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const current = webhook.value;

  if (isNotFound(webhook.error))
    return (
      <MissingPage title="No such registration" error={webhook.error}>
        <Link href="/webhooks">All registrations</Link>
      </MissingPage>
    );
  return (
    <Page title="Webhook registration">
      <p>
        <Link href="/webhooks">All registrations</Link>
      </p>
      {webhook.error ? <ProblemNote error={webhook.error} /> : null}
      {current ? <WebhookFacts webhook={current} /> : null}
      <div class="toolbar">
        {current ? (
          <button
            type="button"
            disabled={toggle.busy}
            onClick={async () => {
              if (await toggle.run(!current.enabled)) setVersion((v) => v + 1);
            }}
          >
            {current.enabled ? 'Disable deliveries' : 'Enable deliveries'}
          </button>
        ) : null}
        <button
          type="button"
          disabled={test.busy}
          onClick={async () => {
            if (await test.run(id)) deliveries.reload();
          }}
        >
          Send a test event
        </button>
        <button
          type="button"
          disabled={rotate.busy}
          onClick={async () => {
            const rotated = (await rotate.run(id))?.value;
            if (rotated) setSecret(rotated.secret);
          }}
        >
          Rotate the signing secret
        </button>
        {confirming ? (
          <>
            <button
              type="button"
              class="danger"
              disabled={remove.busy}
              onClick={async () => {
                if (await remove.run(id)) navigate('/webhooks');
              }}
            >
              Delete it for good
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {test.result ? (
        <p role="status" class="notice">
          Test event sent: {test.result.outcome}
          {test.result.statusCode !== null ? `, HTTP ${test.result.statusCode}` : ''}.
        </p>
      ) : null}
      {[test.error, rotate.error, remove.error, toggle.error].map((e, i) => (e ? <ProblemNote key={i} error={e} /> : null))}
      {secret ? <SecretOnce label="New signing secret" value={secret} onDone={() => setSecret(undefined)} /> : null}
      {webhook.value ? (
        <Section title="Events" id="webhook-events">
          <EditEvents
            webhook={webhook.value}
            events={api.events}
            save={async (events) => {
              const saved = await api.update(id, { events });
              setVersion((v) => v + 1);
              return saved;
            }}
          />
        </Section>
      ) : null}
      <Section title="Deliveries" id="deliveries">
        <DeliveryTable
          deliveries={deliveries.items}
          redeliver={(eventId) => api.redeliver(id, eventId)}
          onRedelivered={deliveries.reload}
        />
        <PagerFooter pager={deliveries} noun={['delivery', 'deliveries']} />
      </Section>
    </Page>
  );
}

function WebhookFacts({ webhook }: { webhook: Webhook }) {
  return (
    <dl class="facts">
      <dt>URL</dt>
      <dd>{webhook.url}</dd>
      <dt>Id</dt>
      <dd>
        <code>{webhook.id}</code>
      </dd>
      <dt>Events</dt>
      <dd>{webhook.events.length === 0 ? 'All' : webhook.events.join(', ')}</dd>
      <dt>Environment</dt>
      <dd>{webhook.environment}</dd>
      <dt>Deliveries</dt>
      <dd>
        <Badge value={webhook.enabled ? 'enabled' : 'disabled'} />
      </dd>
      <dt>Signed</dt>
      <dd>{webhook.signed ? 'Yes' : 'No'}</dd>
      <dt>Retries</dt>
      <dd>{webhook.retries ? 'Yes' : 'No'}</dd>
      <dt>Created</dt>
      <dd>
        <Time iso={webhook.createdOn} />
      </dd>
    </dl>
  );
}

function DeliveryTable({
  deliveries,
  redeliver,
  onRedelivered,
}: {
  deliveries: Delivery[];
  redeliver: (eventId: string) => Promise<Delivery>;
  onRedelivered: () => void;
}) {
  const action = useAction(redeliver);
  return (
    <>
      {action.error ? <ProblemNote error={action.error} /> : null}
      <table>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Attempt</th>
            <th scope="col">Outcome</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Response</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={`${d.eventId}-${d.attempt}`}>
              <td>
                <Time iso={d.attemptedOn} />
              </td>
              <td>
                <Link href={`/events/${d.eventId}`}>{d.eventType}</Link>
              </td>
              <td>{d.attempt}</td>
              <td>
                <Badge value={d.outcome} />
              </td>
              <td>{d.statusCode ?? '—'}</td>
              <td>{formatDuration(d.durationMs)}</td>
              <td class="excerpt">
                {d.responseExcerpt ? <code>{d.responseExcerpt}</code> : null}
                {d.error ? <span class="muted"> {d.error}</span> : null}
                {!d.responseExcerpt && !d.error ? <span class="muted">—</span> : null}
              </td>
              <td>
                <button
                  type="button"
                  disabled={action.busy}
                  aria-label={`Redeliver ${d.eventType} ${d.eventId}`}
                  onClick={async () => {
                    if (await action.run(d.eventId)) onRedelivered();
                  }}
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

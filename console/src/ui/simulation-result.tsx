// What a sandbox helper did: the object's new state and the event it caused, with its payload.
import { eventTime, type AnyEvent } from '../api/events.js';
import { Link } from '../router.js';
import { Payload, Time } from './values.js';

export function SimulationResult({ summary, event }: { summary: string; event: AnyEvent | undefined }) {
  return (
    <div class="simulation-result" role="status">
      <p>{summary}</p>
      {event ? (
        <>
          <p>
            It caused <Link href={`/events/${event.id}`}>{event.type}</Link> <code>{event.id}</code> at <Time iso={eventTime(event)} />.
          </p>
          <details>
            <summary>The event's payload</summary>
            <Payload value={event} label={`Payload of ${event.type}`} />
          </details>
        </>
      ) : (
        <p class="muted">No event yet: it will be in the events list once the service writes it.</p>
      )}
    </div>
  );
}

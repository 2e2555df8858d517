// Small pieces of every page: a time, a state badge, an event's payload.
import { formatTime } from './format.js';

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {formatTime(iso)}
    </time>
  );
}

const tones: Record<string, string> = {
  completed: 'good',
  delivered: 'good',
  posted: 'good',
  active: 'good',
  approved: 'good',
  failed: 'bad',
  refused: 'bad',
  returned: 'bad',
  rejected: 'bad',
  cancelled: 'muted',
  voided: 'muted',
  suspended: 'bad',
};

/** A state as a badge: its word, never colour alone. */
export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${tones[value] ?? 'neutral'}`}>{value}</span>;
}

/** A payload as the API sent it, formatted; wrapped rather than scrolled, so no region needs the keyboard to scroll. */
export function Payload({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="payload" title={label}>
      <code>{JSON.stringify(value, null, 2)}</code>
    </pre>
  );
}

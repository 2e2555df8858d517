// How values read on the page: times in the reader's locale (the exact UTC time on hover), money with its currency.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A decimal string as the API gives it ("1250.00"), with its currency code. */
export const formatAmount = (amount: string | number, currency: string): string => `${amount} ${currency}`;

export const formatDuration = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '—' : `${Math.round(ms)} ms`);

/** A count with its noun in the right number: `counted(1, ['delivery', 'deliveries'])` is "1 delivery". */
export const counted = (n: number, [one, other]: readonly [string, string]): string => `${n} ${n === 1 ? one : other}`;

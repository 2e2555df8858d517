// The store keeps times as epoch milliseconds (schema.ts); the contracts show them as RFC 3339 date-times.

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
/** Years 1970 to 9999: the times this service stores. Others take Date's own formatting. */
const lastMs = 253402300800000;

/** A stored time as the contracts show it, e.g. `2025-01-31T09:30:00.000Z`. Number(): an int8 a driver hands back as text.
 *
 * The same text as `new Date(ms).toISOString()`, computed with integer arithmetic: a page of transfers formats
 * about 125 times, and Date's formatting was a twentieth of its CPU (bench/README.md). The calendar date is
 * Howard Hinnant's `civil_from_days`; test/server/timestamps.test.ts compares both over the whole range. */
export function isoTimestamp(stored: number): string {
  const ms = Number(stored);
  if (!Number.isInteger(ms) || ms < 0 || ms >= lastMs) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153); // months from March
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(millis)}Z`;
}

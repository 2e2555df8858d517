// The store keeps times as epoch milliseconds (schema.ts); the contracts show them as RFC 3339 date-times.
import { invalidRequest } from '../problems.js';

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

/** Days from 1970-01-01 to a proleptic Gregorian date: Howard Hinnant's `days_from_civil`, the inverse of the
 * arithmetic above (Date.UTC would read years 0 to 99 as 1900 to 1999). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const daysInMonth = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

// RFC 3339 `date-time` as the request validator accepts it (ajv-formats, full mode): `T`, `t` or a space between
// date and time, any number of fraction digits, `Z`, `z` or an offset of `+hh`, `+hhmm` or `+hh:mm`.
const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** Where a client sent a date-time: a query parameter (`{ parameter: 'CreatedFrom' }`) or a body field
 * (`{ pointer: '#/beginDate' }`), named in the 400 when it cannot be read. */
export type TimestampField = { parameter: string } | { pointer: string };

/** A client's RFC 3339 date-time as epoch milliseconds, the form the store keeps (the one reader of every
 * date-time a request carries; `Date.parse` reads a leap second as NaN, which matched nothing on SQLite and
 * failed on PostgreSQL). A leap second (`23:59:60Z`, or `05:29:60+05:30`) is read as the last millisecond of its
 * minute, `23:59:59.999Z`: the store's clock has no leap seconds (openapi/DECISIONS.md). Fractions beyond
 * milliseconds are cut. Text that is not a date-time, or names a day or time that does not exist, is a 400
 * naming the field. */
export function parseTimestamp(text: string, field: TimestampField): number {
  const m = dateTime.exec(text);
  const refuse = (why: string) =>
    invalidRequest([{ ...field, detail: `must be an RFC 3339 date-time such as 2025-01-31T09:30:00Z (${why})` }]);
  if (!m) throw refuse('not in that form');
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const sign = m[8] === '-' ? -1 : 1;
  const offsetMinutes = m[8] === undefined ? 0 : sign * (Number(m[9]) * 60 + Number(m[10] ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw refuse('no such day');
  if (hour > 23 || minute > 59 || second > 60 || Number(m[9] ?? 0) > 23 || Number(m[10] ?? 0) > 59) throw refuse('no such time');
  const utcMinuteOfDay = (((hour * 60 + minute - offsetMinutes) % 1440) + 1440) % 1440;
  if (second === 60 && utcMinuteOfDay !== 1439) throw refuse('a leap second ends a day in UTC, at 23:59:60Z');
  const millis = second === 60 ? 999 : Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const local = daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + Math.min(second, 59)) * 1000 + millis;
  return local - offsetMinutes * 60_000;
}

/** `parseTimestamp` of an optional field. */
export const optionalTimestamp = (text: string | undefined, field: TimestampField): number | undefined =>
  text === undefined ? undefined : parseTimestamp(text, field);

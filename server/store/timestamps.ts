// The store keeps times as epoch milliseconds (schema.ts); the contracts show them as RFC 3339 date-times.

/** A stored time as the contracts show it, e.g. `2025-01-31T09:30:00.000Z`. Number(): an int8 a driver hands back as text. */
export const isoTimestamp = (ms: number): string => new Date(Number(ms)).toISOString();

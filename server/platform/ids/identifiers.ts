// Resource identifiers: a type prefix and a ULID in lower-case Crockford base32 (10 characters of
// millisecond time, 16 of randomness). Unguessable, and they sort by creation time, which the payout
// list's cursor relies on.
import { randomUUID } from 'node:crypto';
import { randomBytesFromPool } from './random-pool.js';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

function ulid(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = alphabet[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const random = randomBytesFromPool(16);
  let rest = '';
  for (let i = 0; i < 16; i++) rest += alphabet[random[i]! % 32];
  return time + rest;
}

export const newPayoutReference = (): string => `po_${ulid()}`;
export const newPayeeAccountId = (): string => `pa_${ulid()}`;
export const newEventId = (at = Date.now()): string => `evt_${ulid(at)}`;
export const newWebhookId = (): string => randomUUID();
export const newRailPayeeId = (): string => `rp_${ulid()}`;
export const newConsoleUserId = (): string => `cu_${ulid()}`;
export const newConsoleSessionId = (): string => `cs_${ulid()}`;

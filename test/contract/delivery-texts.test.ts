// What the contract tells a receiver about deliveries is what the service does. Each webhook that calls its state
// final names a state the transition tables leave no way out of (and each such state's webhook says so); no text
// says a failed delivery is never sent again (registrations may ask for retries, and any delivery can be redelivered);
// every "answer within N seconds" is the service's delivery timeout, and every retry schedule the dispatcher's.
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { allowedPaymentTransitions } from '../../server/domain/partners/payment-transitions.js';
import { allowedPayoutTransitions } from '../../server/domain/payouts/payout-transitions.js';
import { allowedTransferTransitions } from '../../server/domain/banking/transfer-transitions.js';
import { retrySchedule } from '../../server/domain/webhooks/webhook-dispatcher.js';
import { loadConfig } from '../../server/platform/config.js';
import { walk } from '../../scripts/contract/document.js';
import { bundles, type Json } from '../support/contract.js';

const tables: Record<string, Readonly<Record<string, readonly string[]>>> = {
  payout: allowedPayoutTransitions,
  payment: allowedPaymentTransitions,
  transfer: allowedTransferTransitions,
};
/** A webhook's type names the state entered, but for a transfer's first (`transfer.created`: `pending`). */
const stateOf = (kind: string, state: string) => (kind === 'transfer' && state === 'created' ? 'pending' : state);

/** Every description of a document, with where it is. */
function descriptions(doc: unknown): [string, string][] {
  const found: [string, string][] = [];
  walk(doc, (node, keys) => {
    if (keys.at(-1) === 'description' && typeof node === 'string') found.push([`#/${keys.join('/')}`, node]);
  });
  return found;
}

/** A delay in the words the contract uses: "30 seconds", "2 minutes", "half an hour", "8 hours". */
function unitOf(ms: number): [number | 'half an hour', string] {
  if (ms === 1_800_000) return ['half an hour', ''];
  if (ms >= 3_600_000) return [ms / 3_600_000, 'hours'];
  if (ms >= 60_000) return [ms / 60_000, 'minutes'];
  return [ms / 1000, 'seconds'];
}

/** The schedule as the contract words it: runs of one unit joined ("2 and 10 minutes", "1, 2, 4, 8 and 8 hours"). */
function inWords(schedule: readonly number[]): string {
  const runs: { unit: string; values: (number | string)[] }[] = [];
  for (const ms of schedule) {
    const [value, unit] = unitOf(ms);
    const last = runs.at(-1);
    if (last && last.unit === unit && unit !== '') last.values.push(value);
    else runs.push({ unit, values: [value] });
  }
  const join = (v: (number | string)[]) => (v.length === 1 ? String(v[0]) : `${v.slice(0, -1).join(', ')} and ${v.at(-1)}`);
  return runs.map((r) => (r.unit ? `${join(r.values)} ${r.unit}` : join(r.values))).join(', ');
}

describe.each(groups)('the delivery texts of %s', (group) => {
  const doc = bundles[group] as Json;
  const texts = descriptions(doc).map(([at, text]) => [at, text.replace(/\s+/g, ' ')] as const);

  it('call a state final exactly when the transition tables leave no way out of it', () => {
    for (const [name, item] of Object.entries<Json>(doc.webhooks ?? {})) {
      const [kind, state] = name.split('.') as [string, string];
      const table = tables[kind];
      if (!table) continue;
      const allowed = table[stateOf(kind, state)];
      expect(allowed, `${name} names a state of the ${kind} table`).toBeDefined();
      const saysFinal = /This (state|status) is final/.test(String(item.post?.description));
      expect(saysFinal, `${name}: "final" in its description`).toBe(allowed!.length === 0);
    }
  });

  it('never say a failed delivery is not sent again', () => {
    for (const [at, text] of texts) {
      expect(text, at).not.toMatch(/no resend|not tried again by itself/i);
      if (/Sent once to every webhook registration/.test(text) && /within \d+ seconds/.test(text))
        expect(text, at).toContain('`retries: true`');
    }
  });

  it("state the service's own delivery timeout and retry schedule", () => {
    const timeoutSeconds = loadConfig({}).webhookTimeoutMs / 1000;
    for (const [at, text] of texts) {
      for (const m of text.matchAll(/answer within (\d+) seconds/g)) expect(Number(m[1]), at).toBe(timeoutSeconds);
      const schedule = /up to (\d+) more times over about 24 hours \(after ([^)]+)\)/.exec(text);
      if (schedule) {
        expect(Number(schedule[1]), at).toBe(retrySchedule.length);
        expect(schedule[2], at).toBe(inWords(retrySchedule));
      }
    }
  });
});

it('finds what it checks: final states, timeouts and schedules are stated somewhere', () => {
  const all = groups.flatMap((g) => descriptions(bundles[g]).map(([, t]) => t.replace(/\s+/g, ' ')));
  expect(all.filter((t) => /This (state|status) is final/.test(t)).length).toBeGreaterThan(0);
  expect(all.filter((t) => /answer within \d+ seconds/.test(t)).length).toBeGreaterThan(0);
  expect(all.filter((t) => /up to \d+ more times over about 24 hours \(after/.test(t)).length).toBeGreaterThan(0);
});

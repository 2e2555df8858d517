// Every cursor list of every group, read off the contract (each operation with a cursor parameter), on each store:
// a cursor the service did not issue, or one of another list, gets the one bad-cursor problem (store/cursor.ts),
// naming the parameter; a cursor the contract's pattern refuses gets the validator's one answer on every list.
import { describe, expect, it } from 'vitest';
import { servedOperations, type ServedOperation } from '../support/operations.js';
import { fill, problemType } from '../support/requests.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';
import { signedIn } from '../support/console.js';

const cursorLists = servedOperations.flatMap((o) =>
  o.parameters.filter((p) => p.in === 'query' && /cursor/i.test(p.name)).map((p) => ({ o, parameter: p.name })),
);
const b64 = (text: string) => Buffer.from(text).toString('base64url');

describe('the cursor lists of the contract', () => {
  it('are every list of every group that pages by cursor', () => {
    expect(cursorLists.map(({ o }) => `${o.group} ${o.operationId}`)).toEqual([
      'merchant listPayouts',
      'merchant listWebhookDeliveries',
      'merchant listEvents',
      'platform listPayouts',
      'platform listEvents',
      'partner listPartnerWebhookDeliveries',
      'partner listPartnerEvents',
      'banking listBusinesses',
      'banking listBusinessAccounts',
      'banking listBankingCounterparties',
      'banking listAccountTransfers',
      'banking listAccountLedgerEntries',
      'counterparty listCounterparties',
      'counterparty listPartnerWebhookDeliveries',
      'counterparty listPartnerEvents',
      'console listConsoleCredentials',
      'console listRequestLogs',
    ]);
  });
});

describe.each(stores)('a bad cursor on every cursor list on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });

  /** The caller's token (for the console, its session's cookie) and a path whose resources exist, so the answer is
   * about the cursor alone. */
  async function request(o: ServedOperation): Promise<{ token?: string; headers?: Record<string, string>; path: string }> {
    if (o.caller === 'console') {
      const { browser } = await signedIn(service, { kind: 'merchant', id: (await service.merchant()).merchantId });
      return { headers: { cookie: browser.cookie!, origin: service.baseUrl }, path: o.url };
    }
    const caller = o.caller === 'partner' ? await service.partner() : await service.merchant();
    let id: string | number = 1;
    if (/deliveries$/.test(o.path)) {
      const made = await service.send('POST', o.url.replace(/\/\{id\}\/deliveries$/, ''), {
        token: caller.token,
        body: { url: 'http://127.0.0.1:9/hook' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      id = made.body.id;
    }
    return { token: caller.token, path: fill(o.url, { id }) };
  }

  it.each(cursorLists.map(({ o, parameter }) => ({ name: `${o.group} ${o.operationId}`, o, parameter })))(
    '$name: a cursor not issued here, or of another list, is the one bad-cursor problem naming $parameter',
    async ({ o, parameter }) => {
      const { token, headers, path } = await request(o);
      const otherList = o.operationId === 'listBusinesses' ? b64('transfer:1') : b64('business:1');
      for (const cursor of ['bm90LWEtY3Vyc29y', b64('garbage'), b64('payout:1'), b64('entry:x'), otherList, 'A']) {
        const r = await service.send('GET', path, { token, headers, query: { [parameter]: cursor } });
        expect({ status: r.status, type: r.body?.type, detail: r.body?.detail, errors: r.body?.errors }, `${path} ${cursor}`).toEqual({
          status: 400,
          type: problemType('validation-error'),
          detail: 'The cursor is not one this service issued.',
          errors: [{ parameter, detail: 'unknown cursor' }],
        });
      }
    },
  );

  it('a cursor outside the contract is refused by the validator the same way on every list', async () => {
    const answers = new Set<string>();
    for (const { o, parameter } of cursorLists) {
      const { token, headers, path } = await request(o);
      const r = await service.send('GET', path, { token, headers, query: { [parameter]: 'not*a*cursor' } });
      expect(r.status, path).toBe(400);
      expect(r.body.errors.map((e: { parameter?: string }) => e.parameter)).toContain(parameter);
      answers.add(JSON.stringify({ type: r.body.type, detail: r.body.detail }));
    }
    expect([...answers]).toHaveLength(1);
  });
});

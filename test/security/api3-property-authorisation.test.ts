// OWASP API3:2023 Broken Object Property Level Authorisation, both halves.
// Excessive exposure: a full scenario across groups A to E (every kind of resource created, read, listed,
// searched, refused, and payouts taken to their final state with webhooks delivered) is recorded response by
// response; no response, header or webhook delivery carries a full account number, IBAN, SSN, tax, document or ID
// number, a client secret or an internal hash, an access token appears only in token responses, and a
// webhook signing secret only in the response that created it.
// Mass assignment: every operation with a JSON body refuses properties its contract does not declare
// (status, Status, merchantId, MerchantId, partnerId, id, createdOn and others a caller might hope the
// server would take) with 400 naming the property, at the top level and in nested objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { validatorAt } from '../support/contract.js';
import { settled } from '../support/settled-transfer.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { declaredProperties, distinctOperations, requestExamples, type ServedOperation } from '../support/operations.js';
import { fill } from '../support/requests.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

interface Recorded {
  method: string;
  url: string;
  status: number;
  headers: string;
  text: string;
}

describe('no response exposes a secret or a full number', () => {
  const service = useService(':memory:', { sandboxStepMs: 0 }, { resolve: loopbackResolver });
  let receiver: WebhookReceiver;
  const recorded: Recorded[] = [];
  let tenants: Tenant[];
  /** Sensitive values sent only in refused requests: a refusal must not echo them either. */
  const refused: string[] = [];
  /** Each tenant's webhook secret after its rotation, shown once in the rotation's answer. */
  const rotated = new Map<Tenant, string>();
  /** New account numbers each tenant gives its recipient (C) and counterparty (E) by update: never shown whole. */
  const replaced = (t: Tenant) => [`4${t.accountNumbers.operating.slice(1)}`, `3${t.accountNumbers.operating.slice(1)}`];

  /** The fetch every client of the scenario sends through: it keeps a copy of every answer. */
  const recording = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    recorded.push({
      method: request.method,
      url: request.url,
      status: response.status,
      headers: JSON.stringify([...response.headers]),
      text: await response.clone().text(),
    });
    return response;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    tenants = [
      await newTenant(service, 'Exposed', { fetch: recording, webhookUrl: `${receiver.url}/exposed` }),
      await newTenant(service, 'Other', { fetch: recording, webhookUrl: `${receiver.url}/other` }),
    ];
    for (const t of tenants) {
      // Every read, list and search each group offers, once everything has moved to its final state.
      await t.a.POST('/v1/payouts', { body: { PayeeId: t.ids.payee, Amount: 3, Currency: 'USD' } });
      await receiver.waitFor(2, (d) => d.path.endsWith(t.label.toLowerCase()) && d.body.includes('"completed"'));
      await unwrap(t.a.GET('/v1/payees/{id}', { params: { path: { id: t.ids.payee } } }));
      await unwrap(t.a.GET('/v1/payees/{id}/accounts', { params: { path: { id: t.ids.payee } } }));
      await unwrap(
        t.a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: t.ids.payee, account_id: t.ids.payeeAccount } } }),
      );
      await unwrap(
        t.a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { id: t.ids.payee, account_id: t.ids.ibanAccount } } }),
      );
      await unwrap(
        t.a.PATCH('/v1/payees/{id}', {
          params: { path: { id: t.ids.payee } },
          body: {
            name: `${t.label} Payee`,
            address: { addressLine: '1 Main St', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' },
          },
        }),
      );
      await unwrap(t.a.POST('/v1/payees/list', { body: {} }));
      await unwrap(t.a.GET('/v1/payouts'));
      await unwrap(t.a.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: t.ids.payout } } }));
      await unwrap(t.a.GET('/v1/webhooks'));
      await unwrap(t.b.GET('/v1/payees/{id}', { params: { path: { id: t.ids.platformPayee } } }));
      await unwrap(t.b.POST('/v1/payees/list', { body: {} }));
      await unwrap(t.b.GET('/v1/payouts'));
      await unwrap(t.b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'US', currency: 'USD', rail: 'ACH', amount: 250 } }));
      await unwrap(t.d.GET('/finance/api/v1/business/{id}', { params: { path: { id: t.ids.business } } }));
      await unwrap(t.d.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: t.ids.account } } }));
      await unwrap(t.c.GET('/finance/v1/partner/list', {}));
      await unwrap(t.c.GET('/finance/v1/payees', {}));
      await unwrap(t.c.POST('/finance/v1/partner/search_transactions', { body: {} }));
      await unwrap(t.e.POST('/finance/v1/search_transactions', { body: {} }));

      // The reads, changes and simulations added since: webhook management and events (A, B), every group D read,
      // a settled ACH push taken through a notification of change and a return, and C and E updates that send new
      // account numbers (which must come back masked like the first ones).
      const webhook = { params: { path: { id: t.ids.webhook } } };
      await unwrap(t.a.GET('/v1/webhooks/{id}', webhook));
      await unwrap(t.a.PATCH('/v1/webhooks/{id}', { ...webhook, body: { enabled: true } }));
      rotated.set(t, (await unwrap(t.a.POST('/v1/webhooks/{id}/rotate-secret', webhook))).secret);
      await unwrap(t.a.POST('/v1/webhooks/{id}/test', webhook));
      await unwrap(t.a.GET('/v1/webhooks/{id}/deliveries', webhook));
      await unwrap(t.a.GET('/v1/events'));
      await unwrap(t.a.GET('/v1/events/{eventId}', { params: { path: { eventId: t.ids.event } } }));
      await unwrap(t.b.GET('/v1/events'));
      await unwrap(t.b.GET('/v1/events/{eventId}', { params: { path: { eventId: t.ids.event } } }));
      const business = { params: { path: { id: t.ids.business } } };
      await unwrap(t.d.GET('/finance/api/v1/business'));
      await unwrap(t.d.GET('/finance/api/v1/business/{id}/accounts', business));
      await unwrap(t.d.GET('/finance/api/v1/business/{id}/counterparties', business));
      for (const verificationId of [t.ids.verification, t.ids.documentVerification])
        await unwrap(t.d.GET('/finance/api/v1/identity-verification/{verificationId}', { params: { path: { verificationId } } }));
      for (const counterpartyId of [t.ids.achCounterparty, t.ids.abaCounterparty, t.ids.bicCounterparty])
        await unwrap(t.d.GET('/finance/api/v1/counterparty/{counterpartyId}', { params: { path: { counterpartyId } } }));
      for (const accountId of [t.ids.account, t.ids.reserveAccount]) {
        const account = { params: { path: { accountId } } };
        await unwrap(
          t.d.GET('/finance/api/v1/business/{id}/accounts/{accountId}', { params: { path: { id: t.ids.business, accountId } } }),
        );
        await unwrap(t.d.GET('/finance/api/v1/account/{accountId}/numbers', account));
        await unwrap(t.d.GET('/finance/api/v1/account/{accountId}/transactions', account));
        await unwrap(t.d.GET('/finance/api/v1/account/{accountId}/ledger-entries', account));
      }
      const transfer = { params: { path: { transferId: t.ids.transfer } } };
      await settled(t.d, t.ids.transfer, 'completed');
      await unwrap(
        t.d.POST('/finance/api/v1/simulations/transfers/{transferId}/notification-of-change', {
          ...transfer,
          body: { changeCode: 'C02', correctedData: { routingNumber: '026009593' } },
        }),
      );
      await unwrap(t.d.POST('/finance/api/v1/simulations/transfers/{transferId}/return', { ...transfer, body: { returnCode: 'R01' } }));
      await unwrap(t.d.GET('/finance/api/v1/transaction/{transferId}', transfer));
      await receiver.waitFor(1, (d) => d.path.endsWith(t.label.toLowerCase()) && d.body.includes('"transfer.returned"'));
      // Decided already or not, the answer is recorded.
      await t.d.POST('/finance/api/v1/simulations/identity-verification/{verificationId}/decision', {
        params: { path: { verificationId: t.ids.verification } },
        body: { status: 'approved' },
      });
      const [newRecipientNumber, newCounterpartyNumber] = replaced(t);
      await unwrap(
        t.c.PATCH('/finance/v1/payees/{payeeId}', {
          params: { path: { payeeId: t.ids.achRecipient } },
          body: { ach: { accountNumber: newRecipientNumber! } },
        }),
      );
      await unwrap(
        t.e.PATCH('/finance/v1/payee/{payeeId}', {
          params: { path: { payeeId: t.ids.counterparty } },
          body: { ach: { accountNumber: newCounterpartyNumber! } },
        }),
      );
      await unwrap(t.e.GET('/finance/v1/payee'));
      await unwrap(t.e.GET('/finance/v1/payee/{payeeId}', { params: { path: { payeeId: t.ids.counterparty } } }));
      for (const paymentId of [t.ids.partnerPayment, t.ids.counterpartyPayment]) {
        const payment = { params: { path: { paymentId } } };
        // Whatever state each is in by now (a refusal is recorded like an answer): a NOC, a return, a cancel.
        await t.c.POST('/finance/v1/simulations/payment_request/{paymentId}/notification-of-change', {
          ...payment,
          body: { changeCode: 'C02', correctedData: { routingNumber: '026009593' } },
        });
        await t.e.POST('/finance/v1/simulations/payment_request/{paymentId}/return', { ...payment, body: { returnCode: 'R03' } });
        await t.e.POST('/finance/v1/payment_request/{paymentId}/cancel', payment);
        await unwrap(t.c.GET('/finance/v1/payment_request/{paymentId}', payment));
      }

      // Refusals of requests that carry sensitive values must not echo them.
      const [payeeNumber, iban] = t.sensitive;
      const badIban = `${iban!.slice(0, 2)}00${iban!.slice(4)}`;
      refused.push(badIban);
      await t.a.POST('/v1/payees/{id}/accounts', {
        params: { path: { id: t.ids.payee } },
        body: { type: 'IBAN', accountHolderName: 'X', IBAN: badIban, Currency: 'EUR' },
      });
      await t.a.PATCH('/v1/payees/{id}/accounts/{account_id}', {
        params: { path: { id: t.ids.payee, account_id: 'pa_00000000000000000000000000' } },
        // @ts-expect-error refused by the service, and by the types (a conditional requirement)
        body: { type: 'BANK_ACCOUNT', accountHolderName: 'X', accountNumber: payeeNumber!, routingNumber: '021000021', Currency: 'USD' },
      });
      await t.d.POST('/finance/api/v1/account/{businessId}', {
        params: { path: { businessId: t.ids.business } },
        body: { fundingAccountNumber: `${payeeNumber}` },
      });
      await t.d.POST('/finance/api/v1/account/{businessId}', {
        params: { path: { businessId: t.ids.business } },
        body: { presetAccountNumber: t.accountNumbers.operating },
      });
      await t.c.POST('/finance/v1/payment_request', {
        body: {
          payeeId: t.ids.achRecipient,
          merchantAccountNumber: payeeNumber!,
          amount: 1.001,
          currency: 'USD',
          paymentMethodType: 'STANDARD',
          description: 'x',
          merchantId: t.merchantId,
        },
      });
    }
  });
  afterAll(async () => {
    await receiver.close();
  });

  const isTokenResponse = (r: Recorded) => /\/(oauth\/token|generate-token)$/.test(new URL(r.url).pathname);

  it('recorded a full scenario: every group answered, successes and refusals', () => {
    const prefixes = [
      '/v1/',
      '/payouts/v1/',
      '/payouts/api/v1/',
      '/finance/api/v1/',
      '/finance/v1/',
      '/oauth/token',
      '/api/v1/generate-token',
    ];
    for (const prefix of prefixes)
      expect(
        recorded.some((r) => new URL(r.url).pathname.startsWith(prefix)),
        prefix,
      ).toBe(true);
    expect(recorded.filter((r) => r.status < 300).length).toBeGreaterThan(60);
    expect(recorded.filter((r) => r.status >= 400).length).toBeGreaterThanOrEqual(10);
    expect(receiver.deliveries.length).toBeGreaterThanOrEqual(8);
  });

  it('no response or header carries a full account number, IBAN, SSN, tax id, document or ID number, or client secret', () => {
    // But for one read: a deposit account's own numbers, asked for by its owner (proven on its own below).
    const fullNumberReads = new Map(
      tenants.flatMap((t) =>
        (
          [
            [t.accountNumbers.operating, t.ids.account],
            [t.accountNumbers.reserve, t.ids.reserveAccount],
          ] as const
        ).map(([number, accountId]) => [number, [`GET ${service.baseUrl}/finance/api/v1/account/${accountId}/numbers 200`]]),
      ),
    );
    for (const t of [...tenants.map((t) => ({ ...t, sensitive: [...t.sensitive, ...replaced(t)] })), { sensitive: refused }]) {
      for (const value of t.sensitive) {
        const found = recorded.filter((r) => r.text.includes(value) || r.headers.includes(value));
        expect(
          found.map((r) => `${r.method} ${r.url} ${r.status}`),
          value,
        ).toEqual(fullNumberReads.get(value) ?? []);
      }
    }
    // The numbers do come back, masked to their last four: the scan looks where they would be.
    const masked = tenants.flatMap((t) => t.sensitive.slice(0, 10).map((n) => `"${n.slice(-4)}"`));
    expect(masked.filter((m) => recorded.some((r) => r.text.includes(m))).length).toBeGreaterThanOrEqual(10);
  });

  it("a deposit account's full number is answered only by getAccountNumbers, to its owner", () => {
    for (const t of tenants)
      for (const [accountId, number] of [
        [t.ids.account, t.accountNumbers.operating],
        [t.ids.reserveAccount, t.accountNumbers.reserve],
      ] as const) {
        const reads = recorded.filter((r) => r.text.includes(number));
        expect(reads.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
          `GET /finance/api/v1/account/${accountId}/numbers 200`,
        ]);
        expect(JSON.parse(reads[0]!.text)).toMatchObject({ accountId, accountNumber: number });
      }
  });

  it('no webhook delivery carries a full account number or a secret', () => {
    for (const t of tenants)
      for (const value of [...t.sensitive, ...replaced(t), t.webhookSecret, rotated.get(t)!])
        expect(receiver.deliveries.filter((d) => d.body.includes(value) || JSON.stringify(d.headers).includes(value))).toEqual([]);
  });

  it('no response carries an internal hash or key material', () => {
    for (const marker of ['sha256$', 'secret_hash', 'private_jwk', '"d":"'])
      expect(
        recorded.filter((r) => r.text.includes(marker)).map((r) => r.url),
        marker,
      ).toEqual([]);
  });

  it('access tokens appear only in token responses', () => {
    const tokens = recorded.filter(isTokenResponse).map((r) => JSON.parse(r.text).access_token as string);
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    for (const token of tokens)
      expect(
        recorded.filter((r) => !isTokenResponse(r) && (r.text.includes(token) || r.headers.includes(token))).map((r) => r.url),
      ).toEqual([]);
  });

  it('a webhook signing secret appears once, in the response that created it or rotated it in', () => {
    for (const t of tenants) {
      const carrying = (secret: string) =>
        recorded
          .filter((r) => r.text.includes(secret) || r.headers.includes(secret))
          .map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
      expect(carrying(t.webhookSecret)).toEqual(['POST /v1/webhooks 201']);
      expect(carrying(rotated.get(t)!)).toEqual([`POST /v1/webhooks/${t.ids.webhook}/rotate-secret 200`]);
    }
  });
});

/** Properties a caller might add hoping the server takes them: state, ownership, identity, timestamps. */
const hopeful = [
  'status',
  'Status',
  'merchantId',
  'MerchantId',
  'partnerId',
  'PartnerId',
  'id',
  'Id',
  'createdOn',
  'CreatedOn',
  'updatedOn',
  'verificationStatus',
  'active',
  'secret',
  'balance',
  '__proto__',
  'constructor',
];

/** A documented request example that is valid as it stands (the first one, by document order). */
function validExample(o: ServedOperation): Record<string, unknown> {
  const validate = validatorAt(o.group, o.bodyPointer!);
  const example = Object.values(requestExamples(o)).find((e) => validate(e));
  if (!example) throw new Error(`${o.group} ${o.operationId} documents no valid request example`);
  return example as Record<string, unknown>;
}

/** Paths (JSON pointers) of the nested objects of a body, e.g. `/address`, `/ach/address`. `metadata` is left out:
 * it is the caller's own map, where any key (`status` too) is the caller's to set and means nothing to the service. */
function nestedObjects(value: unknown, at = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k !== 'metadata' && v && typeof v === 'object' && !Array.isArray(v) ? [`${at}/${k}`, ...nestedObjects(v, `${at}/${k}`)] : [],
  );
}

describe('mass assignment is refused, naming the property', () => {
  const service = useService(':memory:');
  let tokens: { merchant: string; partner: string };
  // The bearer groups' writes; the console's own (sign-in, a credential's roll) are held to their closed bodies by
  // test/server/console-*.test.ts, behind its session and origin checks.
  const writes = distinctOperations.filter((o) => o.bodyPointer && ['post', 'patch', 'put'].includes(o.method) && o.caller !== 'console');

  beforeAll(async () => {
    const m = await service.services.credentials.createMerchant('Acme');
    const p = await service.services.credentials.createPartner('Partner');
    tokens = {
      merchant: await service.token({ kind: 'merchant', merchantId: m.merchantId }),
      partner: await service.token({ kind: 'partner', partnerId: p.partnerId }),
    };
  });

  const sendBody = (o: ServedOperation, raw: string) =>
    service.send(o.method.toUpperCase(), fill(o.url), {
      raw,
      ...(o.caller === 'none' || o.caller === 'console' ? {} : { token: tokens[o.caller] }),
    });

  it('covers every create and update operation of every group', () => {
    expect(new Set(writes.map((o) => o.group))).toEqual(new Set(['merchant', 'platform', 'partner', 'banking', 'counterparty']));
    expect(writes.length).toBeGreaterThanOrEqual(29);
  });

  it.each(writes.map((o) => [`${o.group} ${o.operationId}`, o] as const))('%s', async (_, o) => {
    const declared = declaredProperties(o.group, o.bodySchema);
    const body = validExample(o);
    const extras = hopeful.filter((name) => !declared.has(name));
    expect(extras.length).toBeGreaterThan(5);
    for (const name of extras) {
      // Built as text: `{...body, __proto__: x}` in JavaScript would set the prototype, not a property.
      const raw = `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length ? ',' : ''}${JSON.stringify(name)}:${JSON.stringify(name.toLowerCase().includes('id') ? 2 : 'completed')}}`;
      const r = await sendBody(o, raw);
      expect(r.status, `${name}: ${r.text}`).toBe(400);
      expect(r.body.errors, name).toContainEqual(expect.objectContaining({ pointer: `#/${name}` }));
    }
    for (const at of nestedObjects(body)) {
      const copy = structuredClone(body);
      const parent = at
        .split('/')
        .slice(1)
        .reduce<any>((node, key) => node[key], copy);
      parent.status = 'verified';
      const r = await sendBody(o, JSON.stringify(copy));
      expect(r.status, `${at}/status: ${r.text}`).toBe(400);
      expect(r.body.errors, `${at}/status`).toContainEqual(expect.objectContaining({ pointer: `#${at}/status` }));
    }
  });
});

// The reference's code samples run as shown. Every operation of every group carries a curl and a TypeScript
// sample (scripts/docs/code-samples.ts, in the documents the reference pages show). Each is run as published,
// twice in a row, against a fresh service: curl in bash, the TypeScript as a module importing the client, with
// only the variables the sample names set, as a reader would set them: BASE_URL, the credentials, and each id to
// what an earlier answer gave (learned by laying each documented success answer over the real one). Each must
// answer a documented success status. Every TypeScript sample also compiles, strict, against the client's types.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { groups, type Group } from '../../generated/index.js';
import {
  clientIdVariable,
  clientSecretVariable,
  codeSamples,
  cookieJarVariable,
  csrfVariable,
  originVariable,
  sampleRequest,
  successStatus,
  tokenVariable,
  type CodeSample,
  type SampleRequest,
} from '../../scripts/docs/code-samples.js';
import { deref, operationsOf, type Node, type PlacedOperation } from '../../scripts/contract/document.js';
import { loadConfig } from '../../server/platform/config.js';
import { localOrigin, repoRoot } from '../../scripts/docs/contract.js';
import { referenceDocument } from '../../scripts/docs/reference.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { loopbackResolver } from '../support/tenant.js';
import { readerDiagnostics } from '../support/reader-compile.js';

const run = promisify(execFile);
const curlPath = '/usr/bin/curl';
const haveCurl = existsSync(curlPath);
if (!haveCurl) console.warn(`test/docs/code-samples.test.ts runs no curl sample: ${curlPath} does not exist (apt-get install curl).`);

const documents = Object.fromEntries(await Promise.all(groups.map(async (g) => [g, await referenceDocument(g)] as const))) as Record<
  Group,
  Node
>;

interface Sampled {
  group: Group;
  operationId: string;
  method: string;
  op: Node;
  placed: PlacedOperation;
  curl: string;
  typeScript: string;
}
const sampled: Sampled[] = groups.flatMap((group) =>
  operationsOf(documents[group]).map((placed) => {
    const { method, op } = placed;
    const samples = (op['x-codeSamples'] ?? []) as CodeSample[];
    return {
      group,
      operationId: String(op.operationId),
      method,
      op,
      placed,
      curl: samples.find((s) => s.label === 'curl')?.source ?? '',
      typeScript: samples.find((s) => s.lang === 'TypeScript')?.source ?? '',
    };
  }),
);

const typeScriptSampled = sampled.filter((s) => s.group !== 'console');

/**
 * A step of the run: an operation's sample (`group:operationId`); the same sample with another of its documented
 * request examples, learning from the documented answer of that name (a second account, a wire counterparty);
 * or the sandbox's clock moved on for the payment (or payout) the documented id now names, until it is in that state.
 */
type Step =
  | string
  | { run: string; request: string; answer: string }
  | { advance: 'payment' | 'payout'; until: 'processing' | 'completed' };

/**
 * A workable order: each sample after those whose answers give the ids it needs, what ends or removes a
 * resource after what still needs it. A payment is created twice in each of groups C and E: one is cancelled
 * while it waits, the other completes so it can be returned. Every operation of the contract is here (checked).
 */
const order: Step[] = [
  ...['issueToken', 'createPayee', 'listPayees', 'getPayee', 'updatePayee', 'createPayeeAccount', 'listPayeeAccounts'].map(
    (o) => `merchant:${o}`,
  ),
  ...['getPayeeAccount', 'updatePayeeAccount', 'createPayout', 'getPayout', 'listPayouts', 'cancelPayout'].map((o) => `merchant:${o}`),
  // A held payout is released; once processing it is failed. Another completes so it can be returned.
  { run: 'merchant:createPayout', request: 'held', answer: 'held' },
  'merchant:simulatePayoutRelease',
  { advance: 'payout', until: 'processing' },
  'merchant:simulatePayoutFailure',
  'merchant:createPayout',
  { advance: 'payout', until: 'completed' },
  'merchant:simulatePayoutReturn',
  'merchant:createWebhook',
  // A redelivery needs a delivery (the test's) and an enabled registration (before the update's sample disables it).
  ...['listWebhooks', 'getWebhook', 'testWebhook', 'redeliverWebhookDelivery', 'updateWebhook', 'rotateWebhookSecret'].map(
    (o) => `merchant:${o}`,
  ),
  'merchant:listWebhookDeliveries',
  ...['listEvents', 'getEvent'].map((o) => `merchant:${o}`),
  // Group B pays the payee group A gave an account, before A disables it; its own payee comes after.
  ...['issueToken', 'calculateFees', 'createPayout', 'getPayout', 'listPayouts', 'listEvents', 'getEvent'].map((o) => `platform:${o}`),
  { run: 'platform:createPayout', request: 'held', answer: 'held' },
  'platform:simulatePayoutRelease',
  { advance: 'payout', until: 'processing' },
  'platform:simulatePayoutFailure',
  'platform:createPayout',
  { advance: 'payout', until: 'completed' },
  'platform:simulatePayoutReturn',
  ...['disablePayeeAccount', 'deleteWebhook'].map((o) => `merchant:${o}`),
  ...['createPayee', 'getPayee', 'listPayees'].map((o) => `platform:${o}`),
  ...['generatePartnerToken', 'listPartnerMerchants', 'createAchRecipient', 'createWireRecipient', 'listRecipients'].map(
    (o) => `partner:${o}`,
  ),
  ...['updateRecipient', 'createPaymentRequest', 'getPayment', 'cancelPayment', 'createPaymentRequest'].map((o) => `partner:${o}`),
  { advance: 'payment', until: 'completed' },
  ...['simulatePaymentNotificationOfChange', 'simulatePaymentReturn', 'searchPartnerTransactions'].map((o) => `partner:${o}`),
  // The partner's webhooks (one operation set in C and E, so one partner's registrations): made twice, so that the
  // second (the delete's example) goes at the end of group C and the first (the other samples') stays for group E.
  // A redelivery needs a delivery (the test's) and an enabled registration.
  ...['createPartnerWebhook', 'createPartnerWebhook', 'listPartnerWebhooks', 'getPartnerWebhook', 'testPartnerWebhook'].map(
    (o) => `partner:${o}`,
  ),
  ...['redeliverPartnerWebhookDelivery', 'updatePartnerWebhook', 'rotatePartnerWebhookSecret', 'listPartnerWebhookDeliveries'].map(
    (o) => `partner:${o}`,
  ),
  ...['listPartnerEvents', 'getPartnerEvent', 'deletePartnerWebhook'].map((o) => `partner:${o}`),
  ...['generateCounterpartyToken', 'createCounterparty', 'listCounterparties', 'getCounterparty', 'updateCounterparty'].map(
    (o) => `counterparty:${o}`,
  ),
  ...['createPaymentRequest', 'getPayment', 'cancelPayment', 'createPaymentRequest'].map((o) => `counterparty:${o}`),
  { advance: 'payment', until: 'completed' },
  ...['simulatePaymentNotificationOfChange', 'simulatePaymentReturn', 'searchTransactions'].map((o) => `counterparty:${o}`),
  ...['createPartnerWebhook', 'listPartnerWebhooks', 'getPartnerWebhook', 'testPartnerWebhook', 'redeliverPartnerWebhookDelivery'].map(
    (o) => `counterparty:${o}`,
  ),
  ...['updatePartnerWebhook', 'rotatePartnerWebhookSecret', 'listPartnerWebhookDeliveries', 'listPartnerEvents', 'getPartnerEvent'].map(
    (o) => `counterparty:${o}`,
  ),
  'counterparty:deletePartnerWebhook',
  ...['issueToken', 'createBusiness', 'listBusinesses', 'getBusiness', 'createIdentityVerification'].map((o) => `banking:${o}`),
  { run: 'banking:createIdentityVerification', request: 'foreignOwner', answer: 'personNeedsReview' },
  // The reserve account is funded from the operating account by its full number, which getAccountNumbers shows.
  ...['getIdentityVerification', 'simulateVerificationDecision', 'createAccount', 'getAccountNumbers'].map((o) => `banking:${o}`),
  { run: 'banking:createAccount', request: 'reserve', answer: 'reserve' },
  ...['listBusinessAccounts', 'getAccount', 'createBankingCounterparty'].map((o) => `banking:${o}`),
  { run: 'banking:createBankingCounterparty', request: 'domesticWire', answer: 'domesticWire' },
  { run: 'banking:createBankingCounterparty', request: 'internationalWire', answer: 'internationalWire' },
  ...['getBankingCounterparty', 'listBankingCounterparties', 'simulateInboundTransfer', 'getAccountBalance'].map((o) => `banking:${o}`),
  ...['createAchPush', 'getTransfer', 'simulateTransferSettlement', 'simulateNotificationOfChange'].map((o) => `banking:${o}`),
  ...['simulateTransferReturn', 'createAchPull', 'createDomesticWire', 'createInternationalWire', 'createInternalTransfer'].map(
    (o) => `banking:${o}`,
  ),
  ...['listAccountTransfers', 'listAccountLedgerEntries'].map((o) => `banking:${o}`),
  // The console, last: signed in, it makes a credential, rolls and revokes it, and signs out.
  ...['signInToConsole', 'getConsoleSession', 'createConsoleAccessToken', 'listConsoleCredentials', 'createConsoleCredential'].map(
    (o) => `console:${o}`,
  ),
  ...['rollConsoleCredential', 'revokeConsoleCredential', 'listRequestLogs', 'signOutOfConsole'].map((o) => `console:${o}`),
];

const successStatuses = (op: Node) =>
  Object.keys(op.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number);

/** The documented examples of an operation's answer with this status: the named one, else all, the first last. */
function documentedAnswers(doc: Node, op: Node, status: number, name?: string): unknown[] {
  const json = deref(doc, op.responses?.[String(status)])?.content?.['application/json'];
  if (!json) return [];
  if ('example' in json) return [json.example];
  const named = name ? [json.examples?.[name]] : Object.values<Node>(json.examples ?? {}).reverse();
  return named.filter((e) => e !== undefined).map((e) => deref(doc, e).value);
}

const identifying = /(^id$|Id$|_id$|Reference$|^client_?[Ss]ecret$|^accountNumber$)/;
const distinctive = (v: unknown) => (typeof v === 'number' ? v >= 100 : typeof v === 'string' && v.length >= 6);

/**
 * Documented value → the value this service gave, from a documented answer laid over the real one. What a
 * write answers names what it made; a read's answer (whose example may show another resource) and a list's items
 * (laid over in order, but perhaps ordered otherwise) only add values not known yet.
 */
function learn(documented: unknown, actual: unknown, into: Map<string, string>, overwrite: boolean, key = ''): void {
  if (Array.isArray(documented) && Array.isArray(actual)) {
    for (const [i, d] of documented.entries()) learn(d, actual[i], into, false, key);
  } else if (documented && actual && typeof documented === 'object' && typeof actual === 'object') {
    for (const [k, d] of Object.entries(documented)) learn(d, (actual as Node)[k], into, overwrite, k);
  } else if (identifying.test(key) && distinctive(documented) && (typeof actual === 'string' || typeof actual === 'number')) {
    if (String(documented) !== String(actual) && (overwrite || !into.has(String(documented)))) into.set(String(documented), String(actual));
  }
}

describe.skipIf(!haveCurl).each(stores)('the samples on %s', (store) => {
  let dropStore: () => Promise<void>;
  let service: RunningService;
  let work: string;
  /** Documented value → the value this service gave (credentials, ids). */
  const values = new Map<string, string>();
  const credentials: Partial<Record<'merchant' | 'partner', { clientId: string; clientSecret: string }>> = {};
  const tokens: Partial<Record<'merchant' | 'partner', string>> = {};
  /** The console's session: its CSRF token, from the sign-in's answer (the cookie is in curl's jar). */
  let csrfToken = '';
  const callerOf = (g: Group) => (g === 'partner' || g === 'counterparty' ? 'partner' : 'merchant');

  beforeAll(async () => {
    const fresh = await store.fresh();
    dropStore = fresh.drop;
    // Nothing moves on its own (payouts wait to be cancelled, transfers to be settled); the test moves the clock.
    service = await startService(fresh.url, { sandboxStepMs: 3_600_000 }, { resolve: loopbackResolver });
    // Inside the repository, where the TypeScript samples' import of the client resolves (vitest.config.ts).
    await mkdir(join(repoRoot, 'test-results'), { recursive: true });
    work = await mkdtemp(join(repoRoot, 'test-results/code-samples-'));
    const merchant = await service.services.credentials.createMerchant('Acme Marketplace');
    const partner = await service.services.credentials.createPartner('Partner');
    await service.services.credentials.link(partner.partnerId, merchant.merchantId);
    credentials.merchant = { clientId: merchant.clientId, clientSecret: merchant.clientSecret };
    credentials.partner = { clientId: partner.clientId, clientSecret: partner.clientSecret };
    // The merchant and partner ids the partner's docs show are ours.
    const param = (g: Group, path: string, name: string) =>
      deref(
        documents[g],
        deref(documents[g], documents[g].paths[path]).get.parameters.find((p: Node) => deref(documents[g], p).name === name),
      ).example;
    values.set(String(param('partner', '/finance/v1/partner/list', 'partnerId')), String(partner.partnerId));
    values.set(String(param('counterparty', '/finance/v1/payee', 'MerchantId')), String(merchant.merchantId));
    // The documented merchant credentials name ours (the request log's Client ID filter shows them).
    const tokenBody = deref(documents.merchant, documents.merchant.paths['/oauth/token'].post.requestBody).content['application/json'];
    values.set(Object.values<Node>(tokenBody.examples)[0]!.value.client_id, merchant.clientId);
    // The console's documented user signs in as a user of our merchant.
    const signIn = Object.values<Node>(
      deref(documents.console, documents.console.paths['/console/api/sessions'].post.requestBody).content['application/json'].examples,
    )[0]!.value;
    await service.services.consoleUsers.create({ kind: 'merchant', id: merchant.merchantId }, signIn.email, signIn.password);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await dropStore?.();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('orders every operation of the contract', () => {
    const ordered = new Set(order.flatMap((step) => (typeof step === 'string' ? [step] : 'run' in step ? [step.run] : [])));
    expect([...ordered].sort()).toEqual(sampled.map((s) => `${s.group}:${s.operationId}`).sort());
  });

  it('run against a local server by default, with no documented id, secret or key written in', () => {
    expect(localOrigin).toBe(`http://localhost:${loadConfig({}).port}`);
    // The guide's paragraph on the samples names the same variables and default.
    const guide = readFileSync(join(repoRoot, 'docs/guides/index.md'), 'utf8');
    expect(guide).toContain(`\`${originVariable}\` defaults to \`${localOrigin}\``);
    for (const name of [tokenVariable, clientIdVariable, clientSecretVariable]) expect(guide).toContain(`\`${name}\``);
    for (const s of sampled) {
      const r = sampleRequest(s.group, documents[s.group], s.placed);
      const code = (text: string) =>
        text
          .split('\n')
          .filter((l) => !/^\s*(#|\/\/)/.test(l))
          .join('\n');
      for (const text of [s.curl, s.typeScript].filter(Boolean)) {
        expect(code(text), `${s.group} ${s.operationId}`).not.toContain(r.documentedOrigin);
        for (const v of r.variables.filter((x) => distinctive(x.documented)))
          expect(code(text), `${s.group} ${s.operationId} ${v.name}`).not.toMatch(
            new RegExp(`(?<![\\w-])${String(v.documented)}(?![\\w-])`),
          );
      }
      expect(s.curl, `${s.group} ${s.operationId}`).toContain(`${originVariable}=\${${originVariable}:-${localOrigin}}`);
      const legend = s.curl.split('\n').filter((l) => l.startsWith('# '));
      for (const v of r.variables)
        expect(
          legend.some((l) => new RegExp(`\\b${v.name}\\b.*:`).test(l)),
          `${s.group} ${s.operationId} says what ${v.name} is`,
        ).toBe(true);
    }
  });

  /** What the reader has set when they run a sample: the origin, their credentials, and each id it names. */
  function environment(s: Sampled, r: SampleRequest): Record<string, string> {
    const own = credentials[callerOf(s.group)]!;
    const env: Record<string, string> = {
      [originVariable]: service.baseUrl,
      [clientIdVariable]: own.clientId,
      [clientSecretVariable]: own.clientSecret,
    };
    for (const v of r.variables) {
      if (v.name === clientIdVariable || v.name === clientSecretVariable) continue;
      // A value the service keeps unique is the reader's own: a new one of the documented shape each run.
      env[v.name] = v.unique
        ? String(v.documented).replace(/\d/g, () => String(Math.floor(Math.random() * 10)))
        : (values.get(String(v.documented)) ?? String(v.documented));
    }
    return env;
  }

  /** A sample's request and its source in that language, with its first request example or the named one. */
  function sampleOf(s: Sampled, lang: 'curl' | 'TypeScript', exampleName?: string): { r: SampleRequest; source: string } {
    const doc = documents[s.group];
    const r = sampleRequest(s.group, doc, s.placed, exampleName);
    const source = exampleName
      ? codeSamples(s.group, doc, s.placed, exampleName).find((x) => x.label === lang)!.source
      : lang === 'curl'
        ? s.curl
        : s.typeScript;
    return { r, source };
  }

  async function runCurl(s: Sampled, r: SampleRequest, source: string): Promise<{ ok: boolean; status: number; body: unknown }> {
    const answer = join(work, `${s.group}-${s.operationId}.json`);
    await rm(answer, { force: true });
    // The sample runs as published; this `curl` only adds where the answer goes and prints the status.
    const script = `curl() { command curl --silent --show-error --max-time 30 --output "$ANSWER" --write-out '%{http_code}' "$@"; }\n${source}`;
    const { stdout } = await run('bash', ['-c', script], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ANSWER: answer,
        ...environment(s, r),
        [tokenVariable]: tokens[callerOf(s.group)] ?? '',
        [cookieJarVariable]: join(work, 'console-cookies.txt'),
        [csrfVariable]: csrfToken,
      },
    });
    const text = await readFile(answer, 'utf8').catch(() => '');
    const status = Number(stdout.trim());
    return { ok: successStatuses(s.op).includes(status), status, body: text ? JSON.parse(text) : undefined };
  }

  let modules = 0;
  /** The TypeScript sample as a module of its own, importing the client, with its variables in the environment. */
  async function runTypeScript(s: Sampled, r: SampleRequest, source: string): Promise<{ ok: boolean; status: number; body: unknown }> {
    modules += 1;
    const file = join(work, `${modules}-${s.group}-${s.operationId}.ts`);
    await writeFile(file, source);
    const env = environment(s, r);
    const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(file);
      const body = printed.mock.calls.at(-1)?.[0];
      return { ok: true, status: successStatus(s.op), body };
    } catch (error) {
      const status = (error as { status?: number }).status ?? 0;
      return { ok: false, status, body: String(error) };
    } finally {
      printed.mockRestore();
      for (const [k, v] of Object.entries(before))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  }

  /** Moves the sandbox's clock on for the payment or payout the documented id now names until it is in that state. */
  async function advance(what: 'payment' | 'payout', until: 'processing' | 'completed'): Promise<void> {
    const db = service.services.store.db;
    const documented = (g: Group, path: string) => {
      const parameter = deref(documents[g], deref(documents[g], documents[g].paths[path]).parameters[0]);
      return String(parameter.example ?? deref(documents[g], parameter.schema).example);
    };
    // A step due at once is taken on the engine's next turn. A released payout is already due: bumping it again
    // on the way to `processing` could carry it past, so that wait only watches.
    const bump = until === 'completed';
    // Where each kind is kept, and the documented path whose id now names the one to move.
    const kinds = {
      payment: { table: 'payments', key: 'payment_id', group: 'partner', path: '/finance/v1/payment_request/{paymentId}' },
      payout: { table: 'payouts', key: 'reference', group: 'merchant', path: '/v1/payouts/{PayoutUniqueReference}' },
    } as const;
    const { table, key, group, path } = kinds[what];
    const learned = values.get(documented(group, path))!;
    const id = what === 'payment' ? Number(learned) : learned;
    const step = async () => {
      if (bump)
        await db
          .updateTable(table)
          .set({ next_step_at: Date.now() })
          .where(key, '=', id as never)
          .where('next_step_at', 'is not', null)
          .execute();
      return (
        await db
          .selectFrom(table)
          .select('status')
          .where(key, '=', id as never)
          .executeTakeFirstOrThrow()
      ).status;
    };
    await expect.poll(step, { timeout: 15_000, interval: 50 }).toBe(until);
  }

  /** Every sample of one language in order, each answering a documented success; the console's are curl only. */
  async function runAll(lang: 'curl' | 'TypeScript'): Promise<void> {
    const failures: string[] = [];
    for (const step of order) {
      if (typeof step !== 'string' && 'advance' in step) {
        // What failed so far explains a state never reached (a release refused leaves the payout held).
        expect(failures, `before the ${step.advance} is ${step.until}`).toEqual([]);
        await advance(step.advance, step.until);
        continue;
      }
      const name = typeof step === 'string' ? step : step.run;
      const s = sampled.find((x) => `${x.group}:${x.operationId}` === name)!;
      if (lang === 'TypeScript' && s.group === 'console') continue;
      const { r, source } = sampleOf(s, lang, typeof step === 'string' ? undefined : step.request);
      expect(source, `${name} has a ${lang} sample`).not.toBe('');
      const { ok, status, body } = lang === 'curl' ? await runCurl(s, r, source) : await runTypeScript(s, r, source);
      if (!ok) {
        failures.push(`${name}: ${status} ${JSON.stringify(body)}\n${source}`);
        continue;
      }
      if (s.group === 'console' && s.operationId === 'signInToConsole') {
        csrfToken = String((body as Node).csrfToken);
      } else if (s.op.security && s.op.security.length === 0) {
        if (lang === 'curl') tokens[callerOf(s.group)] = String((body as Node).access_token);
      } else if (body !== undefined) {
        const doc = documents[s.group];
        // Each example of a write's answer shows the resource it made (the first, laid last, wins where they differ).
        // A read of one resource whose documented answer is the resource its path names tells what it is now too.
        const pathValues = r.parameters.filter((p) => p.in === 'path').map((p) => p.documented);
        for (const documented of documentedAnswers(doc, s.op, status, typeof step === 'string' ? undefined : step.answer)) {
          const same = pathValues.length > 0 && pathValues.every((v) => JSON.stringify(documented).includes(JSON.stringify(v)));
          learn(documented, body, values, s.method !== 'get' || same);
        }
      }
    }
    expect(failures).toEqual([]);
  }

  // Twice each: a rerun makes new resources with new keys, never replays or collides with the first.
  it.each(['curl', 'TypeScript', 'curl', 'TypeScript'] as const)(
    'runs every %s sample in order as published',
    async (lang) => {
      await runAll(lang);
    },
    300_000,
  );
});

describe('the TypeScript samples', () => {
  it('give every operation one, each compiling strict against the client package', async () => {
    const dir = join(repoRoot, 'test-results/code-samples-ts');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const files: string[] = [];
    try {
      // The console's operations are its page's, not the client package's: they have a curl sample alone.
      for (const s of typeScriptSampled) {
        expect(s.typeScript, `${s.group} ${s.operationId} has a TypeScript sample`).toContain("from '@payout-service/client'");
        const file = join(dir, `${s.group}-${s.operationId}.ts`);
        await writeFile(file, s.typeScript);
        files.push(file);
      }
      const errors = readerDiagnostics(files, dir, { dom: true });
      expect(errors).toEqual([]);
      expect(files.length).toBe(typeScriptSampled.length);
      expect(sampled.filter((s) => s.group === 'console').every((s) => s.typeScript === '')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the open enumerations of the reference documents', () => {
  /** Every object node of a document, with where it is. */
  const nodes = (n: unknown, at = '#'): [string, Node][] =>
    !n || typeof n !== 'object'
      ? []
      : [
          ...(Array.isArray(n) ? [] : [[at, n as Node] as [string, Node]]),
          ...Object.entries(n).flatMap(([k, v]) => nodes(v, `${at}/${k}`)),
        ];
  const openMember = (doc: Node, m: Node) => deref(doc, m)?.['x-open-enum-value'] === true;

  it.each(groups)('shows each open enumeration of %s as its values, marked extensible, where the contract has it open', async (group) => {
    const source = JSON.parse(await readFile(join(repoRoot, `generated/${group}/openapi.json`), 'utf8')) as Node;
    const open = nodes(source).filter(([, n]) => Array.isArray(n.anyOf) && n.anyOf.some((m: Node) => openMember(source, m)));
    expect(open.length, 'the contract has open enumerations').toBeGreaterThan(0);
    const shown = new Map(nodes(documents[group]));
    for (const [at, n] of open) {
      const closed = shown.get(at)!;
      const known = (n.anyOf as Node[]).map((m) => deref(source, m)).find((m) => Array.isArray(m.enum))!;
      expect(closed.anyOf, at).toBeUndefined();
      const values = known.enum.filter((v: unknown) => v !== null);
      expect(
        closed['x-extensible-enum'].filter((v: unknown) => v !== null),
        at,
      ).toEqual(values);
      expect(
        closed.enum.filter((v: unknown) => v !== null),
        at,
      ).toEqual(values);
      expect(closed.description, at).toMatch(/The enumeration is open/);
    }
    expect(
      nodes(documents[group]).filter(([, n]) => Array.isArray(n.anyOf) && n.anyOf.some((m: Node) => openMember(documents[group], m))),
    ).toEqual([]);
  });
});

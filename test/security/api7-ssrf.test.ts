// OWASP API7:2023 Server Side Request Forgery: webhook targets are the one place a caller makes the service
// send a request. On a service that does not allow private targets (the production setting): every
// loopback, private, link-local, cloud-metadata, CGNAT, multicast and reserved address is refused at
// registration (422 naming `url`, nothing stored), in every spelling (decimal, hex, octal, short, trailing
// dot, IPv6) and behind any name resolving to one (names are resolved by an injected resolver, so nothing
// is looked up outside). Every IPv6 form that carries an IPv4 address (mapped, translated, compatible, NAT64,
// local-use NAT64, 6to4, Teredo server and client, ISATAP) is refused when what it carries is private, in
// compressed, expanded, dotted-quad and upper-case spellings, and accepted when it is public (a table, at
// registration and at the guard). At delivery the target is checked again: a name
// that now resolves privately (DNS rebinding) and stored registrations that point inside are refused and
// never contacted. Redirects are never followed.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget, isPrivateAddress, type Resolver } from '../../server/domain/webhooks/address-guard.js';
import { embeddedIPv4, type EmbeddingForm } from '../../server/domain/webhooks/embedded-ipv4.js';
import { bankAccount, individual } from '../support/merchants.js';
import { startService, type RunningService } from '../support/service.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { problemType, send } from '../support/requests.js';
import { useService } from '../support/use-service.js';

const publicAddress = '93.184.216.34';

/** What each name resolves to, as an attacker's DNS would answer. */
const zone: Record<string, { address: string; family: number }[]> = {
  'hooks.public.example': [{ address: publicAddress, family: 4 }],
  localhost: [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ],
  'internal.example': [{ address: '10.0.0.5', family: 4 }],
  'metadata.google.internal': [{ address: '169.254.169.254', family: 4 }],
  'instance-data.example': [{ address: 'fd00:ec2::254', family: 6 }],
  '127.0.0.1.nip.example': [{ address: '127.0.0.1', family: 4 }],
  'v6-loopback.example': [{ address: '::1', family: 6 }],
  'v6-mapped.example': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'mixed.example': [
    { address: publicAddress, family: 4 },
    { address: '192.168.1.20', family: 4 },
  ],
  'cgnat.example': [{ address: '100.100.100.200', family: 4 }],
};
const zoneResolver: Resolver = async (host) => {
  const answer = zone[host.toLowerCase()];
  if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

const refusedTargets = [
  // Loopback, in every spelling the URL parser accepts.
  'https://127.0.0.1/hook',
  'https://127.0.0.2:8443/hook',
  'https://2130706433/hook',
  'https://0x7f000001/hook',
  'https://0x7f.0.0.1/hook',
  'https://0177.0.0.1/hook',
  'https://017700000001/hook',
  'https://127.1/hook',
  'https://127.0.0.1./hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:7f00:1]/hook',
  'https://[0:0:0:0:0:ffff:7f00:1]/hook',
  'https://[::127.0.0.1]/hook',
  // Private, CGNAT, unspecified, multicast, broadcast and documentation ranges.
  'https://10.0.0.1/hook',
  'https://172.16.5.4/hook',
  'https://172.31.255.255/hook',
  'https://192.168.0.10/hook',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://0/hook',
  'https://224.0.0.1/hook',
  'https://255.255.255.255/hook',
  'https://192.0.2.10/hook',
  'https://[::]/hook',
  'https://[fc00::1]/hook',
  'https://[fd12:3456::1]/hook',
  'https://[ff02::1]/hook',
  // Link-local and the cloud metadata services that live there.
  'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'https://169.254.170.2/v2/credentials',
  'https://2852039166/latest/meta-data/',
  'https://0xa9fea9fe/latest/meta-data/',
  'https://[fe80::1]/hook',
  'https://[fd00:ec2::254]/latest/meta-data/',
  'https://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  'https://[2002:a9fe:a9fe::]/latest/meta-data/',
  // Names that resolve inside, including one with a public and a private answer.
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://internal.example/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://instance-data.example/latest/meta-data/',
  'https://127.0.0.1.nip.example/hook',
  'https://v6-loopback.example/hook',
  'https://v6-mapped.example/hook',
  'https://mixed.example/hook',
  'https://cgnat.example/hook',
  // Userinfo tricks: the host is what follows the @.
  'https://hooks.public.example@127.0.0.1/hook',
  'https://127.0.0.1#@hooks.public.example/hook',
];

// Refused as not a URI at all (400) or as a target (422), naming url either way: a zone id (RFC 6874's `%25`) is
// not part of RFC 3986's URI syntax, which the contract's `format: uri` holds in full.
const badSchemes = [
  'https://[fe80::a9fe:a9fe%25eth0]/hook',
  'http://hooks.public.example/hook',
  'ftp://hooks.public.example/hook',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'javascript:alert(1)',
  'https://user:pass@hooks.public.example/hook',
  'https://unresolvable.example/hook',
];

describe('registration refuses every target inside (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  // No workers: nothing registered here is ever delivered to, not even the public control.
  const service = useService(':memory:', { webhookAllowPrivate: false }, { resolve: zoneResolver, workers: false });
  let token: string;
  beforeAll(async () => {
    const m = await service.services.credentials.createMerchant('Acme');
    token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
  });

  it('accepts the control: an https target whose name resolves to a public address', async () => {
    const r = await service.send('POST', '/v1/webhooks', { token, body: { url: 'https://hooks.public.example/hook' } });
    expect(r.status, r.text).toBe(201);
    expect((await service.send('DELETE', '/v1/webhooks', { token, query: { id: r.body.id } })).status).toBe(204);
  });

  it.each(refusedTargets)('refuses %s (422 naming url)', async (url) => {
    const r = await service.send('POST', '/v1/webhooks', { token, body: { url } });
    expect(r.status, r.text).toBe(422);
    expect(r.body.type).toBe(problemType('business-rule'));
    expect(r.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
  });

  it.each(badSchemes)('refuses %s (4xx naming url)', async (url) => {
    const r = await service.send('POST', '/v1/webhooks', { token, body: { url } });
    expect([400, 422], r.text).toContain(r.status);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
  });

  it('stored none of them', async () => {
    expect((await service.send('GET', '/v1/webhooks', { token })).body).toEqual([]);
  });

  describe('and updateWebhook refuses the same targets, changing nothing', () => {
    let id: string;
    beforeAll(async () => {
      id = (await service.send('POST', '/v1/webhooks', { token, body: { url: 'https://hooks.public.example/hook' } })).body.id;
    });
    afterAll(() => service.send('DELETE', '/v1/webhooks', { token, query: { id } }));

    it.each([...refusedTargets, ...badSchemes])('refuses %s (4xx naming url)', async (url) => {
      const r = await service.send('PATCH', `/v1/webhooks/${id}`, { token, body: { url } });
      expect([400, 422], r.text).toContain(r.status);
      expect(r.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
      expect((await service.send('GET', `/v1/webhooks/${id}`, { token })).body.url).toBe('https://hooks.public.example/hook');
    });
  });
});

/**
 * IPv6 forms that carry an IPv4 address: the host of each URL, what the guard must find in it, and whether
 * it is refused. 93.184.216.34 (5db8:d822) is the public control; 65.54.227.120 (4136:e378) a Teredo server.
 * A Teredo client is stored inverted: 127.0.0.1 as 80ff:fffe, 169.254.169.254 as 5601:5601, 93.184.216.34 as
 * a247:27dd.
 */
const teredo = (server: string, client: string): [EmbeddingForm, string][] => [
  ['teredo-server', server],
  ['teredo-client', client],
];
const embeddingForms: { host: string; carries: [EmbeddingForm, string][]; refused: boolean }[] = [
  // IPv4-mapped ::ffff:0:0/96: judged by the IPv4 address.
  { host: '::ffff:127.0.0.1', carries: [['mapped', '127.0.0.1']], refused: true },
  { host: '::ffff:7f00:1', carries: [['mapped', '127.0.0.1']], refused: true },
  { host: '0:0:0:0:0:ffff:7f00:1', carries: [['mapped', '127.0.0.1']], refused: true },
  { host: '::FFFF:A9FE:A9FE', carries: [['mapped', '169.254.169.254']], refused: true },
  { host: '::ffff:93.184.216.34', carries: [['mapped', '93.184.216.34']], refused: false },
  { host: '::ffff:5db8:d822', carries: [['mapped', '93.184.216.34']], refused: false },
  // IPv4-translated ::ffff:0:0:0/96 (the form issue 10 found accepted): never public, refused whole.
  { host: '::ffff:0:7f00:1', carries: [['translated', '127.0.0.1']], refused: true },
  { host: '::ffff:0:127.0.0.1', carries: [['translated', '127.0.0.1']], refused: true },
  { host: '0:0:0:0:ffff:0:a00:1', carries: [['translated', '10.0.0.1']], refused: true },
  { host: '::ffff:0:5db8:d822', carries: [['translated', '93.184.216.34']], refused: true },
  // IPv4-compatible ::/96 (deprecated): refused whole.
  { host: '::127.0.0.1', carries: [['compatible', '127.0.0.1']], refused: true },
  { host: '::7f00:1', carries: [['compatible', '127.0.0.1']], refused: true },
  { host: '::5db8:d822', carries: [['compatible', '93.184.216.34']], refused: true },
  // NAT64 64:ff9b::/96: judged by the IPv4 address (DNS64 answers this for every IPv4-only host).
  { host: '64:ff9b::7f00:1', carries: [['nat64', '127.0.0.1']], refused: true },
  { host: '64:ff9b::127.0.0.1', carries: [['nat64', '127.0.0.1']], refused: true },
  { host: '64:ff9b:0:0:0:0:c0a8:101', carries: [['nat64', '192.168.1.1']], refused: true },
  { host: '64:FF9B::A9FE:A9FE', carries: [['nat64', '169.254.169.254']], refused: true },
  { host: '64:ff9b::93.184.216.34', carries: [['nat64', '93.184.216.34']], refused: false },
  { host: '64:ff9b::5db8:d822', carries: [['nat64', '93.184.216.34']], refused: false },
  // Local-use NAT64 64:ff9b:1::/48 (RFC 8215): not globally reachable, refused whole.
  { host: '64:ff9b:1::7f00:1', carries: [['nat64-local', '127.0.0.1']], refused: true },
  { host: '64:ff9b:1::10.0.0.1', carries: [['nat64-local', '10.0.0.1']], refused: true },
  { host: '64:ff9b:1:abcd::5db8:d822', carries: [['nat64-local', '93.184.216.34']], refused: true },
  // 6to4 2002::/16: the IPv4 address in bits 16-47.
  { host: '2002:7f00:1::', carries: [['6to4', '127.0.0.1']], refused: true },
  { host: '2002:7f00:0001:0:0:0:0:1', carries: [['6to4', '127.0.0.1']], refused: true },
  { host: '2002:a9fe:a9fe::1', carries: [['6to4', '169.254.169.254']], refused: true },
  { host: '2002:c0a8:101:1::1', carries: [['6to4', '192.168.1.1']], refused: true },
  { host: '2002:5db8:d822::1', carries: [['6to4', '93.184.216.34']], refused: false },
  // Teredo 2001::/32: the server in bits 32-63, the client inverted in the last 32 bits; both judged.
  { host: '2001:0:4136:e378:8000:63bf:80ff:fffe', carries: teredo('65.54.227.120', '127.0.0.1'), refused: true },
  { host: '2001::4136:e378:8000:63bf:5601:5601', carries: teredo('65.54.227.120', '169.254.169.254'), refused: true },
  { host: '2001:0:a00:1:8000:63bf:a247:27dd', carries: teredo('10.0.0.1', '93.184.216.34'), refused: true },
  { host: '2001:0:4136:e378:8000:63bf:a247:27dd', carries: teredo('65.54.227.120', '93.184.216.34'), refused: false },
  // ISATAP interface ids (0:5efe, 200:5efe) under any prefix: the IPv4 address in the last 32 bits.
  { host: '2a00:1450:4001::5efe:7f00:1', carries: [['isatap', '127.0.0.1']], refused: true },
  { host: '2a00:1450:4001:0:200:5efe:a9fe:a9fe', carries: [['isatap', '169.254.169.254']], refused: true },
  { host: '2a00:1450:4001::200:5efe:5db8:d822', carries: [['isatap', '93.184.216.34']], refused: false },
  // A plain public IPv6 address carries none.
  { host: '2606:4700:4700::1111', carries: [], refused: false },
];
const embeddingUrl = (host: string) => `https://[${host}]/hook`;

describe('IPv6 forms that carry an IPv4 address are judged by it', () => {
  const service = useService(':memory:', { webhookAllowPrivate: false }, { resolve: zoneResolver, workers: false });
  let token: string;
  beforeAll(async () => {
    const m = await service.services.credentials.createMerchant('Embedded');
    token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
  });

  it.each(embeddingForms)('the guard finds what $host carries', ({ host, carries, refused }) => {
    expect(embeddedIPv4(host).map((e) => [e.form, e.address])).toEqual(carries);
    expect(isPrivateAddress(host)).toBe(refused);
  });

  it.each(embeddingForms)('checkTarget judges $host (refused: $refused)', async ({ host, refused }) => {
    const checked = checkTarget(embeddingUrl(host), false, zoneResolver);
    if (refused) await expect(checked).rejects.toThrow('private');
    else await expect(checked).resolves.toMatchObject({ family: 6 });
  });

  it.each(embeddingForms.filter((f) => f.refused))('registration refuses https://[$host]/ (422 naming url)', async ({ host }) => {
    const r = await service.send('POST', '/v1/webhooks', { token, body: { url: embeddingUrl(host) } });
    expect(r.status, r.text).toBe(422);
    expect(r.body.type).toBe(problemType('business-rule'));
    expect(r.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
  });

  it.each(embeddingForms.filter((f) => !f.refused))('registration accepts the public https://[$host]/', async ({ host }) => {
    const r = await service.send('POST', '/v1/webhooks', { token, body: { url: embeddingUrl(host) } });
    expect(r.status, r.text).toBe(201);
    expect((await service.send('DELETE', '/v1/webhooks', { token, query: { id: r.body.id } })).status).toBe(204);
  });

  it('a name resolving to a form that carries a private address is refused too', async () => {
    const resolve: Resolver = async () => [{ address: '64:ff9b::a9fe:a9fe', family: 6 }];
    await expect(checkTarget('https://dns64.example/hook', false, resolve)).rejects.toThrow('private');
    const publicAnswer: Resolver = async () => [{ address: '64:ff9b::5db8:d822', family: 6 }];
    await expect(checkTarget('https://dns64.example/hook', false, publicAnswer)).resolves.toMatchObject({ address: '64:ff9b::5db8:d822' });
  });

  it('stored none of the refused ones', async () => {
    expect((await service.send('GET', '/v1/webhooks', { token })).body).toEqual([]);
  });
});

/** A TCP server that counts connections: a delivery that got through would show up here, even over TLS. */
async function connectionCounter(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let n = 0;
  const server: TcpServer = createTcpServer((socket) => {
    n += 1;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

async function payout(service: RunningService, merchantId: number) {
  const { body: payee } = await service.services.payees.create(merchantId, individual);
  await service.services.accounts.create(merchantId, payee.id, bankAccount());
  return service.services.payouts.create(merchantId, { PayeeId: payee.id, Amount: 10, Currency: 'USD' });
}

async function settledDeliveries(service: RunningService, count: number) {
  const rows = () => service.services.store.db.selectFrom('webhook_deliveries').selectAll().execute();
  await expect
    .poll(async () => (await rows()).filter((r) => r.outcome !== 'sending').length, { timeout: 10_000, interval: 25 })
    .toBeGreaterThanOrEqual(count);
  return rows();
}

describe('delivery checks every target again and never connects inside', () => {
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  beforeAll(async () => {
    counter = await connectionCounter();
  });
  afterAll(() => counter.close());

  it('refuses a name that resolved publicly at registration and privately at delivery (DNS rebinding)', async () => {
    let lookups = 0;
    // The first answer (registration) is public; every later one (delivery) is loopback, where the counter listens.
    const rebinding: Resolver = async () => [{ address: lookups++ === 0 ? publicAddress : '127.0.0.1', family: 4 }];
    const service = await startService(':memory:', { webhookAllowPrivate: false }, { resolve: rebinding });
    try {
      const m = await service.services.credentials.createMerchant('Rebound');
      const token = (await service.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      const r = await send(service.baseUrl, 'POST', '/v1/webhooks', {
        token,
        body: { url: `https://rebind.example:${counter.port}/hook`, events: ['payout.created'] },
      });
      expect(r.status).toBe(201);
      await payout(service, m.merchantId);
      const [record] = await settledDeliveries(service, 1);
      expect(record).toMatchObject({ outcome: 'refused', status_code: null });
      expect(record!.error).toContain('private');
      // testWebhook sends at once and answers with the outcome: the same check, no connection.
      const tested = await send(service.baseUrl, 'POST', `/v1/webhooks/${r.body.id}/test`, { token });
      expect(tested.status, tested.text).toBe(200);
      expect(tested.body).toMatchObject({ outcome: 'refused', statusCode: null });
      expect(counter.connections()).toBe(0);
    } finally {
      await service.stop();
    }
  });

  it('refuses registrations stored pointing inside (made while private targets were allowed), in every spelling', async () => {
    const service = await startService(':memory:', { webhookAllowPrivate: false }, { resolve: zoneResolver });
    try {
      const m = await service.services.credentials.createMerchant('Legacy');
      const token = (await service.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      const hosts = [
        '127.0.0.1',
        '2130706433',
        '0x7f000001',
        '0177.0.0.1',
        '127.1',
        '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]',
        'localhost',
        '127.0.0.1.nip.example',
      ];
      await service.services.store.db
        .insertInto('webhooks')
        .values(
          hosts.map((host, i) => ({
            id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            merchant_id: m.merchantId,
            url: `https://${host}:${counter.port}/hook`,
            events: '["payout.created"]',
            environment: 'sandbox' as const,
            secret: null,
            created_at: Date.now(),
            deleted_at: null,
          })),
        )
        .execute();
      await payout(service, m.merchantId);
      const records = await settledDeliveries(service, hosts.length);
      expect(records.map((r) => [r.url, r.outcome])).toEqual(hosts.map((host) => [`https://${host}:${counter.port}/hook`, 'refused']));
      // Nor does testWebhook, which sends on demand and shows the caller what came of it.
      for (const { webhook_id } of records) {
        const tested = await send(service.baseUrl, 'POST', `/v1/webhooks/${webhook_id}/test`, { token });
        expect(tested.status, tested.text).toBe(200);
        expect(tested.body).toMatchObject({ outcome: 'refused', statusCode: null, durationMs: null });
      }
      expect(counter.connections()).toBe(0);
    } finally {
      await service.stop();
    }
  });
});

describe('redirects are never followed', () => {
  // Following a redirect would let a public receiver send the service inside; nothing public can be
  // reached from this test, so the receivers are local and the service allows local targets. The
  // redirect rule does not depend on that setting.
  const service = useService(':memory:', { webhookAllowPrivate: true });
  let target: WebhookReceiver;
  let redirecting: Server;
  let base: string;
  beforeAll(async () => {
    target = await startReceiver();
    redirecting = createServer((req, res) => res.writeHead(Number(req.url!.slice(1)), { location: `${target.url}/stolen` }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    redirecting.close();
    await target.close();
  });

  it('records 301, 302, 303, 307 and 308 as failed deliveries and never contacts the Location', async () => {
    const m = await service.services.credentials.createMerchant('Redirected');
    const token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
    const codes = [301, 302, 303, 307, 308];
    for (const code of codes)
      expect(
        (await service.send('POST', '/v1/webhooks', { token, body: { url: `${base}/${code}`, events: ['payout.created'] } })).status,
      ).toBe(201);
    await payout(service, m.merchantId);
    const records = await settledDeliveries(service, codes.length);
    expect(records.map((r) => [r.status_code, r.outcome]).sort()).toEqual(codes.map((c) => [c, 'failed']));
    // A followed redirect would have reached the target inside the delivery, before its record was written.
    expect(target.deliveries).toEqual([]);
  });
});

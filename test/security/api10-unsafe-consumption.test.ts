// OWASP API10:2023 Unsafe Consumption of APIs: the service consumes one outside API, the merchants' webhook
// receivers, and trusts nothing they answer. Receivers that never answer, trickle bytes forever, answer a
// huge or endless body, oversized headers, bytes that are not HTTP, a lying Content-Length, an interim
// response and nothing else, a redirect, or hang up, each get one delivery attempt that ends within the
// timeout and is recorded; none of their bodies is parsed or kept; and the dispatcher keeps
// delivering other merchants' events on time while they misbehave.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { merchantOwner } from '../../server/domain/events/owners.js';
import { bankAccount, individual } from '../support/merchants.js';
import { unsettled } from '../support/settled-events.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

// A deadline and a body size a loaded machine still drains in time: the body's size is not what is tested, only
// that a finished 2xx counts however large its body.
const timeoutMs = 1500;
const hugeBytes = 2 * 1024 * 1024;

/** Hostile receivers: each answers a delivery in its own bad way. Raw TCP where HTTP itself is abused. */
const hostile: Record<
  string,
  { http?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void; tcp?: (socket: Socket) => void }
> = {
  silent: { tcp: () => {} },
  trickle: {
    http: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    },
  },
  endless: {
    http: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    },
  },
  huge: {
    http: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(hugeBytes) });
      const chunk = Buffer.alloc(1024 * 1024, 123);
      let sent = 0;
      const pump = () => {
        while (sent < hugeBytes && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
  },
  garbage: { tcp: (socket) => socket.end('\u0000\u00ff\u00feNOT HTTP AT ALL\r\n\r\n{"status":"ok"}') },
  hugeHeaders: { tcp: (socket) => socket.end(`HTTP/1.1 200 OK\r\nX-Fill: ${'a'.repeat(200_000)}\r\nContent-Length: 0\r\n\r\n`) },
  lyingLength: { tcp: (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ok":') },
  interimOnly: { tcp: (socket) => socket.write('HTTP/1.1 100 Continue\r\n\r\n') },
  hangUp: { tcp: (socket) => socket.destroy() },
  redirect: { http: (_req, res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end() },
  malformedJson: {
    http: (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status": "ok", "payout": {"__proto__": {"admin": true}'),
  },
};

describe('webhook receivers are consumed without trust', () => {
  const service = useService(':memory:', { webhookAllowPrivate: true, webhookTimeoutMs: timeoutMs, sandboxStepMs: 0 });
  let bystander: WebhookReceiver;
  const servers: (Server | TcpServer)[] = [];
  const sockets = new Set<Socket>();
  const urls: Record<string, string> = {};
  /** The hostile receivers a delivery has connected to. */
  const reached = new Set<string>();

  beforeAll(async () => {
    bystander = await startReceiver();
    for (const [name, behaviour] of Object.entries(hostile)) {
      const server = behaviour.http ? createServer(behaviour.http) : createTcpServer(behaviour.tcp!);
      server.on('connection', (s: Socket) => {
        reached.add(name);
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => sockets.delete(s));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`;
    }
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await bystander.close();
  });

  async function merchantWithWebhooks(name: string, targets: string[]) {
    const m = await service.services.credentials.createMerchant(name);
    for (const url of targets) await service.services.webhooks.create(merchantOwner(m.merchantId), { url, events: ['payout.created'] });
    const { body: payee } = await service.services.payees.create(m.merchantId, individual);
    await service.services.accounts.create(m.merchantId, payee.id, bankAccount());
    return {
      merchantId: m.merchantId,
      pay: () => service.services.payouts.create(m.merchantId, { PayeeId: payee.id, Amount: 10, Currency: 'USD' }),
    };
  }

  it('ends every hostile delivery within the timeout, records it, and keeps delivering for others', async () => {
    const victim = await merchantWithWebhooks('Victim', Object.values(urls));
    const other = await merchantWithWebhooks('Other', [`${bystander.url}/other`]);
    const victimPayout = await victim.pay();
    // Another merchant's payout while the hostile receivers hold their connections.
    await vi.waitFor(() => expect([...reached].sort()).toEqual(Object.keys(urls).sort()), { timeout: 10_000, interval: 10 });
    const otherPayout = await other.pay();
    const [delivered] = await bystander.waitFor(1, (d) => d.body.includes(otherPayout.body.PayoutUniqueReference), 10_000);
    expect(JSON.parse(delivered!.body).state).toBe('created');

    const store = service.services.store;
    const hostileRecords = async () => {
      const records = await store.db.selectFrom('webhook_deliveries').selectAll().where('url', 'in', Object.values(urls)).execute();
      const settled = records.length === Object.keys(urls).length && records.every((r) => r.outcome !== 'sending');
      const seen = JSON.stringify(records.map((r) => [r.url, r.outcome, r.error]));
      if (!settled) throw new Error(`hostile deliveries did not settle: ${seen}`);
      return records;
    };
    const records = await vi.waitFor(hostileRecords, { timeout: timeoutMs + 5000, interval: 25 });
    const byName = Object.fromEntries(records.map((r) => [r.url.split('/').pop()!, r]));
    // The other merchant's delivery did not wait for the hostile ones: it was sent while they still held their
    // connections, before the last of them was cut off (both times on the service's own clock, so a slow machine
    // slows both sides alike).
    const hostileEnd = Math.max(...records.map((r) => r.attempted_at + r.duration_ms!));
    const bystanderRecord = await store.db
      .selectFrom('webhook_deliveries')
      .select('attempted_at')
      .where('url', '=', `${bystander.url}/other`)
      .executeTakeFirstOrThrow();
    expect(bystanderRecord.attempted_at).toBeLessThan(hostileEnd);
    for (const [name, record] of Object.entries(byName)) {
      expect(record.duration_ms, name).not.toBeNull();
    }
    // Nothing that is not a 2xx answer within the time counts as delivered.
    for (const name of ['silent', 'trickle', 'endless', 'garbage', 'hugeHeaders', 'interimOnly', 'hangUp', 'redirect'])
      expect(byName[name]!.outcome, name).toBe('failed');
    expect(byName.silent!.error).toContain(`no answer within ${timeoutMs} ms`);
    expect(byName.redirect!.status_code).toBe(307);
    // A 2xx is taken at its status: its body is drained unread, however long or broken.
    for (const name of ['huge', 'malformedJson']) expect(byName[name]!.outcome, name).toBe('delivered');
    // Sent once each, never again: the seed's at-most-once rule holds for hostile receivers too. Counted once
    // the victim's payout is final and each of its events dispatched, so a late second attempt would be seen.
    const payouts = [victimPayout.body.PayoutUniqueReference];
    await vi.waitFor(async () => expect(await unsettled(store, { payouts })).toEqual([]), { timeout: 10_000, interval: 25 });
    const count = await service.services.store.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('url', 'in', Object.values(urls))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(Object.keys(urls).length);
  });

  it('is still healthy and delivering afterwards', async () => {
    const later = await merchantWithWebhooks('Later', [`${bystander.url}/later`]);
    const p = await later.pay();
    await bystander.waitFor(1, (d) => d.path === '/later' && d.body.includes(p.body.PayoutUniqueReference), 5000);
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
  });
});

// The bare pipeline: the least Node does for one payout, on the store the service uses, with no framework. It
// accepts `POST /payouts` (node:http, JSON.parse), writes the payout (one insert), answers 202, then writes its
// three further states (processing, sent, completed: one update each) and POSTs four signed webhooks (created and
// each state, Standard Webhooks' HMAC-SHA256 over id, timestamp and body) to RECEIVER_URL, one after another per
// payout, each state written before its webhook is sent. No token, no validation, no events table, no claims,
// no idempotency, no delivery records: what the service does beyond this is what its ratio to this prices.
//
// PROCESSES=n (default 1) forks n processes of node:cluster that share the port, each doing the whole pipeline
// of the payouts it accepted, on one store: SQLite in WAL mode with the service's settings (each write one
// autocommit statement, waiting on the busy timeout for the write lock), or PostgreSQL with a pool per process.
import cluster from 'node:cluster';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import SQLite from 'better-sqlite3';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL!;
const receiver = new URL(process.env.RECEIVER_URL!);
const processes = Number(process.env.PROCESSES ?? 1);
const postgres = /^postgres(ql)?:\/\//.test(databaseUrl);
const secret = randomBytes(32);

const schema = postgres
  ? `create table if not exists bare_payouts (id bigserial primary key, reference text not null unique, payee_id bigint not null,
       amount bigint not null, currency text not null, description text, status text not null, created_at bigint not null,
       updated_at bigint not null)`
  : `create table if not exists bare_payouts (id integer primary key, reference text not null unique, payee_id integer not null,
       amount integer not null, currency text not null, description text, status text not null, created_at integer not null,
       updated_at integer not null)`;

interface Store {
  insert(reference: string, payeeId: number, amount: number, currency: string, description: string | null): Promise<void>;
  setStatus(reference: string, status: string): Promise<void>;
}

function openSqlite(): Store & { db: SQLite.Database } {
  const db = new SQLite(databaseUrl);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  db.exec(schema);
  const insert = db.prepare(
    'insert into bare_payouts (reference, payee_id, amount, currency, description, status, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const update = db.prepare('update bare_payouts set status = ?, updated_at = ? where reference = ?');
  return {
    db,
    insert: async (reference, payeeId, amount, currency, description) => {
      const now = Date.now();
      insert.run(reference, payeeId, amount, currency, description, 'created', now, now);
    },
    setStatus: async (reference, status) => {
      update.run(status, Date.now(), reference);
    },
  };
}

function openPostgres(): Store & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  return {
    pool,
    insert: async (reference, payeeId, amount, currency, description) => {
      const now = Date.now();
      await pool.query({
        name: 'insert',
        text: 'insert into bare_payouts (reference, payee_id, amount, currency, description, status, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8)',
        values: [reference, payeeId, amount, currency, description, 'created', now, now],
      });
    },
    setStatus: async (reference, status) => {
      await pool.query({
        name: 'update',
        text: 'update bare_payouts set status = $1, updated_at = $2 where reference = $3',
        values: [status, Date.now(), reference],
      });
    },
  };
}

/** One signed POST to the receiver; resolves when its answer has been read. */
function deliver(payload: string): Promise<void> {
  const id = `msg_${randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${payload}`).digest('base64');
  return new Promise((resolve) => {
    const req = request(
      receiver,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': `v1,${signature}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end(payload);
  });
}

async function pipeline(store: Store, reference: string, amount: number, currency: string): Promise<void> {
  const event = (state: string) =>
    JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: `payout.${state}`,
      payout_request_id: reference,
      state,
      amount,
      currency,
      timestamp: new Date().toISOString(),
    });
  await deliver(event('created'));
  for (const state of ['processing', 'sent', 'completed']) {
    await store.setStatus(reference, state);
    await deliver(event(state));
  }
}

async function serve(): Promise<void> {
  const store = postgres ? openPostgres() : openSqlite();
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (req.method !== 'POST' || req.url !== '/payouts') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let body: { PayeeId: number; Amount: number; Currency: string; Description?: string };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400).end();
          return;
        }
        const reference = `po_${randomUUID()}`;
        await store.insert(reference, body.PayeeId, Math.round(body.Amount * 100), body.Currency, body.Description ?? null);
        res
          .writeHead(202, { 'content-type': 'application/json' })
          .end(JSON.stringify({ PayoutUniqueReference: reference, Status: 'created' }));
        void pipeline(store, reference, body.Amount, body.Currency);
      })().catch((err: unknown) => {
        console.error(err);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (cluster.isPrimary && processes > 1) {
  // The table once, before the processes open the store.
  if (postgres) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(schema);
    await client.end();
  } else openSqlite().db.close();
  for (let i = 0; i < processes; i++) cluster.fork();
  let running = processes;
  cluster.on('exit', () => {
    if (--running === 0) process.exit(0);
  });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  });
} else {
  if (postgres && processes === 1) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(schema);
    await client.end();
  }
  await serve();
}

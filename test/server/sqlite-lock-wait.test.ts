// Another process holding SQLite's write lock (server/platform/store/database.ts, `waitingForLock`): the store has no
// busy timeout and asks again every 50 µs, so a transaction and a write outside one both wait for the lock and go
// through once it is released, rather than failing with SQLITE_BUSY. The holder here is a worker thread with its
// own connection, as another process of the service would hold it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../server/platform/store/database.js';

const holder = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.betterSqlite3);
const db = new SQLite(workerData.file);
db.pragma('journal_mode = WAL');
const committed = new Int32Array(workerData.committed);
parentPort.on('message', (ms) => {
  Atomics.store(committed, 0, 0);
  db.prepare('begin immediate').run();
  parentPort.postMessage('locked');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  // Marked before the commit: the lock is still held, so anything that gets it afterwards sees the mark, even if
  // this thread is descheduled between its commit and its next instruction (as it was on a loaded machine).
  Atomics.store(committed, 0, 1);
  db.prepare('commit').run();
});
`;

describe('SQLite write lock held by another connection', () => {
  let dir: string;
  let store: Store;
  let worker: Worker;
  /** Set by the holder as it commits, before it releases the lock (shared memory: seen at once, unlike a message). */
  const committed = new Int32Array(new SharedArrayBuffer(4));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payout-lock-'));
    const file = join(dir, 'store.sqlite');
    store = await openStore(file);
    worker = new Worker(holder, {
      eval: true,
      workerData: { file, committed: committed.buffer, betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
  });
  afterAll(async () => {
    await worker?.terminate();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Has the worker take the lock for `ms`, and resolves once it holds it. */
  const holdLock = async (ms: number) => {
    const locked = new Promise((resolve) => worker.once('message', resolve));
    worker.postMessage(ms);
    await locked;
  };

  it('a transaction waits for it, then commits', async () => {
    await holdLock(150);
    await store.db.transaction().execute((trx) => trx.insertInto('merchants').values({ name: 'Waited', created_at: Date.now() }).execute());
    // The holder committed before this transaction could begin.
    expect(Atomics.load(committed, 0)).toBe(1);
  });

  it('a write outside a transaction waits for it too', async () => {
    await holdLock(150);
    await store.db.updateTable('merchants').set({ name: 'Waited again' }).execute();
    expect(Atomics.load(committed, 0)).toBe(1);
    const names = await store.db.selectFrom('merchants').select('name').execute();
    expect(names.map((n) => n.name)).toContain('Waited again');
  });
});

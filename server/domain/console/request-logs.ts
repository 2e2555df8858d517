// The request log of the console: the public API requests of each merchant and partner that authenticated as it,
// the newest 1,000 of the last 7 days. Never a body, a query string, a header or a credential: the method, the path,
// the status, the request id, the duration and the Client ID of the token.
//
// Recording is on the request path of a benchmarked service, so it costs an array push: rows wait in memory and are
// written in batches, one insert per flush (a single statement whatever the batch's size: the rows travel as one
// JSON parameter, so the store's statement cache keeps one text), every `flushMs` and as soon as `batchSize` rows
// wait, and at close. Pruning is periodic, not per request: after a flush, at most every `pruneMs`, each owner this
// instance recorded since the last pruning keeps its newest 1,000 rows, and rows older than 7 days go. Reads apply
// both bounds themselves, so a list is exact whenever the pruning last ran.
import type { Logger } from 'pino';
import type { components } from '../../../generated/console/schema.js';
import { sql } from 'kysely';
import { Problem } from '../../platform/problems.js';
import { cursorPage, textCursorList } from '../../platform/store/cursor.js';
import type { Store } from '../../platform/store/database.js';
import { isoTimestamp, optionalTimestamp } from '../../platform/store/timestamps.js';
import { cutToCodePoints } from '../../platform/text/code-points.js';
import { PollingWorker } from '../../platform/workers/polling-worker.js';
import type { Owner } from '../events/owners.js';

export const requestLogLimits = { perOwner: 1000, keepMs: 7 * 24 * 60 * 60 * 1000 } as const;

export interface RequestLogEntry {
  owner: Owner;
  /** When the request arrived. */
  at: number;
  method: string;
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
  clientId: string | null;
}

/** A recorded request as `listRequestLogs` shows it: the contract's own type. */
export type RequestLogView = components['schemas']['RequestLog'];

/** The `ClientId` filter's name for the console's own requests, whose tokens name no Client ID. */
export const consoleClient = 'console';

export interface RequestLogQuery {
  Status?: string;
  Method?: string;
  PathPrefix?: string;
  /** A Client ID, or `console`: the console's own requests (no Client ID). */
  ClientId?: string;
  CreatedFrom?: string;
  CreatedTo?: string;
  PageSize?: number;
  Cursor?: string;
}

export interface RequestLogSettings {
  flushMs: number;
  batchSize: number;
  /** Rows kept waiting at most (a store that cannot be written to must not fill the memory): the oldest go first. */
  maxBuffered: number;
  pruneMs: number;
  now: () => number;
}

export const defaultRequestLogSettings: Omit<RequestLogSettings, 'now'> = {
  flushMs: 1000,
  batchSize: 1000,
  maxBuffered: 20_000,
  pruneMs: 10_000,
};

// Newest first: a position is the arrival time and the row id, `1730560204218.5521`.
const logCursors = textCursorList('requestlog', /^[0-9]{1,16}\.[1-9][0-9]{0,15}$/);
const ownerKey = (o: Owner) => `${o.kind}:${o.id}`;

export class RequestLogs {
  private buffer: RequestLogEntry[] = [];
  private readonly recorded = new Map<string, Owner>();
  private lastPruned = -Infinity;
  private dropped = 0;
  private readonly worker: PollingWorker;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly settings: RequestLogSettings,
  ) {
    this.worker = new PollingWorker('request-logs', () => this.round(), { pollMs: settings.flushMs, batchSize: settings.batchSize }, log);
  }

  /** Takes the row of a request that just ended; written at the next flush. */
  record(entry: Omit<RequestLogEntry, 'at'>): void {
    const durationMs = Math.min(Math.max(0, entry.durationMs), 3_600_000);
    this.buffer.push({
      ...entry,
      at: Math.round(this.settings.now() - durationMs),
      durationMs,
      path: cutToCodePoints(entry.path, 512),
      requestId: entry.requestId.slice(0, 64),
    });
    if (this.buffer.length > this.settings.maxBuffered) {
      // The oldest tenth goes at once, so that a store that keeps failing costs a copy now and then, not one a request.
      this.buffer.splice(0, this.buffer.length - Math.floor(this.settings.maxBuffered * 0.9));
      if (this.dropped++ === 0)
        this.log.warn({ maxBuffered: this.settings.maxBuffered }, 'request log rows dropped: the store is not keeping up');
    }
    if (this.buffer.length === this.settings.batchSize) this.worker.wake();
  }

  /** Starts flushing (where the HTTP service runs). */
  start(): void {
    this.worker.start();
  }

  /** Stops the timer and writes what waits (what the store then refuses is logged and let go: a stop must end). */
  async close(): Promise<void> {
    await this.worker.stop();
    try {
      while (this.buffer.length > 0) if ((await this.flush()) === 0) break;
    } catch (err) {
      this.log.error({ err, rows: this.buffer.length }, 'request log rows not written at close');
      this.buffer = [];
    }
  }

  /** Writes the waiting rows (a batch at most) in one insert; returns how many. */
  async flush(): Promise<number> {
    const batch = this.buffer.splice(0, this.settings.batchSize);
    if (batch.length === 0) return 0;
    const rows = JSON.stringify(
      batch.map((e) => [
        e.owner.kind,
        e.owner.id,
        e.at,
        e.method,
        e.path,
        e.status,
        e.requestId,
        Math.round(e.durationMs * 1000),
        e.clientId,
      ]),
    );
    try {
      if (this.store.dialect === 'postgres')
        await sql`insert into request_logs (owner_kind, owner_id, at, method, path, status, request_id, duration_us, client_id)
          select r->>0, (r->>1)::bigint, (r->>2)::bigint, r->>3, r->>4, (r->>5)::integer, r->>6, (r->>7)::bigint, r->>8
          from json_array_elements(${rows}::json) as r`.execute(this.store.db);
      else
        await sql`insert into request_logs (owner_kind, owner_id, at, method, path, status, request_id, duration_us, client_id)
          select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8
          from json_each(${rows})`.execute(this.store.db);
    } catch (err) {
      // Kept for the next flush (within maxBuffered); the worker logs the failure.
      this.buffer.unshift(...batch.slice(Math.max(0, batch.length - (this.settings.maxBuffered - this.buffer.length))));
      throw err;
    }
    for (const e of batch) this.recorded.set(ownerKey(e.owner), e.owner);
    return batch.length;
  }

  /**
   * Each owner recorded here since the last pruning keeps its newest 1,000 rows; rows older than 7 days go (a few
   * thousand a round). Returns how many rows went.
   */
  async prune(): Promise<number> {
    this.lastPruned = this.settings.now();
    const owners = [...this.recorded.values()];
    this.recorded.clear();
    let removed = 0;
    for (const owner of owners) {
      const boundary = await this.boundary(owner, requestLogLimits.perOwner);
      if (!boundary) continue;
      const result = await this.store.db
        .deleteFrom('request_logs')
        .where('owner_kind', '=', owner.kind)
        .where('owner_id', '=', owner.id)
        .where((eb) => eb.or([eb('at', '<', boundary.at), eb.and([eb('at', '=', boundary.at), eb('id', '<=', boundary.id)])]))
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    const old = await this.store.db
      .deleteFrom('request_logs')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('request_logs')
          .select('id')
          .where('at', '<', this.settings.now() - requestLogLimits.keepMs)
          .limit(5000),
      )
      .executeTakeFirst();
    return removed + Number(old.numDeletedRows);
  }

  /** The owner's requests, newest first, within the newest 1,000 of the last 7 days. */
  async list(owner: Owner, query: RequestLogQuery): Promise<{ data: RequestLogView[]; nextCursor: string | null }> {
    const from = optionalTimestamp(query.CreatedFrom, { parameter: 'CreatedFrom' });
    const to = optionalTimestamp(query.CreatedTo, { parameter: 'CreatedTo' });
    if (from !== undefined && to !== undefined && to < from)
      throw new Problem('business-rule', 'CreatedTo is before CreatedFrom.', {
        errors: [{ parameter: 'CreatedTo', detail: 'must not be before CreatedFrom' }],
      });
    const oldest = await this.boundary(owner, requestLogLimits.perOwner - 1);
    let q = this.store.db
      .selectFrom('request_logs')
      .select(['id', 'at', 'method', 'path', 'status', 'request_id', 'duration_us', 'client_id'])
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('at', '>=', Math.max(from ?? 0, this.settings.now() - requestLogLimits.keepMs));
    if (oldest) q = q.where((eb) => eb.or([eb('at', '>', oldest.at), eb.and([eb('at', '=', oldest.at), eb('id', '>=', oldest.id)])]));
    if (to !== undefined) q = q.where('at', '<', to);
    if (query.Method !== undefined) q = q.where('method', '=', query.Method);
    if (query.Status !== undefined) {
      const [low, high] = query.Status.endsWith('xx')
        ? [Number(query.Status[0]) * 100, Number(query.Status[0]) * 100 + 99]
        : [Number(query.Status), Number(query.Status)];
      q = q.where('status', '>=', low).where('status', '<=', high);
    }
    if (query.PathPrefix !== undefined) {
      const pattern = `${query.PathPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql<boolean>`path like ${pattern} escape '\\'`);
    }
    if (query.ClientId !== undefined)
      q = query.ClientId === consoleClient ? q.where('client_id', 'is', null) : q.where('client_id', '=', query.ClientId);
    const { page, nextCursor } = await cursorPage(
      logCursors,
      query,
      (after, limit) => {
        let walk = q;
        if (after !== undefined) {
          const [at, id] = after.split('.').map(Number) as [number, number];
          walk = walk.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
        }
        return walk.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      },
      (r) => `${Number(r.at)}.${Number(r.id)}`,
    );
    return {
      data: page.map((r) => ({
        time: isoTimestamp(Number(r.at)),
        method: r.method,
        path: r.path,
        status: Number(r.status),
        requestId: r.request_id,
        durationMs: Math.round(Number(r.duration_us) / 100) / 10,
        clientId: r.client_id,
      })),
      nextCursor,
    };
  }

  /** The owner's row at `offset` from the newest (0: the newest), if it has that many. */
  private async boundary(owner: Owner, offset: number): Promise<{ at: number; id: number } | undefined> {
    const row = await this.store.db
      .selectFrom('request_logs')
      .select(['at', 'id'])
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .offset(offset)
      .executeTakeFirst();
    return row && { at: Number(row.at), id: Number(row.id) };
  }

  /** A flush, then a pruning when it is due. */
  private async round(): Promise<number> {
    const written = await this.flush();
    if (this.settings.now() - this.lastPruned >= this.settings.pruneMs) await this.prune();
    return written;
  }
}

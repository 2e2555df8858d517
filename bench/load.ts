// One load measurement with autocannon: a short warm-up (discarded), then the measured run with the same
// connections and duration for every target, so figures taken in one run compare side by side.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
}

export const loadSettings = (): LoadSettings => ({
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  durationS: Number(process.env.BENCH_DURATION_S ?? 10),
  warmupS: Number(process.env.BENCH_WARMUP_S ?? 2),
});

export interface Request {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx, and connection errors or timeouts: a valid measure has none. */
  non2xx: number;
  errors: number;
  /**
   * CPU time the server process spent per request during the measured run (user + system, all threads).
   * Unlike req/s it hardly moves when other work shares the machine, so it is the steadier comparison.
   */
  serverCpuUsPerRequest?: number;
}

// utime and stime of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
export const ticksPerSecond = 100;
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}

/** The process and every descendant (a primary and the processes it forked), from /proc/<pid>/task/<pid>/children. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    try {
      const children = readFileSync(`/proc/${tree[i]}/task/${tree[i]}/children`, 'utf8').trim();
      if (children) tree.push(...children.split(' ').map(Number));
    } catch {
      // gone, or not Linux
    }
  }
  return tree;
}

/** CPU ticks of the process and its descendants now; undefined where /proc cannot tell. */
export function treeCpuTicks(pid: number): number | undefined {
  let sum: number | undefined;
  for (const p of processTree(pid)) {
    const ticks = cpuTicks(p);
    if (ticks !== undefined) sum = (sum ?? 0) + ticks;
  }
  return sum;
}

/** A process's role in npm start's process model (PAYOUT_SERVICE_ROLE in its environment), or undefined. */
export function processRole(pid: number): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith('PAYOUT_SERVICE_ROLE='));
    return entry?.slice('PAYOUT_SERVICE_ROLE='.length);
  } catch {
    return undefined;
  }
}

interface Run {
  result: autocannon.Result;
  /** Latency of every 2xx response in ms, at full resolution (autocannon's own histogram keeps whole ms). */
  latencies: number[];
}

async function run(request: Request, connections: number, durationS: number): Promise<Run> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        method: request.method ?? 'GET',
        headers: { ...(request.body ? { 'content-type': 'application/json' } : {}), ...request.headers },
        body: request.body,
        connections,
        duration: durationS,
        timeout: 10,
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  return { result, latencies };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[at]! * 100) / 100;
}

/** Warm-up, then the measured run; `serverPid` adds the server's CPU time per request. */
export async function measure(request: Request, settings: LoadSettings = loadSettings(), serverPid?: number): Promise<LoadResult> {
  if (settings.warmupS > 0) await run(request, settings.connections, settings.warmupS);
  const before = serverPid === undefined ? undefined : cpuTicks(serverPid);
  const { result: r, latencies } = await run(request, settings.connections, settings.durationS);
  const after = serverPid === undefined ? undefined : cpuTicks(serverPid);
  const sorted = Float64Array.from(latencies).sort();
  const result: LoadResult = {
    requestsPerSec: Math.round(r.requests.total / r.duration),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    ...(before !== undefined && after !== undefined && r.requests.total > 0
      ? { serverCpuUsPerRequest: Math.round((((after - before) / ticksPerSecond) * 1e6) / r.requests.total) }
      : {}),
  };
  if (result.non2xx > 0 || result.errors > 0) {
    console.warn(`  ! ${request.method ?? 'GET'} ${request.url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return result;
}

export const describeLoad = (r: LoadResult) =>
  `${r.requestsPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms` +
  (r.serverCpuUsPerRequest !== undefined ? `, ${r.serverCpuUsPerRequest} µs CPU/req` : '') +
  (r.non2xx || r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : '');

// The results files: bench/results/latest.json (every figure, by part, each with when and where it was
// measured) and bench/results/latest.md (the summary table of aims, then each part's figures).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { HttpRatiosResult } from './http-ratios.js';
import type { ListScalingResult } from './list-scaling.js';
import type { LoadResult } from './load.js';
import type { Machine } from './machine.js';
import type { PipelineResult } from './pipeline.js';
import type { PrismCompareResult } from './prism-compare.js';
import type { StartResult } from './start-time.js';
import type { ToolchainResult } from './toolchain.js';
import type { LatencyFigures, WebhookLatencyResult } from './webhook-latency.js';

export interface PartResults {
  http: HttpRatiosResult;
  prism: PrismCompareResult;
  pipeline: PipelineResult;
  webhooks: WebhookLatencyResult;
  list: ListScalingResult;
  toolchain: ToolchainResult;
  start: StartResult;
}

export type PartName = keyof PartResults;

export interface Measured<T> {
  measuredAt: string;
  seconds: number;
  machine: Machine;
  result: T;
}

export type Results = { [P in PartName]?: Measured<PartResults[P]> };

const dir = new URL('results/', import.meta.url);
const jsonFile = new URL('latest.json', dir);
const markdownFile = new URL('latest.md', dir);

export function readResults(): Results {
  return existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, 'utf8')) as Results) : {};
}

export function writeResults(results: Results): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(markdownFile, markdown(results));
}

export interface SummaryRow {
  measure: string;
  aim: string;
  result: string;
  met?: boolean;
}

const fixed = (x: number, digits = 2) => x.toFixed(digits);
const storeName = (store: 'sqlite' | 'postgres') => (store === 'sqlite' ? 'embedded' : 'PostgreSQL');
const load = (r: LoadResult) =>
  `${r.requestsPerSec} req/s, p50 ${fixed(r.p50Ms)} ms, p99 ${fixed(r.p99Ms)} ms` +
  (r.serverCpuUsPerRequest !== undefined ? `, ${r.serverCpuUsPerRequest} µs CPU/req` : '');

const p99Aim = 4;

/** One row per measure with an aim (and the tool chain's times, which have none). */
export function summaryRows(results: Results): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const op of results.http?.result.operations ?? []) {
    rows.push({
      measure: `${op.operation}: full stack / bare Express (req/s)`,
      aim: `>= ${op.aim}`,
      result: `${fixed(op.ratio)} (${op.service.requestsPerSec} / ${op.baseline.requestsPerSec}; p50 ${fixed(op.service.p50Ms)} vs ${fixed(op.baseline.p50Ms)} ms, p99 ${fixed(op.service.p99Ms)} vs ${fixed(op.baseline.p99Ms)} ms)`,
      met: op.ratio >= op.aim,
    });
  }
  const floor = results.http?.result.validatorFloor;
  if (floor)
    rows.push({
      measure: `${floor.operation}: bare Express with the request validator alone / bare Express (req/s)`,
      aim: 'reported',
      result: `${fixed(floor.ratio)} (${floor.validated.requestsPerSec} / ${floor.baseline.requestsPerSec}; ${floor.validated.serverCpuUsPerRequest ?? '?'} vs ${floor.baseline.serverCpuUsPerRequest ?? '?'} µs CPU/req)`,
    });
  // A write's tail latency (issue 15): its p99 within 4x bare Express's, same connections and duration.
  for (const op of (results.http?.result.operations ?? []).filter((o) => o.operation.startsWith('POST '))) {
    const times = op.service.p99Ms / op.baseline.p99Ms;
    rows.push({
      measure: `${op.operation}: p99 full stack / p99 bare Express`,
      aim: `<= ${p99Aim}x`,
      result: `${fixed(times, 1)}x (${fixed(op.service.p99Ms)} vs ${fixed(op.baseline.p99Ms)} ms)`,
      met: times <= p99Aim,
    });
  }
  const memory = results.http?.result.serverMemory;
  if (memory?.peakRssMb !== undefined)
    rows.push({
      measure: 'Server peak RSS over the http part (VmHWM)',
      aim: `<= ${memory.aimMb} MB`,
      result: `${memory.peakRssMb} MB${memory.beforeLoadMb === undefined ? '' : ` (${memory.beforeLoadMb} MB before the load)`}`,
      met: memory.peakRssMb <= memory.aimMb,
    });
  const prism = results.prism?.result;
  if (prism) {
    rows.push({
      measure: `${prism.operation}: real server / Prism mock (req/s)`,
      aim: '> 1',
      result: `${fixed(prism.ratio)} (${prism.service.requestsPerSec} / ${prism.prism.requestsPerSec})`,
      met: prism.ratio > 1,
    });
  }
  for (const r of results.pipeline?.result.runs ?? []) {
    // Written by the pipeline part before it had its bare baseline: a single run per store, no ratios.
    if (!('serviceToBare' in r)) continue;
    const where = storeName(r.store);
    const [bareOne, serviceOne, bareAll, serviceAll] = r.runs;
    rows.push(
      {
        measure: `Pipeline, every core / one process, service, ${where}`,
        aim: `>= ${r.aims.allCoresToOne}`,
        result: `${fixed(r.allCoresToOne.service)} (${serviceAll?.payoutsPerSec} / ${serviceOne?.payoutsPerSec} payouts/s; bare pipeline ${fixed(r.allCoresToOne.bare)})`,
        met: r.allCoresToOne.service >= r.aims.allCoresToOne,
      },
      {
        measure: `Pipeline, service / bare pipeline, one process, ${where}`,
        aim: `>= ${r.aims.serviceToBare}`,
        result: `${fixed(r.serviceToBare.oneProcess)} (${serviceOne?.payoutsPerSec} / ${bareOne?.payoutsPerSec} payouts/s)`,
        met: r.serviceToBare.oneProcess >= r.aims.serviceToBare,
      },
      {
        measure: `Pipeline, service / bare pipeline, every core (${serviceAll?.processes} processes), ${where}`,
        aim: `>= ${r.aims.serviceToBare}`,
        result: `${fixed(r.serviceToBare.allCores)} (${serviceAll?.payoutsPerSec} / ${bareAll?.payoutsPerSec} payouts/s)`,
        met: r.serviceToBare.allCores >= r.aims.serviceToBare,
      },
      {
        measure: `Pipeline, creation to delivered payout.completed, every core, ${where} (${r.payouts} payouts)`,
        aim: `>= ${r.aim}/s`,
        result: `${r.payoutsPerSec}/s (${serviceAll?.totalS} s)`,
        met: r.payoutsPerSec >= r.aim,
      },
    );
  }
  if (results.pipeline?.result.skipped)
    rows.push({ measure: 'Pipeline, PostgreSQL', aim: 'reported', result: `skipped: ${results.pipeline.result.skipped}` });
  for (const run of results.webhooks?.result.runs ?? []) {
    const w = run.withHanging;
    rows.push({
      measure: `Webhook p99, fast receiver beside a hanging one (${w.hangingPendingAtStart} pending) minus alone, ${storeName(run.store)}`,
      aim: `<= ${run.aimMs} ms`,
      result: `${run.p99DifferenceMs >= 0 ? '+' : ''}${run.p99DifferenceMs} ms (p99 ${w.p99Ms} vs ${run.alone.p99Ms} ms)`,
      met: run.p99DifferenceMs <= run.aimMs,
    });
  }
  const webhooksSkipped = results.webhooks?.result.skipped;
  if (webhooksSkipped) rows.push({ measure: 'Webhook latency, PostgreSQL', aim: 'reported', result: `skipped: ${webhooksSkipped}` });
  const list = results.list?.result;
  for (const l of list?.lists ?? []) {
    const [small, large] = [list!.sizes[0]!, list!.sizes[list!.sizes.length - 1]!];
    for (const q of l.queries)
      rows.push({
        measure: `${l.operation}?${q.query}: p50 at ${large.toLocaleString('en')} / at ${small.toLocaleString('en')} ${l.rows}`,
        aim: `<= ${q.aim}`,
        result: `${fixed(q.p50Ratio)} (${fixed(q.at[large]!.p50Ms)} / ${fixed(q.at[small]!.p50Ms)} ms)`,
        met: q.p50Ratio <= q.aim,
      });
  }
  const tools = results.toolchain?.result;
  if (tools) {
    for (const c of tools.commands)
      rows.push({
        measure: c.command.replace(/^npm /, 'npm '),
        aim: 'reported',
        result: `${c.seconds} s${c.exitCode === 0 ? '' : ` (exit ${c.exitCode})`}`,
      });
  }
  const start = results.start?.result;
  if (start) {
    const cpu = start.cpuMedianS === undefined ? '' : `; ${start.cpuMedianS} s CPU`;
    rows.push({
      measure: `\`npm start\` on a fresh store to first answer (median of ${start.starts.length})`,
      aim: `< ${start.aimS} s`,
      result: `${start.healthMedianS} s (/health), ${start.firstApiMedianS} s (first API request${cpu})`,
      met: Math.max(start.healthMedianS, start.firstApiMedianS) < start.aimS,
    });
  }
  return rows;
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function markdown(results: Results): string {
  const out: string[] = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/README.md says what each part measures). Each part is measured side by side within itself; parts run at different times are marked so.',
    '',
  ];
  out.push(
    table(
      ['measure', 'aim', 'result', 'met'],
      summaryRows(results).map((r) => [r.measure, r.aim, r.result, r.met === undefined ? '' : r.met ? 'yes' : 'no']),
    ),
    '',
  );
  out.push('## Where and when', '');
  out.push(
    table(
      ['part', 'measured at', 'seconds', 'load average at start', 'machine'],
      (Object.entries(results) as [PartName, Measured<unknown>][]).map(([part, m]) => [
        part,
        m.measuredAt,
        String(m.seconds),
        String(m.machine.loadAverage),
        `${m.machine.cores} × ${m.machine.cpu}, ${m.machine.memoryGb} GB, Node ${m.machine.node}${m.machine.commit ? `, at ${m.machine.commit}` : ''}`,
      ]),
    ),
    '',
  );
  const http = results.http?.result;
  if (http) {
    out.push(
      '## Full stack against bare Express',
      '',
      `${http.settings.connections} connections, ${http.settings.durationS} s each after a ${http.settings.warmupS} s warm-up.`,
      '',
    );
    out.push(
      table(
        ['operation', 'bare Express', 'full stack', 'ratio', 'server peak RSS after'],
        http.operations.map((o) => [
          o.operation,
          load(o.baseline),
          load(o.service),
          fixed(o.ratio),
          o.serverPeakRssMbAfter === undefined ? '-' : `${o.serverPeakRssMbAfter} MB`,
        ]),
      ),
      '',
    );
    if (http.validatorFloor)
      out.push(
        `Bare Express with only the request validator in front, ${http.validatorFloor.operation}: ${load(http.validatorFloor.validated)}, ${fixed(http.validatorFloor.ratio)} of bare Express.`,
        '',
      );
    const memory = http.serverMemory;
    if (memory?.peakRssMb !== undefined)
      out.push(
        `Server resident memory: ${memory.beforeLoadMb ?? '?'} MB after provisioning, peak ${memory.peakRssMb} MB over the part (aim <= ${memory.aimMb} MB).`,
        '',
      );
  }
  const prism = results.prism?.result;
  if (prism)
    out.push(
      '## Real server against the Prism mock',
      '',
      table(
        ['operation', 'Prism mock', 'real server', 'ratio'],
        [[prism.operation, load(prism.prism), load(prism.service), fixed(prism.ratio)]],
      ),
      '',
    );
  const pipeline = results.pipeline?.result;
  if (pipeline) {
    out.push('## Payout pipeline (SANDBOX_STEP_MS=0)', '');
    const storeRuns = pipeline.runs.filter((r) => 'serviceToBare' in r);
    out.push(
      table(
        [
          'store',
          'pipeline',
          'processes',
          'payouts',
          'concurrency',
          'created in',
          'all payout.completed in',
          'payouts/s',
          'server CPU per payout',
          'deliveries',
          'duplicates',
        ],
        storeRuns.flatMap((s) =>
          s.runs.map((r) => [
            s.store,
            r.pipeline,
            r.web === undefined ? String(r.processes) : `${r.web} HTTP + ${r.workers} worker`,
            String(r.payouts),
            String(r.concurrency),
            `${r.createS} s (${r.createdPerSec}/s)`,
            `${r.totalS} s`,
            String(r.payoutsPerSec),
            r.serverCpuMsPerPayout === undefined
              ? ''
              : `${r.serverCpuMsPerPayout} ms (${Object.entries(r.cpuMsPerPayoutByRole ?? {})
                  .map(([role, ms]) => `${role} ${ms}`)
                  .join(', ')}; benchmark ${r.benchCpuMsPerPayout})`,
            Object.entries(r.deliveries)
              .map(([k, v]) => `${k} ${v}`)
              .join(', '),
            String(r.duplicateCompleted),
          ]),
        ),
      ),
      '',
      table(
        ['store', 'service / bare, one process', 'service / bare, every core', 'every core / one process: service', 'bare'],
        storeRuns.map((s) => [
          s.store,
          fixed(s.serviceToBare.oneProcess),
          fixed(s.serviceToBare.allCores),
          fixed(s.allCoresToOne.service),
          fixed(s.allCoresToOne.bare),
        ]),
      ),
      '',
    );
    if (pipeline.skipped) out.push(`PostgreSQL skipped: ${pipeline.skipped}.`, '');
  }
  const webhooks = results.webhooks?.result;
  if (webhooks) {
    out.push('## Webhook latency beside a hanging receiver (SANDBOX_STEP_MS=0, 5 s timeout)', '');
    const latency = (f: LatencyFigures) => `p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, max ${f.maxMs} ms (${f.events} events)`;
    out.push(
      table(
        [
          'store',
          'fast merchant',
          'alone',
          'beside the hanging receiver',
          'its events pending',
          'held by it',
          'p99 difference',
          'duplicates',
        ],
        webhooks.runs.map((r) => [
          r.store,
          `${r.payouts} payouts at ${r.ratePerSec}/s`,
          latency(r.alone),
          latency(r.withHanging),
          `${r.withHanging.hangingPendingAtStart} → ${r.withHanging.hangingPendingAtEnd}`,
          String(r.withHanging.hangingHeldMax),
          `${r.p99DifferenceMs} ms`,
          String(r.duplicates),
        ]),
      ),
      '',
    );
    if (webhooks.skipped) out.push(`PostgreSQL skipped: ${webhooks.skipped}.`, '');
  }
  const list = results.list?.result;
  if (list?.lists) {
    out.push('## List scaling (embedded store)', '');
    out.push(
      `Inserting (rows added to reach each size): ${list.lists
        .map(
          (l) =>
            `${l.rows} ${Object.entries(l.insertS)
              .map(([n, s]) => `${s} s to ${Number(n).toLocaleString('en')}`)
              .join(', ')}`,
        )
        .join('; ')}.`,
      '',
    );
    out.push(
      table(
        ['query', ...list.sizes.map((n) => `${n.toLocaleString('en')} rows`), 'p50 ratio'],
        list.lists.flatMap((l) =>
          l.queries.map((q) => [`${l.operation}?${q.query}`, ...list.sizes.map((n) => load(q.at[n]!)), fixed(q.p50Ratio)]),
        ),
      ),
      '',
    );
  }
  const tools = results.toolchain?.result;
  if (tools) {
    out.push('## Tool chain', '');
    out.push(table(['command', 'wall time'], [...tools.commands.map((c) => [`\`${c.command}\``, `${c.seconds} s`])]), '');
  }
  const start = results.start?.result;
  if (start) {
    out.push('## Start', '', `\`npm run build\` (a full build): ${start.buildS} s.`, '');
    out.push(
      table(
        ['`npm start`', 'to /health', 'to first API answer', 'CPU by then'],
        start.starts.map((t, i) => [String(i + 1), `${t.healthS} s`, `${t.firstApiS} s`, t.cpuS === undefined ? '-' : `${t.cpuS} s`]),
      ),
      '',
    );
  }
  return out.join('\n');
}

// `npm run bench [-- <part> ...]`: runs the benchmarks (every part, or those named), prints each figure as
// it comes, and writes bench/results/latest.json and latest.md. A run of some parts replaces only those
// parts' results, so the files always hold the latest measurement of every part. See bench/README.md.
import { runHttpRatios } from './http-ratios.js';
import { runListScaling } from './list-scaling.js';
import { describeMachine } from './machine.js';
import { runPipeline } from './pipeline.js';
import { runPrismCompare } from './prism-compare.js';
import { runStartTime } from './start-time.js';
import { readResults, summaryRows, writeResults, type PartName, type PartResults, type Results } from './report.js';
import { runToolchain } from './toolchain.js';
import { runWebhookLatency } from './webhook-latency.js';

const parts: { [P in PartName]: () => Promise<PartResults[P]> } = {
  http: runHttpRatios,
  prism: runPrismCompare,
  pipeline: runPipeline,
  webhooks: runWebhookLatency,
  list: runListScaling,
  toolchain: runToolchain,
  start: runStartTime,
};

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((a) => !(a in parts));
if (unknown.length > 0) {
  console.error(`Unknown part ${unknown.join(', ')}; the parts are: ${Object.keys(parts).join(', ')}.`);
  process.exit(2);
}
const selected = (asked.length > 0 ? asked : Object.keys(parts)) as PartName[];
const results: Results = readResults();
const started = performance.now();
for (const part of selected) {
  console.log(`\n== ${part}`);
  const machine = describeMachine();
  const partStarted = performance.now();
  const result = await parts[part]();
  const seconds = Math.round((performance.now() - partStarted) / 1000);
  (results as Record<PartName, unknown>)[part] = { measuredAt: new Date().toISOString(), seconds, machine, result };
  writeResults(results); // after each part, so an interrupted run keeps what it measured
  console.log(`   (${seconds} s)`);
}

console.log(`\n== summary (${Math.round((performance.now() - started) / 1000)} s; bench/results/latest.md)`);
for (const row of summaryRows(results))
  console.log(`  ${row.met === undefined ? ' ' : row.met ? '✓' : '✗'} ${row.measure}: ${row.result} (aim ${row.aim})`);

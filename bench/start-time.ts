// Part `start`: `npm start` as a person runs it, on a fresh store (migrations and signing key included), to its
// first answers: GET /health, then the first API request (GET /v1/payees/1 without a token, a 401 problem; its
// group's validator is built by it). The build is brought up to date first, timed as `npm run build`, so that a
// start measures the freshness check and the start, never a rebuild. Besides the wall time, the CPU time of the
// whole `npm start` process tree until the first API answer (npm, the shell, the service): on a shared machine
// the wall time grows with everyone else's work, the CPU time much less.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../scripts/mock/free-ports.js';
import { root, waitUntilAnswering } from './processes.js';
import { embeddedStore } from './stores.js';

export interface StartTiming {
  /** Seconds from spawning `npm start` to the first answered GET /health. */
  healthS: number;
  /** Seconds from spawning `npm start` to the answer of the first API request. */
  firstApiS: number;
  /** CPU seconds of the `npm start` process tree by then (Linux only). */
  cpuS?: number;
}

export interface StartResult {
  /** `npm run build`: a full build of dist/server/main.js. */
  buildS: number;
  starts: StartTiming[];
  healthMedianS: number;
  firstApiMedianS: number;
  cpuMedianS?: number;
  /** The aim for the first answer of either kind (issue 14: "under 1 s on a fresh store"). */
  aimS: number;
}

const starts = Number(process.env.BENCH_STARTS ?? 5);
const round = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The process and its descendants, from /proc (empty where there is none). */
function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return [pid, ...children.flatMap((child) => processTree(Number(child)))];
  } catch {
    return [];
  }
}

/** User and system CPU seconds of the given processes so far (clock ticks of 10 ms), or undefined without /proc. */
function cpuSeconds(pids: number[]): number | undefined {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  }
  return pids.length > 0 ? ticks / 100 : undefined;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function timeCommand(args: string[]): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npm', args, { cwd: root, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`npm ${args.join(' ')} exited ${code}`);
  return round((performance.now() - started) / 1000);
}

async function oneStart(): Promise<StartTiming> {
  const store = embeddedStore();
  const port = await freePort();
  const stderr: string[] = [];
  const started = performance.now();
  // Its own process group, so that stopping it reaches the service too, as Ctrl-C in a terminal does: npm
  // passes SIGTERM to the shell it runs the script in, which does not pass it on.
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: store.url },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  let tree: number[] = [];
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(`${url}/health`, child);
    const healthS = round((performance.now() - started) / 1000);
    const answer = await fetch(`${url}/v1/payees/1`);
    await answer.arrayBuffer();
    const firstApiS = round((performance.now() - started) / 1000);
    tree = processTree(child.pid!);
    const cpu = cpuSeconds(tree);
    if (answer.status !== 401) throw new Error(`GET /v1/payees/1 without a token answered ${answer.status}, not 401`);
    return { healthS, firstApiS, ...(cpu === undefined ? {} : { cpuS: round(cpu) }) };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${stderr.join('')}`);
  } finally {
    if (tree.length === 0) tree = processTree(child.pid!);
    process.kill(-child.pid!, 'SIGTERM');
    const deadline = Date.now() + 15_000;
    while ([child.pid!, ...tree].some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if ([child.pid!, ...tree].some(alive)) process.kill(-child.pid!, 'SIGKILL');
    await store.drop();
  }
}

export async function runStartTime(): Promise<StartResult> {
  const buildS = await timeCommand(['run', 'build']);
  console.log(`  npm run build                    ${buildS} s`);
  const timings: StartTiming[] = [];
  for (let i = 0; i < starts; i++) {
    const timing = await oneStart();
    console.log(
      `  npm start: /health ${timing.healthS} s, first API answer ${timing.firstApiS} s${timing.cpuS === undefined ? '' : ` (${timing.cpuS} s CPU)`}`,
    );
    timings.push(timing);
  }
  const cpu = timings.flatMap((t) => (t.cpuS === undefined ? [] : [t.cpuS]));
  return {
    buildS,
    starts: timings,
    healthMedianS: median(timings.map((t) => t.healthS)),
    firstApiMedianS: median(timings.map((t) => t.firstApiS)),
    ...(cpu.length === timings.length ? { cpuMedianS: median(cpu) } : {}),
    aimS: 1,
  };
}

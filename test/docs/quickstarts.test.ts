// The docs' quick starts as a reader runs them: each script (docs/quickstarts/, which `npm run docs` copies to
// docs/dist/ byte for byte) twice in a row with bash, against `npm start` on a fresh store,
// with the configuration the page asks for (WEBHOOK_ALLOW_PRIVATE=true) and the default pace of the sandbox. The
// scripts stop at the first failing step (`set -euo pipefail`, and every answer but a 2xx), so exit 0 means every
// step worked; a second run on the same store proves nothing in them is fixed (ids, idempotency keys, tax ids).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickStartScripts } from '../../scripts/docs/quickstart.js';

const root = new URL('../..', import.meta.url).pathname;

interface Server {
  child: ChildProcess;
  baseUrl: string;
  /** What it wrote besides the line saying it listens: npm's banner, JSON log lines at warn and above, stderr. */
  output: string[];
}

/** Every server started, stopped in afterAll even when one never came to listen. */
const started: ChildProcess[] = [];

/** `npm start` itself on a free port, in a process group of its own (npm, its shell and the server: stopped together
 *  by `stopServer`); resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${output.join('\n')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /^Payout service listening on http:\/\/[^:]+:(\d+)/.exec(line);
      if (listening) resolve(listening[1]!);
      else output.push(line);
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, output };
}

/** SIGTERM to the server's process group: npm does not pass it on to the server. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(source: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [source], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The number of the script's last step (`# N. ...`). */
const lastStep = (script: string) => Math.max(...[...script.matchAll(/^# (\d+)\. /gm)].map((m) => Number(m[1])));

describe('the quick-start scripts', () => {
  let work: string;
  let databaseUrl: string;
  let server: Server | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'quickstarts-'));
    databaseUrl = join(work, 'payouts.sqlite');
    // The defaults of `npm start` (an empty value is unset), but for the flag the merchant script asks for.
    const defaults = { SANDBOX_STEP_MS: '', RATE_LIMIT_PER_MINUTE: '', RUN_WORKERS: '', ENVIRONMENT: '', LOG_LEVEL: 'warn' };
    server = await startServer({ ...defaults, DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE: 'true' });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map(stopServer));
    if (work) await rm(work, { recursive: true, force: true });
  });

  it.each(quickStartScripts.map((q) => [q.file, q] as const))(
    '%s runs to its last step, twice on the same store',
    async (_file, q) => {
      const { baseUrl, output } = server!;
      const steps = lastStep(await readFile(join(root, q.source), 'utf8'));
      for (const round of [1, 2]) {
        const run = await runScript(q.source, { BASE_URL: baseUrl, DATABASE_URL: databaseUrl });
        const shown = `run ${round} of ${q.source}:\n${run.stdout}\n${run.stderr}\nserver:\n${output.slice(-50).join('\n')}`;
        expect(run.code, shown).toBe(0);
        // Each step reports one line, `N. what it got`: every step ran, in order.
        const reported = run.stdout
          .trim()
          .split('\n')
          .map((l) => Number(/^(\d+)\. /.exec(l)?.[1]));
        expect(reported, shown).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
        // A log line at error level or above (`"level":50`, 60) is a failure the answers may not have shown.
        expect(
          output.filter((l) => /"level":[56]\d/.test(l)),
          'server errors',
        ).toEqual([]);
      }
    },
    180_000,
  );
});

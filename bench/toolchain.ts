// Part `toolchain`: wall time of the project's own commands, and of a server start (`tsx server/main.ts`,
// what `npm start` runs, on a fresh store: migrations and signing key included) to its first answered
// request. `npm run generate` is timed as `-- --check`: the same bundling and type generation, without
// rewriting generated/ under colleagues' feet.
import { spawn } from 'node:child_process';
import { root, startService } from './processes.js';
import { embeddedStore } from './stores.js';

export interface CommandTiming {
  command: string;
  seconds: number;
  exitCode: number | null;
}

export interface ToolchainResult {
  commands: CommandTiming[];
  /** Seconds from spawn to the first answered GET /health, per start, and their median. */
  serverStartS: number[];
  serverStartMedianS: number;
  /**
   * Seconds from spawn to the first answered API request (GET /v1/payees/1 without a token: a 401 problem),
   * per start: express-openapi-validator compiles a group's document on the group's first request.
   */
  firstApiAnswerS: number[];
  firstApiAnswerMedianS: number;
}

function timed(command: string, args: string[]): Promise<CommandTiming> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'ignore', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
    // Each of these takes seconds; five minutes means something hangs.
    const limit = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(limit);
      resolve({ command: `${command} ${args.join(' ')}`, seconds: round((performance.now() - started) / 1000), exitCode: code });
    });
  });
}

export async function runToolchain(): Promise<ToolchainResult> {
  const commands: CommandTiming[] = [];
  for (const args of [
    ['run', 'generate', '--', '--check'],
    ['run', 'lint'],
    ['run', 'docs'],
  ]) {
    const timing = await timed('npm', args);
    console.log(`  ${timing.command.padEnd(32)} ${timing.seconds} s${timing.exitCode === 0 ? '' : ` (exit ${timing.exitCode})`}`);
    commands.push(timing);
  }
  const serverStartS: number[] = [];
  const firstApiAnswerS: number[] = [];
  for (let i = 0; i < 3; i++) {
    const store = embeddedStore();
    const service = await startService({ DATABASE_URL: store.url }, { via: 'tsx' });
    const asked = performance.now();
    const answer = await fetch(`${service.url}/v1/payees/1`);
    await answer.arrayBuffer();
    serverStartS.push(round(service.startMs / 1000));
    firstApiAnswerS.push(round((service.startMs + performance.now() - asked) / 1000));
    await service.stop();
    await store.drop();
    if (answer.status !== 401) throw new Error(`GET /v1/payees/1 without a token answered ${answer.status}, not 401`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`  server start to /health          ${serverStartS.join(' s, ')} s (median ${median(serverStartS)} s)`);
  console.log(`  server start to first API answer ${firstApiAnswerS.join(' s, ')} s (median ${median(firstApiAnswerS)} s)`);
  return {
    commands,
    serverStartS,
    serverStartMedianS: median(serverStartS),
    firstApiAnswerS,
    firstApiAnswerMedianS: median(firstApiAnswerS),
  };
}

const round = (x: number) => Math.round(x * 100) / 100;

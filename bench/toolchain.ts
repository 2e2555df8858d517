// Part `toolchain`: wall time of the project's own commands (the start of the service is part `start`).
// `npm run generate` is timed as `-- --check`: the same bundling and type generation, without rewriting
// generated/ under colleagues' feet.
import { spawn } from 'node:child_process';
import { root } from './processes.js';

export interface CommandTiming {
  command: string;
  seconds: number;
  exitCode: number | null;
}

export interface ToolchainResult {
  commands: CommandTiming[];
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
  return { commands };
}

const round = (x: number) => Math.round(x * 100) / 100;

// Where a figure was measured: the same run on another machine gives other numbers, and on this one the
// load average says whether other work shared the CPU at the time.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the part started (cores busy with anything, this benchmark included). */
  loadAverage: number;
  /** The commit, and whether server/, bench/ or generated/ had uncommitted changes. */
  commit?: string;
}

export function describeMachine(): Machine {
  let commit: string | undefined;
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    // Uncommitted changes to what is measured make the commit only the starting point.
    commit =
      git('rev-parse', '--short', 'HEAD') +
      (git('status', '--porcelain', '--', 'server', 'bench', 'generated') ? ' + uncommitted changes' : '');
  } catch {
    commit = undefined; // not a git checkout
  }
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: Math.round(os.loadavg()[0]! * 100) / 100,
    ...(commit ? { commit } : {}),
  };
}

// A process's resident memory from /proc/<pid>/status (Linux): VmHWM, the peak resident set since it started,
// and VmRSS, the resident set now. Undefined elsewhere or once the process is gone.
import { readFileSync } from 'node:fs';

function statusFieldKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

const mb = (kb: number | undefined) => (kb === undefined ? undefined : Math.round((kb / 1024) * 10) / 10);

/** Peak resident set of the process so far, in MB (1 MB = 1024 kB). */
export const peakRssMb = (pid: number) => mb(statusFieldKb(pid, 'VmHWM'));

/** Resident set of the process now, in MB. */
export const rssMb = (pid: number) => mb(statusFieldKb(pid, 'VmRSS'));

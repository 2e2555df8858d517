// The processes `npm start` runs (server/primary-role.ts `processShape`): a pure rule of the configuration and the
// machine's cores, so tested without starting anything (test/reliability/processes.test.ts starts them).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config.js';
import { healthyAfterMs, maxRestartDelayMs, processShape } from '../../server/primary-role.js';

const shape = (env: Record<string, string>, cores: number) =>
  processShape(loadConfig({ DATABASE_URL: '/tmp/store.sqlite', ...env }), cores);

describe('the processes of npm start', () => {
  it('are one per core by default, one of them the worker process', () => {
    expect(shape({}, 2)).toEqual({ web: 1, workers: 1 });
    expect(shape({}, 8)).toEqual({ web: 7, workers: 1 });
    expect(shape({ WORKER_CONCURRENCY: '2' }, 8)).toEqual({ web: 6, workers: 2 });
    expect(shape({ WORKER_CONCURRENCY: '4' }, 2)).toEqual({ web: 1, workers: 4 });
  });

  it('are one process doing everything on one core, with WEB_CONCURRENCY=1, or on an in-memory store', () => {
    expect(shape({}, 1)).toBeUndefined();
    expect(shape({ WEB_CONCURRENCY: '1' }, 8)).toBeUndefined();
    expect(shape({ WEB_CONCURRENCY: '1', WORKER_CONCURRENCY: '3' }, 8)).toBeUndefined();
    expect(shape({ DATABASE_URL: ':memory:' }, 8)).toBeUndefined();
    expect(shape({ DATABASE_URL: 'sqlite::memory:', WEB_CONCURRENCY: '4' }, 8)).toBeUndefined();
  });

  it('are WEB_CONCURRENCY HTTP processes beside the worker processes when it is set above 1', () => {
    expect(shape({ WEB_CONCURRENCY: '2' }, 2)).toEqual({ web: 2, workers: 1 });
    expect(shape({ WEB_CONCURRENCY: '3', WORKER_CONCURRENCY: '2' }, 2)).toEqual({ web: 3, workers: 2 });
  });

  it('have no worker process with RUN_WORKERS=false, every core then serving HTTP', () => {
    expect(shape({ RUN_WORKERS: 'false' }, 4)).toEqual({ web: 4, workers: 0 });
    expect(shape({ RUN_WORKERS: 'false', WEB_CONCURRENCY: '2' }, 4)).toEqual({ web: 2, workers: 0 });
  });

  it('refuse a WEB_CONCURRENCY or WORKER_CONCURRENCY that is not a whole number of at least 1', () => {
    expect(() => shape({ WEB_CONCURRENCY: '0' }, 2)).toThrow('WEB_CONCURRENCY must be an integer of at least 1');
    expect(() => shape({ WORKER_CONCURRENCY: 'two' }, 2)).toThrow('WORKER_CONCURRENCY must be an integer of at least 1');
  });
});

describe('the README', () => {
  it('states the restart pauses the primary keeps', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`up to ${maxRestartDelayMs / 1000} s while it keeps dying within ${healthyAfterMs / 1000} s of being ready`);
  });
});

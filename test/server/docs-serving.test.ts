// /docs serves the built docs whenever they exist: a server started before `npm run docs` serves them once they are
// built, without a restart, and answers a 404 problem saying how to build them while they are missing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemType, send } from '../support/requests.js';
import { type RunningService, startService } from '../support/service.js';

describe('/docs', () => {
  let work: string;
  let docsDir: string;
  let service: RunningService;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'docs-serving-'));
    docsDir = join(work, 'dist');
    service = await startService(':memory:', { docsDir }, { workers: false });
  });

  afterAll(async () => {
    await service?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('answers a 404 problem naming `npm run docs` while the docs are not built, then serves them once they are', async () => {
    for (const path of ['/docs/', '/docs/index.html', '/docs/quickstart.sh']) {
      const missing = await send(service.baseUrl, 'GET', path);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('content-type')).toContain('application/problem+json');
      expect(missing.body).toMatchObject({ type: problemType('not-found'), detail: expect.stringContaining('npm run docs') });
      expect(missing.headers.get('cache-control')).toBe('no-store');
    }

    // What `npm run docs` leaves behind, written while the server runs.
    await mkdir(docsDir);
    await writeFile(join(docsDir, 'index.html'), '<!DOCTYPE html><title>Payout Service API</title>');
    await writeFile(join(docsDir, 'quickstart.sh'), '#!/usr/bin/env bash\n');

    const landing = await send(service.baseUrl, 'GET', '/docs/');
    expect(landing.status).toBe(200);
    expect(landing.headers.get('content-type')).toContain('text/html');
    expect(landing.text).toContain('<title>Payout Service API</title>');
    const script = await send(service.baseUrl, 'GET', '/docs/quickstart.sh');
    expect(script.status).toBe(200);
    expect(script.text).toBe('#!/usr/bin/env bash\n');

    // A file the build did not write is still a 404 problem, now without the hint.
    const absent = await send(service.baseUrl, 'GET', '/docs/nothing-here.html');
    expect(absent.status).toBe(404);
    expect(absent.body).toMatchObject({ type: problemType('not-found') });
    expect(absent.body.detail).not.toContain('npm run docs');

    // Removed again (a rebuild swaps folders), the hint is back.
    await rm(docsDir, { recursive: true });
    expect((await send(service.baseUrl, 'GET', '/docs/index.html')).body.detail).toContain('npm run docs');
  });
});

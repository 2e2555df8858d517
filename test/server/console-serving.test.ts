// /console/ serves the built console (server/http/console-static.ts): every page path answers index.html under a
// strict Content-Security-Policy (the router names the page), files are served with caching fit for hashed assets,
// a missing file is a 404 problem, and /console/api/... never falls back to the page. While the console is not built,
// a 404 problem says how to build it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemType, send } from '../support/requests.js';
import { type RunningService, startService } from '../support/service.js';

const page = '<!doctype html><title>Console</title><script type="module" src="/console/assets/app-1a2b3c.js"></script>';

describe('/console', () => {
  let work: string;
  let consoleDir: string;
  let service: RunningService;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'console-serving-'));
    consoleDir = join(work, 'console');
    service = await startService(':memory:', { consoleDir }, { workers: false });
  });

  afterAll(async () => {
    await service?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('answers a 404 problem naming `npm run build` while the console is not built', async () => {
    for (const path of ['/console/', '/console/payouts', '/console/assets/app-1a2b3c.js']) {
      const missing = await send(service.baseUrl, 'GET', path);
      expect(missing.status, path).toBe(404);
      expect(missing.body).toMatchObject({ type: problemType('not-found'), detail: expect.stringContaining('npm run build') });
      expect(missing.headers.get('cache-control')).toBe('no-store');
    }
  });

  describe('once built', () => {
    beforeAll(async () => {
      await mkdir(join(consoleDir, 'assets'), { recursive: true });
      await writeFile(join(consoleDir, 'index.html'), page);
      await writeFile(join(consoleDir, 'assets', 'app-1a2b3c.js'), 'export {};\n');
      await writeFile(join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      await writeFile(join(consoleDir, '.build.json'), '{}');
    });

    it('answers every page path with index.html under a policy that allows nothing but its own origin, and nothing inline', async () => {
      for (const path of ['/console/', '/console/payouts', '/console/payouts/po_01jd8x3k7m2n4p6q8r0s2t4v6w', '/console/sign-in?next=%2F']) {
        const answer = await send(service.baseUrl, 'GET', path);
        expect(answer.status, path).toBe(200);
        expect(answer.headers.get('content-type')).toContain('text/html');
        expect(answer.text).toBe(page);
        expect(answer.headers.get('cache-control')).toBe('no-cache');
        const policy = answer.headers.get('content-security-policy') ?? '';
        expect(policy).toContain("default-src 'self'");
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).not.toContain('unsafe-inline');
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
      }
    });

    it('serves a hashed asset to be kept for good, and another file to be checked again', async () => {
      const script = await send(service.baseUrl, 'GET', '/console/assets/app-1a2b3c.js');
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('javascript');
      expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const icon = await send(service.baseUrl, 'GET', '/console/favicon.svg');
      expect(icon.status).toBe(200);
      expect(icon.headers.get('cache-control')).toBe('no-cache');
      expect((await send(service.baseUrl, 'HEAD', '/console/payouts')).status).toBe(200);
    });

    it('answers a missing file, or the build manifest, with a 404 problem rather than the page', async () => {
      for (const path of ['/console/assets/gone-000000.js', '/console/.build.json', '/console/nothing.css']) {
        const answer = await send(service.baseUrl, 'GET', path);
        expect(answer.status, path).toBe(404);
        expect(answer.body).toMatchObject({ type: problemType('not-found') });
        expect(answer.body.detail).not.toContain('npm run build');
      }
    });

    it('sends /console to /console/, and leaves /console/api/... and other methods to the operations', async () => {
      const bare = await fetch(`${service.baseUrl}/console`, { redirect: 'manual' });
      expect(bare.status).toBe(308);
      expect(bare.headers.get('location')).toBe('/console/');
      const api = await send(service.baseUrl, 'GET', '/console/api/no-such-operation');
      expect(api.status).toBe(404);
      expect(api.headers.get('content-type')).toContain('application/problem+json');
      const post = await send(service.baseUrl, 'POST', '/console/payouts', { body: {} });
      expect(post.status).not.toBe(200);
      expect(post.text).not.toBe(page);
    });
  });
});

// The HTTP service: every group on one origin at the seed's path prefixes, the token issuer at
// /oauth/token (through group A's router), /health, and the built docs at /docs.
import { existsSync } from 'node:fs';
import express, { type Express } from 'express';
import { subjectOf } from './auth/principal.js';
import type { Config } from './config.js';
import { groupMounts } from './groups/registry.js';
import { notFound, problemHandler } from './http/errors.js';
import { mountGroup } from './http/mount-group.js';
import { rateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import type { Services } from './services.js';

export function createApp(services: Services, config: Pick<Config, 'rateLimitPerMinute' | 'validateResponses' | 'docsDir'>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(requestId);
  app.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      services.log.info(
        { requestId: res.locals.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'request',
      );
    });
    next();
  });

  // CORS preflight: a browser asks before it sends a cross-origin request with an Authorization header.
  // Any origin may call (tokens, never cookies, authenticate), so every preflight is answered the same way.
  app.use((req, res, next) => {
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-Id');
    res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Location, Idempotent-Replayed');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  if (existsSync(config.docsDir)) app.use('/docs', express.static(config.docsDir, { index: 'index.html', fallthrough: true }));

  const callerOf = (authorization: string) => services.tokens.verify(authorization).then(subjectOf, () => undefined);
  app.use(rateLimit(config.rateLimitPerMinute, callerOf));
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));
  for (const mount of groupMounts(services, config.validateResponses)) mountGroup(app, mount);

  app.use(notFound);
  app.use(problemHandler((entry, message) => services.log.error(entry, message)));
  return app;
}

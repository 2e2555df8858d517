// The HTTP service: every group on one origin at the seed's path prefixes, the token issuer at
// /oauth/token (through group A's router), /health, the built docs at /docs and the built console at /console/.
import { existsSync } from 'node:fs';
import express, { type Express, type RequestHandler } from 'express';
import { subjectOf } from '../domain/auth/principal.js';
import type { Config } from '../platform/config.js';
import { groupMounts } from './groups/registry.js';
import { allowedMethods } from './allowed-methods.js';
import { notFound, problemHandler, sendProblem } from './errors.js';
import { groupHandler } from './mount-group.js';
import { chain } from './middleware-chain.js';
import { consoleFiles } from './console-static.js';
import { rateLimit } from './rate-limit.js';
import { Problem } from '../platform/problems.js';
import './locals.js';
import { bodyParsers } from './request-body.js';
import { requestId } from './request-id.js';
import { requestTarget } from './request-target.js';
import { parseQuery } from './query-string.js';
import type { Services } from '../domain/services.js';

export function createApp(
  services: Services,
  config: Pick<Config, 'rateLimitPerMinute' | 'validateResponses' | 'docsDir' | 'consoleDir' | 'environment'> &
    Partial<Pick<Config, 'publicOrigin'>>,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', parseQuery);
  // Only the documented paths, as written: `/V1/PAYEES/1` and `/v1/payees/1/` are not `/v1/payees/{id}`. Express's
  // router and express-openapi-validator's route match both read these settings (http/validator-route-lookup.ts).
  app.enable('case sensitive routing');
  app.enable('strict routing');
  // What every request goes through first, in one chain (http/middleware-chain.ts: fewer router layers):
  // its id, the headers every answer carries, its log line, its target in origin form with a Host, a CORS
  // preflight's answer, and HEAD taken as GET.
  const logged: RequestHandler = (req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    const method = req.method;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      services.log.info({ requestId: res.locals.requestId, method, path: req.path, status: res.statusCode, ms }, 'request');
      // The console's request log: a public API request that authenticated as a merchant or partner (its token
      // verified), kept in memory until the next batch is written (console/request-logs.ts). The path alone, never
      // the query string, a header or the body.
      const principal = res.locals.principal;
      if (principal !== undefined && !req.originalUrl.startsWith('/console/'))
        principal.then(
          (p) =>
            services.requestLogs.record({
              owner: p.kind === 'merchant' ? { kind: 'merchant', id: p.merchantId } : { kind: 'partner', id: p.partnerId },
              method,
              path: req.originalUrl.split('?')[0] ?? '/',
              status: res.statusCode,
              requestId: String(res.locals.requestId ?? ''),
              durationMs: ms,
              clientId: p.clientId ?? null,
            }),
          () => {},
        );
    });
    next();
  };
  // CORS preflight: a browser asks before it sends a cross-origin request with an Authorization header.
  // Any origin may call (tokens, never cookies, authenticate), so every preflight is answered the same way.
  const preflight: RequestHandler = (req, res, next) => {
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-Id');
    res.setHeader(
      'Access-Control-Expose-Headers',
      'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Location, Idempotent-Replayed',
    );
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
  // HEAD is GET without the body (RFC 9110, section 9.3.2): from here on it is handled as the GET it mirrors,
  // checked and authorised the same way. Node already knows the request was HEAD and sends no body.
  const headAsGet: RequestHandler = (req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  };
  app.use(chain([requestId, logged, requestTarget, preflight, headAsGet]));

  // The docs are served whenever they are built, also when `npm run docs` ran after the server started: the static
  // handler looks for each file as it is asked for (one stat), and without the folder a request says how to build it.
  app.use('/docs', express.static(config.docsDir, { index: 'index.html', fallthrough: true }), (req, res, next) => {
    if (existsSync(config.docsDir)) return next();
    const detail = 'The docs are not built on this server: run `npm run docs`, then reload.';
    sendProblem(res, req, new Problem('not-found', detail, { headers: { 'Cache-Control': 'no-store' } }));
  });

  // The console's pages and assets (http/console-static.ts); its API, /console/api/..., passes on to the groups.
  app.use(consoleFiles(config.consoleDir));

  // Every other answer is private to its caller (personal data, account details, tokens, problems that name
  // them): no browser, proxy or CDN may keep a copy. Set before any operation or refusal can answer; the docs'
  // files above are public and keep their own caching.
  const privateAnswers: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  // The path exactly, as the app's strict, case-sensitive routing would match it (HEAD arrives as GET).
  const health: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' || req.path !== '/health') return next();
    res.json({ status: 'ok' });
  };

  // The bearer token is verified once per request: the rate limit counts by the caller it names, and the
  // operation's security handler (groups/registry.ts) takes the same verification.
  const token: RequestHandler = (req, res, next) => {
    if (req.headers.authorization !== undefined) {
      const principal = services.tokens.verify(req.headers.authorization);
      principal.catch(() => {}); // a bad token is answered by the security handler, not here
      res.locals.principal = principal;
    }
    next();
  };
  const mounts = groupMounts(services, config.validateResponses, config.environment, config.publicOrigin);
  app.use(
    chain([
      privateAnswers,
      health,
      token,
      rateLimit(config.rateLimitPerMinute, async (_req, res) => res.locals.principal?.then(subjectOf, () => undefined), services.limits),
      ...bodyParsers,
      ...mounts.map((mount) => groupHandler(mount)),
    ]),
  );

  app.use(notFound(allowedMethods(mounts)));
  app.use(problemHandler((entry, message) => services.log.error(entry, message)));
  return app;
}

// The web console's files at /console/ (built ahead into `consoleDir` by `npm run build`, console/README.md), under a
// strict Content-Security-Policy: every script, style and request of the page is its own origin's, and nothing
// inline runs. An unknown /console/... page path is answered with index.html, so a reload or a shared link opens
// the page the console's router names; /console/api/... is the console's API and never falls back. A missing asset
// stays a 404, so a stale page never gets HTML for a script.
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import express, { type RequestHandler, type Response } from 'express';
import { Problem } from '../platform/problems.js';
import { sendProblem } from './errors.js';

export const consolePath = '/console';

/** The page's policy: its own origin for everything, nothing inline, not framed, forms only to itself. */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', consoleContentSecurityPolicy);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

/** The handler of /console and everything under it but the console's API. */
export function consoleFiles(consoleDir: string): RequestHandler {
  const assets = join(consoleDir, 'assets') + sep;
  const files = express.static(consoleDir, {
    index: false,
    fallthrough: true,
    redirect: false,
    setHeaders(res, path) {
      pageHeaders(res);
      // Vite names each asset by its content's hash: a new build is new names, so an asset may be kept for good.
      res.setHeader('Cache-Control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const noStore = { headers: { 'Cache-Control': 'no-store' } };
  const missing = () =>
    existsSync(join(consoleDir, 'index.html'))
      ? new Problem('not-found', 'The console has no such file.', noStore)
      : new Problem('not-found', 'The console is not built on this server: run `npm run build`, then reload.', noStore);

  return (req, res, next) => {
    const path = req.path;
    if (path !== consolePath && !path.startsWith(`${consolePath}/`)) return next();
    if (path.startsWith(`${consolePath}/api/`) || path === `${consolePath}/api`) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (path === consolePath) {
      res.setHeader('Cache-Control', 'no-store');
      return res.redirect(308, `${consolePath}/`);
    }
    const inner = path.slice(consolePath.length);
    const lastSegment = inner.slice(inner.lastIndexOf('/') + 1);
    // A file the page asks for (it has an extension) is served or refused; any other path is one of the router's pages.
    const original = req.url;
    req.url = lastSegment.includes('.') ? req.url.slice(consolePath.length) : '/index.html';
    files(req, res, () => {
      req.url = original;
      sendProblem(res, req, missing());
    });
  };
}

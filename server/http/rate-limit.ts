// Per-caller rate limit: a one-minute window per caller that opens at the caller's first request (not on
// the clock's minute, which would hand every caller a fresh budget at the same instant), the merchant or partner a valid bearer token
// names (so asking for more tokens buys no more requests), or per client address for a request without a
// token that verifies. Every response carries the RateLimit-* headers; past the limit, a 429 problem with
// Retry-After.
import type { Request, RequestHandler, Response } from 'express';
import { sendProblem } from './errors.js';
import { Problem } from '../problems.js';

/** Who the request's valid token speaks for (`merchant:42`), or undefined when it has none that verifies. */
export type CallerOf = (req: Request, res: Response) => Promise<string | undefined>;

export function rateLimit(perMinute: number, callerOf: CallerOf = async () => undefined, now: () => number = Date.now): RequestHandler {
  const windows = new Map<string, { start: number; used: number }>();
  let lastSweep = now();
  return async (req, res, next) => {
    const caller = await callerOf(req, res);
    const t = now();
    if (t - lastSweep >= 60_000) {
      // Closed windows are dropped once a minute, so the map holds only callers of the last minute.
      for (const [key, w] of windows) if (t - w.start >= 60_000) windows.delete(key);
      lastSweep = t;
    }
    const key = caller ?? `ip:${req.ip}`;
    let window = windows.get(key);
    if (!window || t - window.start >= 60_000) {
      window = { start: t, used: 0 };
      windows.set(key, window);
    }
    const used = ++window.used;
    const reset = Math.max(1, Math.ceil((window.start + 60_000 - t) / 1000));
    res.setHeader('RateLimit-Limit', String(perMinute));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, perMinute - used)));
    res.setHeader('RateLimit-Reset', String(reset));
    if (used > perMinute) {
      sendProblem(
        res,
        req,
        new Problem('rate-limited', `This caller may send ${perMinute} requests a minute; retry after ${reset} seconds.`, {
          headers: { 'Retry-After': String(reset) },
        }),
      );
      return;
    }
    next();
  };
}

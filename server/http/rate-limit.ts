// Per-caller rate limit: a one-minute window per caller that opens at the caller's first request (not on
// the clock's minute, which would hand every caller a fresh budget at the same instant), the merchant or partner a valid bearer token
// names (so asking for more tokens buys no more requests), or per client address for a request without a
// token that verifies. Every response carries the RateLimit-* headers; past the limit, a 429 problem with
// Retry-After.
//
// The counts live where `limits` keeps them (limits/limits.ts): shared by every instance on PostgreSQL or Redis,
// in this process on the embedded store. When the shared store cannot be reached, this limit fails open to this
// process's own memory (the same budget per instance, so at most N budgets with N instances) and the limits
// module logs it: the limit protects capacity, and refusing every request while a counter store is out would turn
// its outage into an outage of the payments API. The failed token request limits fail closed instead.
import type { Request, RequestHandler, Response } from 'express';
import { sendProblem } from './errors.js';
import { type Count, type Limits, memoryLimits } from '../platform/limits/limits.js';
import { Problem } from '../platform/problems.js';

/** Who the request's valid token speaks for (`merchant:42`), or undefined when it has none that verifies. */
export type CallerOf = (req: Request, res: Response) => Promise<string | undefined>;

export function rateLimit(perMinute: number, callerOf: CallerOf = async () => undefined, limits: Limits = memoryLimits()): RequestHandler {
  const shared = limits.limiter('rate', perMinute, 60, { refuseSpentLocally: true });
  const local = limits.kind === 'memory' ? shared : limits.local('rate', perMinute, 60);
  return async (req, res, next) => {
    const caller = await callerOf(req, res);
    const key = caller ?? `ip:${req.ip}`;
    let count: Count;
    try {
      count = await shared.consume(key);
    } catch {
      count = await local.consume(key);
    }
    const reset = Math.max(1, Math.ceil(count.msBeforeNext / 1000));
    res.setHeader('RateLimit-Limit', String(perMinute));
    res.setHeader('RateLimit-Remaining', String(count.remaining));
    res.setHeader('RateLimit-Reset', String(reset));
    if (!count.allowed) {
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

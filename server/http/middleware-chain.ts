// Runs middleware in turn, as an Express router runs what it holds, without a router: a router matches every
// layer's path and sets up its own state on each request (a fifth of a GET's framework CPU went to the group's
// nested router, bench/README.md). For middleware that applies to every request it is given: an error (thrown,
// rejected or passed to `next`) and the end of the list both go to the caller's `next`. One `next` per request
// and chain, not one per step: fewer closures for the collector on every request.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown) => {
      if (err) return next(err);
      if (i === handlers.length) return next();
      const handler = handlers[i++]!;
      try {
        const returned = handler(req, res, step) as unknown;
        if (returned instanceof Promise) returned.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

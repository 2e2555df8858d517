// Runs middleware in turn, as an Express router runs what it holds, without a router: a router matches every
// layer's path and sets up its own state on each request (a fifth of a GET's framework CPU went to the group's
// nested router, bench/README.md). For middleware that applies to every request it is given: an error (thrown,
// rejected or passed to `next`) and the end of the list both go to the caller's `next`.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const step = (i: number) => (err?: unknown) => {
      if (err) return next(err);
      if (i === handlers.length) return next();
      try {
        const returned = handlers[i]!(req, res, step(i + 1)) as unknown;
        if (returned instanceof Promise) returned.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step(0)();
  };
}

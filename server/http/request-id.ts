// X-Request-Id: echoed when the caller sends a well-formed one, otherwise assigned; set on every response.
import type { RequestHandler, Response } from 'express';
import { randomBytesFromPool } from '../platform/ids/random-pool.js';

const wellFormed = /^[A-Za-z0-9._-]{1,64}$/;

export const requestId: RequestHandler = (req, res, next) => {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && wellFormed.test(given) ? given : `req_${randomBytesFromPool(8).toString('hex')}`;
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? '');

// What every handler knows about its request besides the operation's own inputs.
import type { Request } from 'express';
import type { Principal } from '../auth/principal.js';
import { Problem } from './problem.js';

export interface RequestContext {
  principal: Principal | undefined;
  ip: string;
  requestId: string;
}

export const contextOf = (req: Request, principal?: Principal): RequestContext => ({
  principal,
  ip: req.ip ?? 'unknown',
  requestId: String(req.res?.locals.requestId ?? ''),
});

/** The calling merchant; the security handlers guarantee one on merchant operations. */
export function merchantOf(context: RequestContext): number {
  if (context.principal?.kind !== 'merchant') throw new Problem('forbidden', 'This operation needs a merchant token from /oauth/token.');
  return context.principal.merchantId;
}

export function partnerOf(context: RequestContext): number {
  if (context.principal?.kind !== 'partner') throw new Problem('forbidden', 'This operation needs a partner token.');
  return context.principal.partnerId;
}

// What every handler knows about its request besides the operation's own inputs (auth/principal.ts's
// RequestContext), built from the Express request, and the caller kinds an operation requires.
import type { Request } from 'express';
import type { Principal, RequestContext } from '../auth/principal.js';
import { Problem } from '../problems.js';

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

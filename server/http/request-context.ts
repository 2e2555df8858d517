// What every handler knows about its request besides the operation's own inputs (auth/principal.ts's
// RequestContext), built from the Express request, and each caller kind's context: what the group's security
// handler decided (groups/registry.ts), so a handler never checks the token again.
import type { Request } from 'express';
import type { Principal, RequestContext } from '../domain/auth/principal.js';

export const contextOf = (req: Request, principal?: Principal): RequestContext => ({
  principal,
  ip: req.ip ?? 'unknown',
  requestId: String(req.res?.locals.requestId ?? ''),
});

/** The context of a merchant operation (groups A, B and D): the calling merchant, as its token says. */
export interface MerchantContext extends RequestContext {
  merchantId: number;
}

/** The context of a partner operation (groups C and E): the calling partner, as its token says. */
export interface PartnerContext extends RequestContext {
  partnerId: number;
}

export const merchantContext = (req: Request, principal: Principal & { kind: 'merchant' }): MerchantContext => ({
  ...contextOf(req, principal),
  merchantId: principal.merchantId,
});

export const partnerContext = (req: Request, principal: Principal & { kind: 'partner' }): PartnerContext => ({
  ...contextOf(req, principal),
  partnerId: principal.partnerId,
});

// What one request carries from middleware to middleware, typed: Express's `res.locals`, never module-level maps.
import type { Principal } from '../domain/auth/principal.js';
import type { Request as ExpressRequest } from 'express';
import type { Problem } from '../platform/problems.js';

declare global {
  // Express declares `res.locals` as `Express.Locals`; this is how its fields are typed.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The request's id, echoed or assigned (request-id.ts). */
      requestId?: string;
      /** The Authorization header's token, verified once for the rate limit and the security handler alike. */
      principal?: Promise<Principal>;
      /** The caller's context, resolved by the operation's security handler. */
      context?: unknown;
      /** A problem a security handler raised, which express-openapi-validator re-wraps; answered as is. */
      authProblem?: Problem;
      /** The request came with a zero-length body, which is no body (app.ts). */
      emptyBody?: boolean;
      /** The mounted group's security handlers, for the process-wide validator (mount-group.ts). */
      groupSecurity?: Record<string, (req: ExpressRequest) => Promise<boolean>>;
      /** Where the mounted group reports a write's response that broke the contract (mount-group.ts). */
      onContractViolation?: (violation: ContractViolation) => void;
    }
  }
}

export interface ContractViolation {
  method: string;
  path: string;
  status: number;
  errors: unknown;
}

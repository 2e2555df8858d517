// The one sandbox guard: what exists only in the sandbox environment (openapi/DECISIONS.md, "Sandbox simulations"
// and "Production without a rail"). The simulations (`simulate...` operations) are left out of production's
// documents and routes (groups/registry.ts), so they answer as unknown paths there; a request's sandbox-only
// option is refused, not ignored; the sandbox's rail, bank and verification outcomes are built only here
// (services.ts).
import type { Environment } from '../platform/environment.js';
import { Problem, type FieldError } from '../platform/problems.js';

/** Whether the sandbox's rail, bank and simulations exist. */
export const isSandbox = (environment: Environment): boolean => environment === 'sandbox';

/** The sandbox's simulations: the operations that exist only there. */
export const isSandboxOnlyOperation = (operationId: string): boolean => operationId.startsWith('simulate');

/**
 * Refuses a sandbox-only option of a request outside the sandbox (422 `business-rule` naming the field): it would
 * mean nothing on a real rail, so code written against the sandbox cannot rely on it in production by mistake.
 */
export function requireSandbox(environment: Environment, detail: string, field: FieldError): void {
  if (!isSandbox(environment)) throw new Problem('business-rule', detail, { errors: [field] });
}

// Group B, the payout platform API: the same payees and payouts as group A, so the same handlers (the
// shared path items make the types identical, and tsc checks that they are), plus the fee preview.
import type { OperationId } from '../../../../generated/platform/routes.js';
import type { operations } from '../../../../generated/platform/schema.js';
import { calculateFee } from '../../../domain/fees/fee-calculator.js';
import type { GroupHandlers } from '../../operation-handler.js';
import type { MerchantContext } from '../../request-context.js';
import { ok } from '../../results.js';
import type { Services } from '../../../domain/services.js';
import { merchantHandlers } from '../merchant/handlers.js';

export type PlatformHandlers = GroupHandlers<operations, OperationId, MerchantContext, 'issueToken'>;

export function platformHandlers(s: Services): PlatformHandlers {
  const a = merchantHandlers(s);
  return {
    issueToken: a.issueToken,
    createPayee: a.createPayee,
    getPayee: a.getPayee,
    listPayees: a.listPayees,
    createPayout: a.createPayout,
    listPayouts: a.listPayouts,
    getPayout: a.getPayout,
    simulatePayoutRelease: a.simulatePayoutRelease,
    simulatePayoutFailure: a.simulatePayoutFailure,
    simulatePayoutReturn: a.simulatePayoutReturn,
    listEvents: a.listEvents,
    getEvent: a.getEvent,
    // Any merchant's token (the security handler refused others); the fee schedule is the same for all.
    calculateFees: async ({ body }) => ok(calculateFee(body)),
  };
}

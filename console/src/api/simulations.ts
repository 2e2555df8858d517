// The sandbox's test helpers (the contract's `simulate...` operations, answered only in the sandbox), each with the
// event it caused, found in the events list as any integrator would find it.
import { type BankingComponents, type MerchantComponents, unwrap } from '@payout-service/client';
import type { Clients } from './clients.js';
import { type AnyEvent, eventsOf, findEvent } from './events.js';

type M = MerchantComponents['schemas'];
type B = BankingComponents['schemas'];

export interface Simulated<T> {
  /** What the simulation answered: the payout, transfer, verification or payment as it is now. */
  result: T;
  /** The event it caused, once written; undefined if none came in time. */
  event: AnyEvent | undefined;
}

const field = (event: AnyEvent, name: string): Record<string, unknown> | undefined => {
  const value = (event as unknown as Record<string, unknown>)[name];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
};

export function merchantSimulations(clients: Extract<Clients, { kind: 'merchant' }>) {
  const { merchant, banking } = clients;
  const events = eventsOf(clients);
  const payoutEvent = (reference: string, type: M['EventType']) => findEvent(events, { types: [type], payout: reference }, () => true);
  const transferEvent = (transferId: number, type: M['EventType']) =>
    findEvent(events, { types: [type] }, (e) => field(e, 'transfer')?.id === transferId);
  return {
    async returnPayout(reference: string, ReturnCode: M['AchReturnCode']): Promise<Simulated<M['Payout']>> {
      const path = { PayoutUniqueReference: reference };
      const result = await unwrap(
        merchant.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', { params: { path }, body: { ReturnCode } }),
      );
      return { result, event: await payoutEvent(reference, 'payout.returned') };
    },
    async failPayout(reference: string, Reason: M['PayoutFailureSimulationRequest']['Reason']): Promise<Simulated<M['Payout']>> {
      const path = { PayoutUniqueReference: reference };
      const result = await unwrap(
        merchant.POST('/v1/simulations/payouts/{PayoutUniqueReference}/failure', { params: { path }, body: { Reason } }),
      );
      return { result, event: await payoutEvent(reference, 'payout.failed') };
    },
    async releasePayout(reference: string): Promise<Simulated<M['Payout']>> {
      const path = { PayoutUniqueReference: reference };
      const result = await unwrap(merchant.POST('/v1/simulations/payouts/{PayoutUniqueReference}/release', { params: { path } }));
      // Released, the payout moves when the rail takes it: its next event is `payout.processing`.
      return { result, event: await payoutEvent(reference, 'payout.processing') };
    },
    async settleTransfer(
      transferId: number,
      status: B['TransferSettlementSimulationRequest']['status'],
    ): Promise<Simulated<B['Transfer']>> {
      const result = await unwrap(
        banking.POST('/finance/api/v1/simulations/transfers/{transferId}/settlement', {
          params: { path: { transferId } },
          body: { status },
        }),
      );
      return { result, event: await transferEvent(transferId, status === 'completed' ? 'transfer.completed' : 'transfer.failed') };
    },
    async returnTransfer(transferId: number, returnCode: B['ReturnCode']): Promise<Simulated<B['Transfer']>> {
      const result = await unwrap(
        banking.POST('/finance/api/v1/simulations/transfers/{transferId}/return', {
          params: { path: { transferId } },
          body: { returnCode },
        }),
      );
      return { result, event: await transferEvent(transferId, 'transfer.returned') };
    },
    async decideVerification(
      verificationId: number,
      status: B['VerificationDecisionSimulationRequest']['status'],
      reason?: B['VerificationReasonCode'],
    ): Promise<Simulated<B['IdentityVerification']>> {
      const reasons = status === 'approved' || !reason ? undefined : [{ code: reason, message: 'Decided in the console’s sandbox.' }];
      const result = await unwrap(
        banking.POST('/finance/api/v1/simulations/identity-verification/{verificationId}/decision', {
          params: { path: { verificationId } },
          body: { status, reasons },
        }),
      );
      const event = await findEvent(events, { types: ['verification.updated'] }, (e) => {
        const v = field(e, 'verification');
        return v?.id === verificationId && v.status === result.status;
      });
      return { result, event };
    },
  };
}

export function partnerSimulations(clients: Extract<Clients, { kind: 'partner' }>) {
  const events = eventsOf(clients);
  return {
    async returnPayment(paymentId: number, returnCode: string) {
      const result = await unwrap(
        clients.partner.POST('/finance/v1/simulations/payment_request/{paymentId}/return', {
          params: { path: { paymentId } },
          body: { returnCode },
        }),
      );
      const event = await findEvent(events, { types: ['payment.returned'] }, (e) => field(e, 'payment')?.paymentId === paymentId);
      return { result, event };
    },
  };
}

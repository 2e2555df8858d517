// The sandbox decides at once and deterministically, so a test can reach every branch from its inputs
// (openapi/DECISIONS.md, "Sandbox verification outcomes" and "Sandbox transfer outcomes"):
//
// Identity verifications
//   BUSINESS, by the last 4 digits of the business's taxId: 0000 → rejected (tax_id_mismatch),
//     1111 → needs_review (watchlist_potential_match), 2222 → stays pending, anything else → approved.
//   PERSON, by lastName (case-insensitive): Reject → rejected (watchlist_match), Review → needs_review
//     (watchlist_potential_match), Pending → stays pending, anything else → approved.
//   Sandbox verifications never change afterwards.
//
// Transfers (ACH and wires), by the last two digits of the amount in minor units (the cents for USD):
//   91 → returned (ACH pull R01, ACH push R02, wires returned as account closed), 92 → failed,
//   93 → stays processing, anything else → completed. Internal transfers always complete.
import type { components } from '../../../generated/banking/schema.js';
import type { OutboundRail, VerificationStatus } from '../../platform/store/banking-schema.js';

type Schemas = components['schemas'];
export type VerificationReason = Schemas['VerificationReason'];
export type TransferReason = Schemas['TransferReason'];

export interface VerificationOutcome {
  status: VerificationStatus;
  reasons: VerificationReason[];
}

/** How a new verification is decided at once (verifications.ts): the sandbox's tables, or none in production. */
export type FirstDecision = (
  business: { tax_id: string },
  person: Schemas['IdentityVerificationPerson'] | undefined,
) => VerificationOutcome;

export function businessVerificationOutcome(taxId: string): VerificationOutcome {
  switch (taxId.replace(/[^0-9]/g, '').slice(-4)) {
    case '0000':
      return {
        status: 'rejected',
        reasons: [{ code: 'tax_id_mismatch', message: 'The EIN does not match the legal name on IRS records.' }],
      };
    case '1111':
      return {
        status: 'needs_review',
        reasons: [
          {
            code: 'watchlist_potential_match',
            message: "The business's name partly matches a sanctions list entry; an analyst will decide.",
          },
        ],
      };
    case '2222':
      return { status: 'pending', reasons: [] };
    default:
      return { status: 'approved', reasons: [] };
  }
}

/** The sandbox's decision on a new verification: a person's by last name, the business's by its tax id. */
export const sandboxDecision: FirstDecision = (business, person) =>
  person ? personVerificationOutcome(person.lastName) : businessVerificationOutcome(business.tax_id);

export function personVerificationOutcome(lastName: string): VerificationOutcome {
  switch (lastName.toLowerCase()) {
    case 'reject':
      return { status: 'rejected', reasons: [{ code: 'watchlist_match', message: 'The person matches a sanctions list entry.' }] };
    case 'review':
      return {
        status: 'needs_review',
        reasons: [
          {
            code: 'watchlist_potential_match',
            message: 'The name and year of birth partly match a sanctions list entry; an analyst will decide.',
          },
        ],
      };
    case 'pending':
      return { status: 'pending', reasons: [] };
    default:
      return { status: 'approved', reasons: [] };
  }
}

export type TransferOutcome = { status: 'completed' | 'processing' } | { status: 'failed' | 'returned'; reasons: TransferReason[] };

const returnReasons: Record<OutboundRail, TransferReason> = {
  ACH_PULL: {
    code: 'insufficient_funds',
    networkCode: 'R01',
    message: "The counterparty's bank returned the debit for insufficient funds.",
  },
  ACH_PUSH: { code: 'account_closed', networkCode: 'R02', message: "The counterparty's bank returned the credit: the account is closed." },
  WIRE_DOMESTIC: {
    code: 'account_closed',
    networkCode: 'AC04',
    message: "The beneficiary's bank returned the wire: the account is closed.",
  },
  WIRE_INTERNATIONAL: {
    code: 'account_closed',
    networkCode: 'AC04',
    message: "The beneficiary's bank returned the wire: the account is closed.",
  },
};

const failureReasons: Record<OutboundRail, TransferReason> = {
  ACH_PULL: { code: 'network_rejected', networkCode: null, message: 'The ACH operator rejected the entry.' },
  ACH_PUSH: { code: 'network_rejected', networkCode: null, message: 'The ACH operator rejected the entry.' },
  WIRE_DOMESTIC: { code: 'beneficiary_bank_rejected', networkCode: null, message: "The beneficiary's bank rejected the wire." },
  WIRE_INTERNATIONAL: { code: 'beneficiary_bank_rejected', networkCode: null, message: "The beneficiary's bank rejected the wire." },
};

/** The final state the sandbox rail gives an ACH or wire transfer of this amount (minor units of its currency). */
export function transferOutcome(type: OutboundRail, amountMinor: number): TransferOutcome {
  switch (amountMinor % 100) {
    case 91:
      return { status: 'returned', reasons: [returnReasons[type]] };
    case 92:
      return { status: 'failed', reasons: [failureReasons[type]] };
    case 93:
      return { status: 'processing' };
    default:
      return { status: 'completed' };
  }
}

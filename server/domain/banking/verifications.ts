// Identity verifications of a business (KYB) and of its people (KYC), and the business's combined
// verificationStatus. Life cycle: pending → approved | rejected | needs_review; needs_review → approved |
// rejected; approved and rejected are final. The sandbox decides at creation (sandbox-outcomes.ts), so the
// 201 carries the outcome and the business's status is recombined in the same transaction; in production nothing
// decides in this build, so a verification stays `pending` until a decision comes (`decide`).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import type { BusinessVerificationStatus, VerificationStatus } from '../../platform/store/banking-schema.js';
import type { Environment } from '../../platform/environment.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import type { Database } from '../../platform/store/schema.js';
import { findBusiness } from './lookups.js';
import { recordVerificationEvent } from './transfer-events.js';
import type { FirstDecision } from './sandbox-outcomes.js';
import { BankingReads } from './reads.js';
import { toVerification, type IdentityVerification } from './views.js';

type Schemas = components['schemas'];
type Person = Schemas['IdentityVerificationPerson'];

export const allowedVerificationTransitions: Readonly<Record<VerificationStatus, readonly VerificationStatus[]>> = {
  pending: ['approved', 'rejected', 'needs_review'],
  needs_review: ['approved', 'rejected'],
  approved: [],
  rejected: [],
};

/** A check still running: another of the same subject is refused until it is decided. */
const running: VerificationStatus[] = ['pending', 'needs_review'];

/**
 * The business's verificationStatus over all its verifications: unverified with none; else rejected if any
 * is, else needs_review if any, else pending if any; else approved once a BUSINESS verification is approved.
 * Approved people without an approved business check leave the business unverified.
 */
export function combinedStatus(
  verifications: { subject: 'BUSINESS' | 'PERSON'; status: VerificationStatus }[],
): BusinessVerificationStatus {
  const has = (status: VerificationStatus) => verifications.some((v) => v.status === status);
  if (has('rejected')) return 'rejected';
  if (has('needs_review')) return 'needs_review';
  if (has('pending')) return 'pending';
  return verifications.some((v) => v.subject === 'BUSINESS' && v.status === 'approved') ? 'approved' : 'unverified';
}

/** Rewrites the business's verificationStatus after one of its verifications changed; call in that transaction. */
export async function recombine(db: Kysely<Database>, businessId: number, now: number): Promise<void> {
  const verifications = await db
    .selectFrom('banking_verifications')
    .select(['subject', 'status'])
    .where('business_id', '=', businessId)
    .execute();
  const status = combinedStatus(verifications);
  await db
    .updateTable('banking_businesses')
    .set({ verification_status: status, updated_at: now })
    .where('id', '=', businessId)
    .where('verification_status', '!=', status)
    .execute();
}

/** Identifies the same person across requests without keeping the number: a hash of the tax id or document. */
function personKey(person: Person): string {
  const identity = person.taxId
    ? `tax:${person.taxId.replace(/[^0-9]/g, '')}`
    : `doc:${person.idDocument?.issuingCountry}:${person.idDocument?.type}:${person.idDocument?.number.toUpperCase()}`;
  return `PERSON:${createHash('sha256').update(identity).digest('hex')}`;
}

function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

function checkPerson(person: Person): void {
  const today = new Date().toISOString().slice(0, 10);
  if (ageOn(person.dateOfBirth, today) < 18) {
    throw new Problem('business-rule', 'The person must be 18 or older.', {
      errors: [bodyField('person.dateOfBirth', 'must be at least 18 years ago')],
    });
  }
  const expires = person.idDocument?.expirationDate;
  if (!person.taxId && expires && expires < today) {
    throw new Problem('business-rule', `The identity document expired on ${expires}.`, {
      errors: [bodyField('person.idDocument.expirationDate', 'the document has expired')],
    });
  }
}

/** The decision taken when a verification is made: the sandbox's (sandbox-outcomes.ts), or none. */

/** Production's in this build, which has no adapter to a verification provider: the check stays `pending`
 * (openapi/DECISIONS.md, "Production without a rail"). */
export const noDecision: FirstDecision = () => ({ status: 'pending', reasons: [] });

export class Verifications {
  constructor(
    private readonly store: Store,
    private readonly settings: { environment: Environment; firstDecision: FirstDecision; onChange?: () => void },
  ) {
    this.reads = new BankingReads(store);
  }

  /** What a replayed create answers: the resource as it is now. */
  private readonly reads: BankingReads;

  async create(
    merchantId: number,
    body: Schemas['IdentityVerificationCreateRequest'],
    idempotencyKey?: string,
  ): Promise<StoredResponse<IdentityVerification>> {
    const person = body.subject === 'PERSON' ? body.person : undefined;
    if (person) checkPerson(person);
    const result = await idempotent(this.store, claimOf(`merchant:${merchantId}`, 'createIdentityVerification', idempotencyKey, body), {
      current: (first: IdentityVerification) => this.reads.verification(merchantId, first.id),
      run: async (trx) => {
        // The business row lock serializes verifications of one business: the running-check test cannot race.
        const business = await findBusiness(
          trx,
          merchantId,
          body.businessId,
          bodyField('businessId', 'unknown business'),
          this.store.dialect,
        );
        if (business.status !== 'active') {
          throw new Problem('business-rule', `Business ${body.businessId} is ${business.status}; only an active business is verified.`, {
            errors: [bodyField('businessId', `business is ${business.status}`)],
          });
        }
        const subjectKey = person ? personKey(person) : 'BUSINESS';
        const earlier = await trx
          .selectFrom('banking_verifications')
          .select(['id', 'status'])
          .where('business_id', '=', body.businessId)
          .where('subject_key', '=', subjectKey)
          .where('status', 'in', running)
          .executeTakeFirst();
        if (earlier) {
          const who = person ? 'this person' : 'the business';
          throw new Problem('conflict', `Verification ${earlier.id} of ${who} is still ${earlier.status}; wait for its decision.`, {
            errors: [bodyField(person ? 'person' : 'subject', 'a verification of this subject is running')],
          });
        }
        const outcome = this.settings.firstDecision(business, person);
        const now = Date.now();
        const decided = outcome.status === 'approved' || outcome.status === 'rejected';
        const row = await trx
          .insertInto('banking_verifications')
          .values({
            business_id: body.businessId,
            merchant_id: merchantId,
            environment: this.settings.environment,
            subject: body.subject,
            subject_key: subjectKey,
            person: person
              ? JSON.stringify({
                  firstName: person.firstName,
                  lastName: person.lastName,
                  roles: person.roles,
                  ownershipPercentage: person.ownershipPercentage ?? null,
                })
              : null,
            person_details: person
              ? JSON.stringify({
                  dateOfBirth: person.dateOfBirth,
                  email: person.email ?? null,
                  phone: person.phone ?? null,
                  address: person.address,
                  idDocument: person.idDocument
                    ? {
                        type: person.idDocument.type,
                        issuingCountry: person.idDocument.issuingCountry,
                        expirationDate: person.idDocument.expirationDate ?? null,
                      }
                    : null,
                })
              : null,
            status: outcome.status,
            reasons: JSON.stringify(outcome.reasons),
            created_at: now,
            updated_at: now,
            decided_at: decided ? now : null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recombine(trx, body.businessId, now);
        await recordVerificationEvent(trx, row, now);
        return { status: 201, body: toVerification(row) };
      },
    });
    // A verification decided at once wrote verification.updated: the dispatcher is told.
    if (!result.replayed) this.settings.onChange?.();
    return result;
  }

  /**
   * An analyst's or provider's decision on a running verification (the sandbox's simulateVerificationDecision, or
   * the bank's back office). Compare-and-set on the current status, then the business's status is recombined and
   * `verification.updated` is written. With `merchantId`, another merchant's verification is not found.
   */
  async decide(
    verificationId: number,
    to: VerificationStatus,
    reasons: Schemas['VerificationReason'][] = [],
    merchantId?: number,
  ): Promise<IdentityVerification> {
    const decided = await this.store.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('banking_verifications')
        .selectAll()
        .where('id', '=', verificationId)
        .$if(merchantId !== undefined, (q) => q.where('merchant_id', '=', merchantId!))
        .executeTakeFirst();
      if (!row) throw new Problem('not-found', `No verification with id ${verificationId} exists for this merchant.`);
      if (!allowedVerificationTransitions[row.status].includes(to))
        throw new Problem('conflict', `Verification ${verificationId} is ${row.status}; it cannot become ${to}.`);
      const now = Date.now();
      const decided = to === 'approved' || to === 'rejected';
      const updated = await trx
        .updateTable('banking_verifications')
        .set({ status: to, reasons: JSON.stringify(reasons), updated_at: now, decided_at: decided ? now : null })
        .where('id', '=', verificationId)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new Problem('conflict', `Verification ${verificationId} changed meanwhile; read it again.`);
      await recombine(trx, Number(row.business_id), now);
      await recordVerificationEvent(trx, updated, now);
      return toVerification(updated);
    });
    this.settings.onChange?.();
    return decided;
  }
}

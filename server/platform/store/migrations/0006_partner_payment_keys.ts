// partnerPaymentUniqueId moved onto the one idempotency mechanism (store/idempotency.ts), which keeps its keys
// in idempotency_keys. Each payment made before with such an id gets its key there, so a retry of it still
// replays (200) rather than running into the payments' unique index. A replay reads the payment as it is now,
// so the stored response needs only its paymentId. Keys already there are left alone.
import { sql, type Kysely, type Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`
        insert into idempotency_keys (scope, key, request_hash, status, body, created_at)
        select 'partner:' || p.partner_id || ':partnerPaymentUniqueId', p.partner_payment_unique_id, p.request_hash, 201,
               '{"paymentId":' || p.payment_id || '}', p.created_at
        from payments p
        where p.partner_id is not null and p.partner_payment_unique_id is not null
          and not exists (
            select 1 from idempotency_keys k
            where k.scope = 'partner:' || p.partner_id || ':partnerPaymentUniqueId' and k.key = p.partner_payment_unique_id
          )`.execute(db);
    },
  };
}

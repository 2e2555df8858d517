// The console's tables as Kysely sees them; merged into `Database` by schema.ts. Timestamps are epoch
// milliseconds, as elsewhere.
import type { Generated } from 'kysely';

export type OwnerKind = 'merchant' | 'partner';

export interface ConsoleUserTable {
  id: Generated<number>;
  /** `cu_...`, what responses name the user by. */
  public_id: string;
  /** As given. */
  email: string;
  /** The address folded (case-folding.ts): unique. */
  email_key: string;
  /** `scrypt$N$r$p$salt$hash` (console/passwords.ts). */
  password_hash: string;
  owner_kind: OwnerKind;
  owner_id: number;
  created_at: number;
}

export interface ConsoleSessionTable {
  /** `cs_...`, the `sid` claim of the session's access tokens. */
  id: string;
  /** SHA-256 of the cookie's token: the token itself is never stored. */
  token_hash: string;
  csrf_token: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  /** The absolute end (12 hours after sign-in by default). */
  expires_at: number;
  /** Set at sign-out. */
  ended_at: number | null;
}

export interface RequestLogTable {
  id: Generated<number>;
  owner_kind: OwnerKind;
  owner_id: number;
  at: number;
  method: string;
  path: string;
  status: number;
  request_id: string;
  /** Microseconds, so both stores keep an integer. */
  duration_us: number;
  client_id: string | null;
}

export interface ConsoleTables {
  console_users: ConsoleUserTable;
  console_sessions: ConsoleSessionTable;
  request_logs: RequestLogTable;
}

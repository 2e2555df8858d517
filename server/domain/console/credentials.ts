// The console's view of a merchant's or partner's API credentials (auth/credentials.ts holds them): listed without
// secrets, created and rolled with the new secret shown once, revoked. Another owner's Client ID is not found.
import type { components } from '../../../generated/console/schema.js';
import { Problem } from '../../platform/problems.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import type { ClientRecord, Credentials } from '../auth/credentials.js';
import type { Owner } from '../events/owners.js';

type Schemas = components['schemas'];

const notFound = (owner: Owner, clientId: string) =>
  new Problem('not-found', `No active credential ${clientId} exists for this ${owner.kind}.`);
const orNull = (ms: number | null) => (ms === null ? null : isoTimestamp(ms));

const toCredential = (r: ClientRecord): Schemas['ConsoleCredential'] => ({
  clientId: r.clientId,
  createdAt: isoTimestamp(r.createdAt),
  lastUsedAt: orNull(r.lastUsedAt),
  rolledAt: orNull(r.rolledAt),
  previousSecretExpiresAt: orNull(r.previousUntil),
});

export class ConsoleCredentials {
  constructor(private readonly credentials: Credentials) {}

  async list(owner: Owner, query: { PageSize?: number; Cursor?: string }): Promise<Schemas['ConsoleCredentialList']> {
    const { data, nextCursor } = await this.credentials.listFor(owner, query);
    return { data: data.map(toCredential), nextCursor };
  }

  async create(owner: Owner): Promise<Schemas['ConsoleCredentialCreated']> {
    const { clientId, clientSecret, createdAt } = await this.credentials.createFor(owner);
    return { clientId, clientSecret, createdAt: isoTimestamp(createdAt) };
  }

  async roll(owner: Owner, clientId: string, overlapSeconds: number): Promise<Schemas['ConsoleCredentialRolled']> {
    const rolled = await this.credentials.roll(clientId, overlapSeconds, owner);
    if (!rolled) throw notFound(owner, clientId);
    return {
      clientId,
      clientSecret: rolled.clientSecret,
      rolledAt: isoTimestamp(rolled.rolledAt),
      previousSecretExpiresAt: orNull(rolled.previousUntil),
    };
  }

  async revoke(owner: Owner, clientId: string): Promise<void> {
    if (!(await this.credentials.revoke(clientId, owner))) throw notFound(owner, clientId);
  }
}

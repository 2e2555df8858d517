// Console users: an email address (one user per address, compared without regard to case), a scrypt hash of the
// password (passwords.ts), and the one merchant or partner the user belongs to. Created by the admin CLI only.
import { newConsoleUserId } from '../../platform/ids/identifiers.js';
import { foldCase } from '../../platform/store/case-folding.js';
import type { Store } from '../../platform/store/database.js';
import type { Owner } from '../events/owners.js';
import { hashPassword, passwordRules } from './passwords.js';

/** A user that cannot be created as asked; the message says why (the CLI prints it). Never quotes the password. */
export class ConsoleUserRefused extends Error {}

export interface CreatedConsoleUser {
  userId: string;
  email: string;
  owner: Owner;
}

// The contract's `format: email` in practice: one @, no spaces, a dot in the domain; 254 characters at most.
const emailShape = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/u;

export class ConsoleUsers {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async create(owner: Owner, email: string, password: string): Promise<CreatedConsoleUser> {
    const address = email.trim();
    if (address.length > 254 || !emailShape.test(address)) throw new ConsoleUserRefused(`"${address}" is not an email address.`);
    const length = [...password].length;
    if (length < passwordRules.minLength || length > passwordRules.maxLength || /[\x00-\x1f\x7f]/.test(password))
      throw new ConsoleUserRefused(
        `The password must be ${passwordRules.minLength} to ${passwordRules.maxLength} characters, without control characters.`,
      );
    const table = owner.kind === 'merchant' ? 'merchants' : 'partners';
    const exists = await this.store.db.selectFrom(table).select('id').where('id', '=', owner.id).executeTakeFirst();
    if (!exists) throw new ConsoleUserRefused(`No ${owner.kind} ${owner.id}.`);
    const emailKey = foldCase(address);
    const taken = await this.store.db.selectFrom('console_users').select('id').where('email_key', '=', emailKey).executeTakeFirst();
    if (taken) throw new ConsoleUserRefused(`A console user with the email address ${address} exists already.`);
    const userId = newConsoleUserId();
    const passwordHash = await hashPassword(password);
    try {
      await this.store.db
        .insertInto('console_users')
        .values({
          public_id: userId,
          email: address,
          email_key: emailKey,
          password_hash: passwordHash,
          owner_kind: owner.kind,
          owner_id: owner.id,
          created_at: this.now(),
        })
        .execute();
    } catch (err) {
      // Two creates of one address at once: the unique index decides, and the loser is told as above.
      const again = await this.store.db.selectFrom('console_users').select('id').where('email_key', '=', emailKey).executeTakeFirst();
      if (again) throw new ConsoleUserRefused(`A console user with the email address ${address} exists already.`);
      throw err;
    }
    return { userId, email: address, owner };
  }
}

// The admin CLI's commands: what each takes, what it says in its help, and what it does to the store. cli.ts
// parses the arguments against these and prints; nothing here writes to the terminal.
import { generationCacheSeconds } from '../domain/auth/client-generations.js';
import { ConsoleUserRefused } from '../domain/console/users.js';
import type { Services } from '../domain/services.js';

export interface CommandOption {
  flag: string;
  /** The value's placeholder; a flag without one is a switch. */
  value?: string;
  text: string;
  required?: boolean;
}

/** What a command found or made: `json` for `--json`, `lines` for people, `notes` said besides (stderr under --json),
 * and `audit`, the change an operator made to who may act for whom, logged as one JSON line on stderr. */
export interface CommandResult {
  json: object;
  lines: string[];
  notes?: string[];
  audit?: { action: string } & Record<string, unknown>;
}

export class UsageError extends Error {}

export interface AdminCommand {
  name: string;
  summary: string;
  options: CommandOption[];
  run(values: Record<string, string | boolean | undefined>, services: AdminServices): Promise<CommandResult>;
}

/** What the commands change the store through: the server's own services (start.ts, without HTTP or workers). */
export type AdminServices = Pick<Services, 'credentials' | 'consoleUsers'>;

const json: CommandOption = { flag: 'json', text: 'print the result as one line of JSON, and nothing else on stdout' };
const secretNote = 'The Client Secret is shown only now: store it safely.';
const partnerOption: CommandOption = {
  flag: 'partner',
  value: 'id',
  text: "the partner's id: partnerId from create-partner",
  required: true,
};
const merchantOption: CommandOption = {
  flag: 'merchant',
  value: 'id',
  text: "the merchant's id: merchantId from create-merchant",
  required: true,
};

function text(values: Record<string, string | boolean | undefined>, flag: string): string {
  const raw = values[flag];
  if (typeof raw !== 'string' || !raw.trim()) throw new UsageError(`--${flag} needs a value.`);
  return raw.trim();
}

function id(values: Record<string, string | boolean | undefined>, flag: string): number {
  const raw = values[flag];
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(n) || n < 1) throw new UsageError(`--${flag} needs a positive integer id.`);
  return n;
}

export const commands: AdminCommand[] = [
  {
    name: 'create-merchant',
    summary: 'a merchant and its client credentials (the Client Secret is shown once)',
    options: [{ flag: 'name', value: 'name', text: "the merchant's name", required: true }, json],
    async run(values, { credentials }) {
      const name = text(values, 'name');
      const r = await credentials.createMerchant(name);
      return {
        json: r,
        lines: [`Merchant ${r.merchantId} (${name})`, `Client ID:     ${r.clientId}`, `Client Secret: ${r.clientSecret}`],
        notes: [secretNote],
      };
    },
  },
  {
    name: 'create-partner',
    summary: 'a partner and its client credentials (the Client Secret is shown once)',
    options: [{ flag: 'name', value: 'name', text: "the partner's name", required: true }, json],
    async run(values, { credentials }) {
      const name = text(values, 'name');
      const r = await credentials.createPartner(name);
      return {
        json: r,
        lines: [`Partner ${r.partnerId} (${name})`, `Client ID:     ${r.clientId}`, `Client Secret: ${r.clientSecret}`],
        notes: [secretNote],
      };
    },
  },
  {
    name: 'link',
    summary: 'let a partner act for a merchant',
    options: [partnerOption, merchantOption, json],
    async run(values, { credentials }) {
      const partnerId = id(values, 'partner');
      const merchantId = id(values, 'merchant');
      if (!(await credentials.link(partnerId, merchantId))) throw new UsageError(`No partner ${partnerId} or no merchant ${merchantId}.`);
      return {
        json: { partnerId, merchantId, linked: true },
        lines: [`Partner ${partnerId} can now act for merchant ${merchantId}.`],
        audit: { action: 'link', partnerId, merchantId },
      };
    },
  },
  {
    name: 'unlink',
    summary: "stop a partner acting for a merchant: its operations on the merchant's resources answer 404 from then on",
    options: [partnerOption, merchantOption, json],
    async run(values, { credentials }) {
      const partnerId = id(values, 'partner');
      const merchantId = id(values, 'merchant');
      const outcome = await credentials.unlink(partnerId, merchantId);
      if (outcome !== 'unlinked') {
        const why = {
          'no-partner': `No partner ${partnerId}.`,
          'no-merchant': `No merchant ${merchantId}.`,
          'not-linked': `Partner ${partnerId} is not linked to merchant ${merchantId}: nothing to unlink.`,
        };
        throw new UsageError(why[outcome]);
      }
      return {
        json: { partnerId, merchantId, linked: false },
        lines: [`Partner ${partnerId} can no longer act for merchant ${merchantId}.`],
        audit: { action: 'unlink', partnerId, merchantId },
      };
    },
  },
  {
    name: 'rotate-secret',
    summary: 'a new Client Secret for a Client ID; the old secret and its tokens stop working',
    options: [{ flag: 'client-id', value: 'id', text: 'the Client ID of a merchant or a partner', required: true }, json],
    async run(values, { credentials }) {
      const clientId = text(values, 'client-id');
      const r = await credentials.rotateSecret(clientId);
      if (!r) throw new UsageError(`No active client ${clientId}.`);
      return {
        json: r,
        lines: [`Client ID:     ${r.clientId}`, `Client Secret: ${r.clientSecret}`],
        notes: [
          `The old secret no longer gets tokens; its tokens stop working within ${generationCacheSeconds} seconds on every instance.`,
          secretNote,
        ],
      };
    },
  },
  {
    name: 'create-console-user',
    summary: 'a console user of a merchant or a partner, who signs in at /console with the email address and password',
    options: [
      { flag: 'merchant', value: 'id', text: "the merchant's id (merchantId from create-merchant); or --partner" },
      { flag: 'partner', value: 'id', text: "the partner's id (partnerId from create-partner); or --merchant" },
      { flag: 'email', value: 'address', text: "the user's email address (one user per address, whatever its case)", required: true },
      {
        flag: 'password',
        value: 'password',
        text: 'the password: 12 to 200 characters (stored as a scrypt hash, never printed)',
        required: true,
      },
      json,
    ],
    async run(values, { consoleUsers }) {
      if ((values.merchant === undefined) === (values.partner === undefined)) throw new UsageError('Give one of --merchant and --partner.');
      const owner =
        values.merchant !== undefined
          ? { kind: 'merchant' as const, id: id(values, 'merchant') }
          : { kind: 'partner' as const, id: id(values, 'partner') };
      const password = values.password;
      if (typeof password !== 'string' || password === '') throw new UsageError('--password needs a value.');
      try {
        const user = await consoleUsers.create(owner, text(values, 'email'), password);
        const ownerIds = owner.kind === 'merchant' ? { merchantId: owner.id } : { partnerId: owner.id };
        return {
          json: { userId: user.userId, email: user.email, ...ownerIds },
          lines: [`Console user ${user.userId} (${user.email}) of ${owner.kind} ${owner.id}.`],
          notes: ['They sign in at /console with this email address and password.'],
          audit: { action: 'create-console-user', userId: user.userId, ...ownerIds },
        };
      } catch (err) {
        if (err instanceof ConsoleUserRefused) throw new UsageError(err.message);
        throw err;
      }
    },
  },
];

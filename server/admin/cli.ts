// `npm run admin -- <command>`: provisioning, standing in for the merchant console. Runs against the same
// DATABASE_URL as the server. A Client Secret is printed once and stored only as a hash. Rotating a secret
// ends the old secret's tokens too: every running instance refuses them within generationCacheSeconds.
//   create-merchant --name "Acme" [--json]
//   create-partner --name "P" [--json]
//   link --partner <id> --merchant <id>
//   rotate-secret --client-id <id> [--json]
import { parseArgs } from 'node:util';
import { generationCacheSeconds } from '../auth/client-generations.js';
import { Credentials } from '../auth/credentials.js';
import { loadConfig } from '../config.js';
import { openStore } from '../store/database.js';

const usage = `Usage: npm run admin -- <command> [options]
  create-merchant --name <name> [--json]    a merchant and its client credentials
  create-partner --name <name> [--json]     a partner and its client credentials
  link --partner <id> --merchant <id>       let a partner act for a merchant
  rotate-secret --client-id <id> [--json]   a new Client Secret for a Client ID (the old one and its tokens stop working)`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    name: { type: 'string' },
    json: { type: 'boolean' },
    partner: { type: 'string' },
    merchant: { type: 'string' },
    'client-id': { type: 'string' },
  },
  strict: true,
});
const id = (raw: string | undefined, flag: string) => {
  const n = Number(raw);
  if (!raw || !Number.isInteger(n) || n < 1) fail(`--${flag} needs a positive integer id.`);
  return n;
};
const show = (result: object, lines: string[]) => {
  if (values.json) console.log(JSON.stringify(result));
  else console.log([...lines, '', 'The Client Secret is shown only now: store it safely.'].join('\n'));
};

const store = await openStore(loadConfig().databaseUrl);
const credentials = new Credentials(store);
try {
  switch (command) {
    case 'create-merchant': {
      if (!values.name?.trim()) fail('create-merchant needs --name.');
      const r = await credentials.createMerchant(values.name.trim());
      show(r, [`Merchant ${r.merchantId} (${values.name.trim()})`, `Client ID:     ${r.clientId}`, `Client Secret: ${r.clientSecret}`]);
      break;
    }
    case 'create-partner': {
      if (!values.name?.trim()) fail('create-partner needs --name.');
      const r = await credentials.createPartner(values.name.trim());
      show(r, [`Partner ${r.partnerId} (${values.name.trim()})`, `Client ID:     ${r.clientId}`, `Client Secret: ${r.clientSecret}`]);
      break;
    }
    case 'link': {
      const partnerId = id(values.partner, 'partner');
      const merchantId = id(values.merchant, 'merchant');
      if (!(await credentials.link(partnerId, merchantId))) fail(`No partner ${partnerId} or no merchant ${merchantId}.`);
      console.log(
        values.json
          ? JSON.stringify({ partnerId, merchantId, linked: true })
          : `Partner ${partnerId} can now act for merchant ${merchantId}.`,
      );
      break;
    }
    case 'rotate-secret': {
      const clientId = values['client-id'];
      if (!clientId) fail('rotate-secret needs --client-id.');
      const r = await credentials.rotateSecret(clientId);
      if (!r) fail(`No active client ${clientId}.`);
      show(r, [
        `Client ID:     ${r.clientId}`,
        `Client Secret: ${r.clientSecret}`,
        '',
        `The old secret no longer gets tokens; its tokens stop working within ${generationCacheSeconds} seconds on every instance.`,
      ]);
      break;
    }
    default:
      fail(command ? `Unknown command ${command}.` : 'Name a command.');
  }
} finally {
  await store.close();
}

// Provisioning as an operator does it: `npm run admin -- create-merchant --name X --json` against the same
// DATABASE_URL as the server processes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

export interface ProvisionedMerchant {
  merchantId: number;
  clientId: string;
  clientSecret: string;
}

export async function createMerchantWithCli(databaseUrl: string, name: string): Promise<ProvisionedMerchant> {
  const { stdout } = await run('npm', ['run', '-s', 'admin', '--', 'create-merchant', '--name', name, '--json'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ProvisionedMerchant;
}

/** `npm run admin -- rotate-secret --client-id X --json`: the client's new secret; the old one and its tokens end. */
export async function rotateSecretWithCli(databaseUrl: string, clientId: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '-s', 'admin', '--', 'rotate-secret', '--client-id', clientId, '--json'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { clientSecret: string }).clientSecret;
}

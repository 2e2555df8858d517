// `npm run --silent admin -- <command>`: provisioning, standing in for the merchant console. Runs against the same
// DATABASE_URL as the server. A Client Secret is printed once and stored only as a hash. Rotating a secret ends the
// old secret's tokens too: every running instance refuses them within generationCacheSeconds.
// With --json, stdout carries the JSON alone and everything said to people goes to stderr (README.md: why
// `--silent`); link, unlink and create-console-user also write an audit line there: a sentence when stderr is a
// terminal (a person reading, a quick start's output), a JSON log line otherwise (a log collector), or as
// ADMIN_AUDIT_FORMAT (`text` or `json`) says. Usage errors exit 2; `--help` or `-h` (before or
// after a command) prints usage and exits 0.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/log.js';
import { start } from '../start.js';
import { type AdminCommand, commands, UsageError } from './commands.js';

const invocation = 'npm run --silent admin --';
const pad = (s: string, width: number) => s.padEnd(width);

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 3;
  return [
    `Usage: ${invocation} <command> [options]`,
    '',
    'Provisions credentials in the store DATABASE_URL names (the default store when unset), as the server reads it.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${pad(c.name, width)}${c.summary}`),
    '',
    `Each command's options: ${invocation} <command> --help`,
  ].join('\n');
}

function usageOf(command: AdminCommand): string {
  const synopsis = command.options.map((o) => {
    const shown = o.value ? `--${o.flag} <${o.value}>` : `--${o.flag}`;
    return o.required ? shown : `[${shown}]`;
  });
  const rows = [
    ...command.options.map((o) => [o.value ? `--${o.flag} <${o.value}>` : `--${o.flag}`, `${o.text}${o.required ? ' (required)' : ''}`]),
    ['-h, --help', 'this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left!.length)) + 3;
  return [
    `Usage: ${invocation} ${command.name} ${synopsis.join(' ')}`,
    '',
    `${command.name}: ${command.summary}.`,
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${pad(left!, width)}${right}`),
  ].join('\n');
}

function fail(message: string, usage: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

const args = process.argv.slice(2);
const wantsHelp = (list: string[]) => list.some((a) => a === '--help' || a === '-h');
const [name, ...rest] = args;

if (name === undefined) fail('Name a command.', overview());
if (name === 'help' || name.startsWith('-')) {
  const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
  if (name !== 'help' && !wantsHelp([name])) fail(`Name a command before ${name}.`, overview());
  console.log(topic ? usageOf(topic) : overview());
  process.exit(0);
}
const command = commands.find((c) => c.name === name);
if (!command) fail(`Unknown command ${name}.`, overview());
if (wantsHelp(rest)) {
  console.log(usageOf(command));
  process.exit(0);
}

let values: Record<string, string | boolean | undefined>;
try {
  const options = Object.fromEntries(command.options.map((o) => [o.flag, { type: o.value ? ('string' as const) : ('boolean' as const) }]));
  ({ values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false }));
} catch (err) {
  fail((err as Error).message, usageOf(command));
}
for (const o of command.options)
  if (o.required && values[o.flag] === undefined) fail(`${command.name} needs --${o.flag}.`, usageOf(command));

const asJson = values.json === true;
const auditFormat = process.env.ADMIN_AUDIT_FORMAT || (process.stderr.isTTY ? 'text' : 'json');
if (auditFormat !== 'text' && auditFormat !== 'json')
  fail(`ADMIN_AUDIT_FORMAT must be text or json, not ${auditFormat}.`, usageOf(command));

/** The audit line: JSON like the server's log for a collector; for a person, one sentence with the same facts. */
function writeAudit(audit: { action: string; operator: string } & Record<string, unknown>): void {
  if (auditFormat === 'json') {
    createLogger('info', pino.destination({ dest: 2, sync: true })).info(audit, 'admin audit');
    return;
  }
  const { action, operator, ...facts } = audit;
  const named = Object.entries(facts).map(([k, v]) => `${k} ${v}`);
  console.error(`Audit: ${action} (${named.join(', ')}) by ${operator} at ${new Date().toISOString()}.`);
}
// npm prints its banner (`> payout-service@0.1.0 admin`) on stdout unless it runs with --silent; no setting of the
// script can stop it, so a JSON reader is told here, where it will look when parsing fails.
if (asJson && process.env.npm_lifecycle_event === 'admin' && process.env.npm_config_loglevel !== 'silent')
  console.error(`npm printed its banner on stdout before the JSON: run \`${invocation} ...\` to get the JSON alone.`);

// The server's assembly (start.ts) without HTTP or workers: the same store, migrated, and the same Credentials.
// Its log goes to stderr, as the audit line does, so stdout keeps the command's output alone.
const config = loadConfig();
const started = await start({ config, log: createLogger(config.logLevel, pino.destination({ dest: 2, sync: true })), workers: false });
try {
  const result = await command.run(values, started.services);
  // Who changed who may act for whom, and when, beside the command's output.
  if (result.audit) writeAudit({ ...result.audit, operator: userInfo().username });
  const notes = result.notes ?? [];
  if (asJson) {
    console.log(JSON.stringify(result.json));
    if (notes.length > 0) console.error(notes.join('\n'));
  } else {
    console.log([...result.lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n'));
  }
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.exitCode = 2;
  console.error(err.message);
} finally {
  await started.stop();
}

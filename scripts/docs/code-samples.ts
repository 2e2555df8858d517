// The code samples of every operation on the reference pages (`x-codeSamples`, which Redoc shows beside the
// request): a curl command and a TypeScript program using the client package, both built from the operation's
// documented request: its server (variables at their defaults), path parameters, query parameters and headers
// with their examples (Idempotency-Key included), the bearer token when the operation is secured, and its
// first JSON request example. test/docs/code-samples.test.ts runs every curl sample against a fresh service and
// compiles every TypeScript sample against the client's types.
import { deref, operationsOf, type Node, type PlacedOperation } from '../contract/document.js';
import { requestExample, type DocumentTransform } from './contract.js';
import type { Group } from '../../generated/index.js';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The environment variable the curl samples read the access token from. */
export const tokenVariable = 'ACCESS_TOKEN';
/** The console's samples (a session cookie, not a token): the file curl keeps the cookie in, and the CSRF token. */
export const cookieJarVariable = 'COOKIE_JAR';
export const csrfVariable = 'CSRF_TOKEN';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  value: unknown;
  /** How the parameter is serialised (OpenAPI `style`): `deepObject` sends an object as `name[key]=value`. */
  style?: string;
}

/** A server's URL with its variables at their defaults. */
function serverUrl(server: Node | undefined, where: string): string {
  if (!server?.url) throw new Error(`${where} has no server`);
  return String(server.url).replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = server.variables?.[name]?.default;
    if (value === undefined) throw new Error(`${where}: server variable ${name} has no default`);
    return String(value);
  });
}

const exampleOf = (doc: Node, holder: Node | undefined): unknown => {
  if (!holder) return undefined;
  if ('example' in holder) return holder.example;
  const first = Object.values<Node>(holder.examples ?? {})[0];
  if (first !== undefined) return deref(doc, first).value ?? first;
  return undefined;
};

/**
 * The parameters a sample sends: every required one, and each optional one whose documentation gives it an
 * example of its own (a value the contract chose to show); the path item's, overridden by the operation's.
 */
function parametersOf(doc: Node, o: PlacedOperation): Parameter[] {
  const all = new Map<string, Node>();
  for (const raw of [...(o.pathItem.parameters ?? []), ...(o.op.parameters ?? [])]) {
    const p = deref(doc, raw);
    all.set(`${p.in}:${p.name}`, p);
  }
  const out: Parameter[] = [];
  for (const p of all.values()) {
    const own = exampleOf(doc, p);
    const value = own ?? exampleOf(doc, deref(doc, p.schema)) ?? deref(doc, p.schema)?.examples?.[0];
    if (p.required && value === undefined) throw new Error(`${o.op.operationId}: required parameter ${p.name} has no example`);
    if (p.required || own !== undefined) out.push({ name: p.name, in: p.in, value, ...(p.style ? { style: p.style } : {}) });
  }
  return out;
}

/** What both samples send, read once from the document. */
export interface SampleRequest {
  group: Group;
  operationId: string;
  method: string;
  /** The documented path, with its `{templates}`. */
  path: string;
  /** The server the operation is served from (the group's, or the operation's own). */
  server: string;
  parameters: Parameter[];
  secured: boolean;
  body?: unknown;
  /** The group's token operation, when this operation needs a token. */
  tokenOperation?: string;
  /** A document whose callers hold a session cookie (the console's): the sign-in, the header that carries the
   * session's CSRF token on a change, and the origin the requests must come from. */
  session?: { signIn: string; csrfHeader?: string; origin: string };
}

const isSecured = (doc: Node, op: Node) => (op.security ?? doc.security ?? []).some((s: Node) => Object.keys(s).length > 0);

function tokenOperationOf(doc: Node): string | undefined {
  const token = operationsOf(doc).find((o) => o.method === 'post' && !isSecured(doc, o.op));
  return token && `POST ${token.path}`;
}

/** The cookie and CSRF-header schemes of a document whose callers hold a session (apiKey in a cookie). */
function sessionSchemes(doc: Node): { cookie: string; csrf?: { scheme: string; header: string } } | undefined {
  const schemes = Object.entries<Node>(doc.components?.securitySchemes ?? {});
  const cookie = schemes.find(([, x]) => x.type === 'apiKey' && x.in === 'cookie');
  if (!cookie) return undefined;
  const csrf = schemes.find(([, x]) => x.type === 'apiKey' && x.in === 'header');
  return { cookie: String(cookie[1].name), ...(csrf ? { csrf: { scheme: csrf[0], header: String(csrf[1].name) } } : {}) };
}

export function sampleRequest(group: Group, doc: Node, o: PlacedOperation): SampleRequest {
  const where = `${group} ${o.op.operationId}`;
  const servers = (o.op.servers ?? o.pathItem.servers ?? doc.servers) as Node[] | undefined;
  const secured = isSecured(doc, o.op);
  const schemes = sessionSchemes(doc);
  const server = serverUrl(servers?.[0], where).replace(/\/$/, '');
  if (schemes) {
    const { csrf: csrfScheme } = schemes;
    const csrf =
      csrfScheme && (o.op.security ?? doc.security ?? []).some((req: Node) => csrfScheme.scheme in req) ? csrfScheme.header : undefined;
    return {
      group,
      operationId: String(o.op.operationId),
      method: o.method.toUpperCase(),
      path: o.path,
      server,
      parameters: parametersOf(doc, o),
      secured,
      ...(o.op.requestBody ? { body: requestExample(doc, o) } : {}),
      session: { signIn: tokenOperationOf(doc) ?? '', ...(csrf ? { csrfHeader: csrf } : {}), origin: new URL(server).origin },
    };
  }
  return {
    group,
    operationId: String(o.op.operationId),
    method: o.method.toUpperCase(),
    path: o.path,
    server: serverUrl(servers?.[0], where).replace(/\/$/, ''),
    parameters: parametersOf(doc, o),
    secured,
    ...(o.op.requestBody ? { body: requestExample(doc, o) } : {}),
    ...(secured ? { tokenOperation: tokenOperationOf(doc) } : {}),
  };
}

/** A word for the shell, single-quoted. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const pathWith = (r: SampleRequest) =>
  r.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = r.parameters.find((x) => x.in === 'path' && x.name === name);
    if (!p) throw new Error(`${r.operationId}: no value for path parameter ${name}`);
    return encodeURIComponent(String(p.value));
  });

/** A query parameter's pairs as its style sends them (form, the default: one pair; deepObject: one a key). */
function queryPairs(p: Parameter): [string, string][] {
  if (p.style === 'deepObject') {
    if (!p.value || typeof p.value !== 'object') throw new Error(`${p.name}: a deepObject parameter's example must be an object`);
    return Object.entries(p.value).map(([key, value]) => [`${p.name}[${key}]`, String(value)]);
  }
  if (p.value !== null && typeof p.value === 'object')
    throw new Error(`${p.name}: no sample serialisation for an object in style ${p.style ?? 'form'}`);
  return [[p.name, String(p.value)]];
}

export function curlSample(r: SampleRequest): string {
  const query = r.parameters
    .filter((p) => p.in === 'query')
    .flatMap(queryPairs)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const url = `${r.server}${pathWith(r)}${query ? `?${query}` : ''}`;
  const lines = [r.method === 'GET' ? `curl ${shellQuote(url)}` : `curl -X ${r.method} ${shellQuote(url)}`];
  if (r.session) {
    // The console's requests: the session's cookie (written by the sign-in), the console's Origin, and on a change
    // the session's CSRF token.
    lines.push(r.secured ? `-b "$${cookieJarVariable}"` : `-c "$${cookieJarVariable}"`, `-H ${shellQuote(`Origin: ${r.session.origin}`)}`);
    if (r.session.csrfHeader) lines.push(`-H "${r.session.csrfHeader}: $${csrfVariable}"`);
  } else if (r.secured) lines.push(`-H "Authorization: Bearer $${tokenVariable}"`);
  for (const p of r.parameters.filter((x) => x.in === 'header')) lines.push(`-H ${shellQuote(`${p.name}: ${String(p.value)}`)}`);
  if (r.body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(r.body, null, 2))}`);
  const command = lines.join(' \\\n  ');
  if (r.session)
    return r.secured
      ? `# ${cookieJarVariable}: the file ${r.session.signIn} wrote the session cookie to${r.session.csrfHeader ? `; ${csrfVariable}: the csrfToken it answered` : ''}\n${command}`
      : `# ${cookieJarVariable}: a file for curl to keep the session cookie in\n${command}`;
  return r.tokenOperation ? `# ${tokenVariable}: the token answered by ${r.tokenOperation}\n${command}` : command;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const tsString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
const tsKey = (k: string) => (identifier.test(k) ? k : tsString(k));

/** A value as a TypeScript literal, laid out as Biome would print it (on one line when it fits). */
function tsLiteral(value: unknown, indent: string): string {
  if (typeof value === 'string') return tsString(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const items: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((v) => [undefined, v])
    : Object.entries(value as Node).map(([k, v]) => [tsKey(k), v]);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return `${open}${close}`;
  const inner = `${indent}  `;
  const item = ([k, v]: [string | undefined, unknown], at: string) => `${k === undefined ? '' : `${k}: `}${tsLiteral(v, at)}`;
  const flat = Array.isArray(value) ? `[${items.map((i) => item(i, '')).join(', ')}]` : `{ ${items.map((i) => item(i, '')).join(', ')} }`;
  if (!flat.includes('\n') && indent.length + flat.length <= 90) return flat;
  return `${open}\n${items.map((i) => `${inner}${item(i, inner)},`).join('\n')}\n${indent}${close}`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The group's factory and options, as client/README.md documents them. */
function clientSetup(group: Group, doc: Node, credentials: string): string {
  const authUrl = tokenIssuerUrl(doc);
  const options = [`baseUrl: ${tsLiteral(groupServer(doc), '')}`];
  if (authUrl) options.push(`authUrl: ${tsLiteral(authUrl, '')}`);
  options.push(`credentials: ${credentials}`);
  return `const ${group} = create${capitalised(group)}Client({\n${options.map((o) => `  ${o},`).join('\n')}\n});`;
}

const groupServer = (doc: Node) => serverUrl((doc.servers as Node[] | undefined)?.[0], 'the document').replace(/\/$/, '');

/** Where the token operation is served, when not at the group's own server (groups A, B and D: `{auth_url}`). */
function tokenIssuerUrl(doc: Node): string | undefined {
  for (const raw of Object.values<Node>(doc.paths ?? {})) {
    const post = deref(doc, raw).post;
    if (post && !isSecured(doc, post) && Array.isArray(post.servers)) return serverUrl(post.servers[0], 'the token operation');
  }
  return undefined;
}

/** The name of the answer in a sample: the operation's noun (`createPayeeAccount` → `payeeAccount`). */
function answerName(r: SampleRequest): string {
  const noun = r.operationId.replace(/^[a-z]+/, '');
  const name = noun ? noun.charAt(0).toLowerCase() + noun.slice(1) : 'answer';
  return name === r.group ? `${name}Record` : name;
}

export function typeScriptSample(r: SampleRequest, doc: Node, successStatus: number): string {
  const factory = `create${capitalised(r.group)}Client`;
  const envCredentials = '{ clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! }';
  if (!r.secured) {
    // The client calls the token operation itself, with the credentials it is given, and renews the token.
    const body = (r.body ?? {}) as Node;
    const clientId = body.client_id ?? body.clientId;
    const clientSecret = body.client_secret ?? body.clientSecret;
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string')
      throw new Error(`${r.operationId}: the token request example has no client id and secret`);
    return [
      `import { ${factory} } from '@payout-service/client';`,
      '',
      `// The client sends ${r.method} ${r.path} itself with these credentials, keeps the token and renews it before it expires.`,
      clientSetup(r.group, doc, `{ clientId: ${tsLiteral(clientId, '')}, clientSecret: ${tsLiteral(clientSecret, '')} }`),
      '',
    ].join('\n');
  }
  const params: Record<string, Node> = {};
  for (const p of r.parameters) params[p.in] = { ...params[p.in], [p.name]: p.value };
  const init: Node = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (r.body !== undefined) init.body = r.body;
  const args = Object.keys(init).length > 0 ? `, ${tsLiteral(init, '  ')}` : '';
  const request = `${r.group}.${r.method}('${r.path}'${args})`;
  const call = request.includes('\n') ? `unwrap(\n  ${request},\n)` : `unwrap(${request})`;
  const keyed = r.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const lines = [`import { ${factory}, unwrap } from '@payout-service/client';`, '', clientSetup(r.group, doc, envCredentials), ''];
  if (keyed)
    lines.push('// Idempotency-Key is optional: without one the client makes a new key for each call (and keeps it on its retries).');
  if (successStatus === 204) lines.push(`await ${call};`);
  else lines.push(`const ${answerName(r)} = await ${call};`, `console.log(${answerName(r)});`);
  return `${lines.join('\n')}\n`;
}

/** The documented success status of an operation: its first 2xx response. */
export function successStatus(op: Node): number {
  const status = Object.keys(op.responses ?? {}).find((s) => /^2\d\d$/.test(s));
  if (!status) throw new Error(`${op.operationId} documents no success response`);
  return Number(status);
}

export function codeSamples(group: Group, doc: Node, o: PlacedOperation): CodeSample[] {
  const r = sampleRequest(group, doc, o);
  // The console's operations are its page's, in a browser that holds the cookie: the client package has none of them.
  if (r.session) return [{ lang: 'Shell', label: 'curl', source: curlSample(r) }];
  return [
    { lang: 'Shell', label: 'curl', source: curlSample(r) },
    { lang: 'TypeScript', label: 'TypeScript', source: typeScriptSample(r, doc, successStatus(o.op)) },
  ];
}

/** The reference's transform that gives every operation its samples. */
export const codeSamplesTransform = (group: Group): DocumentTransform => ({
  operation(o, doc) {
    o.op['x-codeSamples'] = codeSamples(group, doc, o);
  },
});

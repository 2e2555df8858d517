// The code samples of every operation on the reference pages (`x-codeSamples`, which Redoc shows beside the
// request): a curl command and a TypeScript program using the client package, both built from the operation's
// documented request. They run as shown against a local server: the origin comes from BASE_URL (a local server's
// by default, the documented production or sandbox origin named beside it), every create sends a fresh
// Idempotency-Key, and each id is a named variable whose comment says which operation's answer gives it (or, for
// one the API cannot make, what it is), with the documented value as its example. test/docs/code-samples.test.ts
// runs every sample as published, twice in a row, against a fresh service, with only those variables set.
import { deref, operationsOf, type Node, type PlacedOperation } from '../contract/document.js';
import { localOrigin, requestExample, type DocumentTransform } from './contract.js';
import type { Group } from '../../generated/index.js';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The variable the samples read the service's origin from. */
export const originVariable = 'BASE_URL';
/** The environment variable the curl samples read the access token from. */
export const tokenVariable = 'ACCESS_TOKEN';
/** The variables of the caller's own credentials, which the token samples send and the client package takes. */
export const clientIdVariable = 'CLIENT_ID';
export const clientSecretVariable = 'CLIENT_SECRET';
/** The console's samples (a session cookie, not a token): the file curl keeps the cookie in, and the CSRF token. */
export const cookieJarVariable = 'COOKIE_JAR';
export const csrfVariable = 'CSRF_TOKEN';

/** A fresh random value, made where the sample runs: a new key for each request. */
const freshShell = '$(openssl rand -hex 16)';
const freshTypeScript = 'crypto.randomUUID()';
/** Body fields that are the request's own idempotency key (a repeat with the same value replays the first). */
const freshFields = new Set(['partnerPaymentUniqueId']);
/** Fields the service keeps unique (a repeat is refused with 409): the reader's own value, a new one each time. */
const uniqueFields = new Set(['taxId', 'presetAccountNumber']);
/** Id schemas that name the caller's own text, not a resource an earlier answer gave. */
const ownValues = new Set(['ExternalId', 'TaxId']);
/** Id schemas of what another system makes (a banking product, a verified individual): no answer here gives them. */
const outsideIds = new Set(['ProductId', 'IndividualId']);

/** A value the reader supplies: an id an earlier answer gave, or their own credentials. */
export interface Variable {
  name: string;
  /** The documented value it stands for (the sample's example). */
  documented: string | number;
  /** What to set it to, as the sample's comment says. */
  says: string;
  /** A value of the reader's own that the service keeps unique: a rerun needs a new one. */
  unique?: true;
}

/** In a request's values: where a variable goes, or (with none) a fresh random value. */
class Slot {
  constructor(readonly variable?: Variable) {}
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  /** What the sample sends: the documented value, or a variable or fresh value in its place. */
  value: unknown;
  documented: unknown;
  /** How the parameter is serialised (OpenAPI `style`): `deepObject` sends an object as `name[key]=value`. */
  style?: string;
}

/** A server's URL with its variables at their defaults. */
function serverUrl(server: Node | undefined, where: string): URL {
  if (!server?.url) throw new Error(`${where} has no server`);
  return new URL(
    String(server.url).replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = server.variables?.[name]?.default;
      if (value === undefined) throw new Error(`${where}: server variable ${name} has no default`);
      return String(value);
    }),
  );
}

const exampleOf = (doc: Node, holder: Node | undefined): unknown => {
  if (!holder) return undefined;
  if ('example' in holder) return holder.example;
  const first = Object.values<Node>(holder.examples ?? {})[0];
  if (first !== undefined) return deref(doc, first).value ?? first;
  return undefined;
};

/** A parameter's documented value: its own example, else its schema's. */
const parameterExample = (doc: Node, p: Node): unknown =>
  exampleOf(doc, p) ?? exampleOf(doc, deref(doc, p.schema)) ?? deref(doc, p.schema)?.examples?.[0];

const screaming = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
const singular = (s: string) => (/(ss|us)$/.test(s) ? s : s.replace(/s$/, ''));
const refName = (raw: Node | undefined) => (typeof raw?.$ref === 'string' ? String(raw.$ref).split('/').pop() : undefined);

/** Where a documented value sits in a documented example: the key that holds it. */
function keyHolding(n: unknown, value: string | number): string | undefined {
  if (!n || typeof n !== 'object') return undefined;
  for (const [k, v] of Object.entries(n)) {
    if ((typeof v === 'string' || typeof v === 'number') && String(v) === String(value) && !Array.isArray(n)) return k;
    const deeper = keyHolding(v, value);
    if (deeper) return deeper;
  }
  return undefined;
}

const jsonExamples = (doc: Node, holder: Node | undefined): unknown[] => {
  const json = deref(doc, holder)?.content?.['application/json'];
  if (!json) return [];
  return 'example' in json ? [json.example] : Object.values<Node>(json.examples ?? {}).map((e) => deref(doc, e).value);
};

/**
 * The operation whose answer first gives a documented id, and the field it is in: an answer that holds it while
 * the operation's own request does not (a create, or a list of what others made): on this resource's own path
 * first, then on a collection, writes before reads.
 */
function producerOf(doc: Node, value: string | number, of: PlacedOperation): { operationId: string; field: string } | undefined {
  const sent = (o: PlacedOperation) =>
    [
      ...jsonExamples(doc, o.op.requestBody),
      [...(o.pathItem.parameters ?? []), ...(o.op.parameters ?? [])].map((p) => parameterExample(doc, deref(doc, p))),
    ].some((example) => keyHolding(example, value) !== undefined);
  const rank = (o: PlacedOperation) =>
    (of.path.startsWith(o.path) ? 0 : 4) + (o.path.includes('{') ? 2 : 0) + (o.method === 'post' ? 0 : 1);
  const ops = operationsOf(doc)
    .filter((o) => o.op.operationId !== of.op.operationId)
    .sort((a, b) => rank(a) - rank(b));
  for (const o of ops) {
    if (sent(o)) continue;
    for (const [status, raw] of Object.entries<Node>(o.op.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      for (const example of jsonExamples(doc, raw)) {
        const field = keyHolding(example, value);
        if (field) return { operationId: String(o.op.operationId), field };
      }
    }
  }
  return undefined;
}

/**
 * The variable a value of the request is, when it is one: the caller's credentials; a path parameter; or a query
 * parameter or body field whose schema is a resource's id. `segment` names the resource when the name is `id`.
 */
function variableFor(doc: Node, o: PlacedOperation, name: string, raw: Node | undefined, value: unknown, segment: string, inPath: boolean) {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (/^client_?id$/i.test(name) && !isSecured(doc, o.op))
    return { name: clientIdVariable, documented: value, says: 'your API credentials' };
  if (/^client_?secret$/i.test(name)) return { name: clientSecretVariable, documented: value, says: 'your API credentials' };
  if (uniqueFields.has(name))
    return {
      name: screaming(name),
      documented: value,
      says: `your own ${name}, one not used before (for example ${value})`,
      unique: true as const,
    };
  const ref = refName(raw);
  const isId = inPath || name === 'id' || (ref !== undefined && /Id$/.test(ref) && !ownValues.has(ref));
  const from = outsideIds.has(ref ?? '') ? undefined : producerOf(doc, value, o);
  // Besides ids, a number an earlier answer shows in full (an account number a funding request names).
  if (!isId && !(from && /AccountNumber$/i.test(name))) return undefined;
  let variable = name === 'id' ? (ref ? screaming(ref) : `${screaming(singular(segment))}_ID`) : screaming(name);
  // Another credential's Client ID (the console's), not the caller's own.
  if (variable === clientIdVariable) variable = `CREDENTIAL_${clientIdVariable}`;
  const says = from ? `the ${from.field} that ${from.operationId} answers` : `the ${name} to use`;
  return { name: variable, documented: value, says: `${says} (for example ${value})` };
}

const isSecured = (doc: Node, op: Node) => (op.security ?? doc.security ?? []).some((s: Node) => Object.keys(s).length > 0);

interface Context {
  doc: Node;
  o: PlacedOperation;
  /** A document whose callers hold a session cookie: its sign-in's email and password are the reader's own. */
  session: boolean;
  variables: Map<string, Variable>;
}

function slotFor(c: Context, name: string, raw: Node | undefined, value: unknown, segment: string, inPath = false): unknown {
  if (c.session && !isSecured(c.doc, c.o.op) && /^(email|password)$/.test(name) && typeof value === 'string')
    return remember(c, { name: `CONSOLE_${screaming(name)}`, documented: value, says: 'your console sign-in' });
  const variable = variableFor(c.doc, c.o, name, raw, value, segment, inPath);
  return variable ? remember(c, variable) : value;
}

function remember(c: Context, variable: Variable): Slot {
  const known = c.variables.get(variable.name);
  if (known && known.documented !== variable.documented)
    throw new Error(`${c.o.op.operationId}: ${variable.name} stands for both ${known.documented} and ${variable.documented}`);
  if (!known) c.variables.set(variable.name, variable);
  return new Slot(c.variables.get(variable.name));
}

/** The schema of a property, where an object schema (or one of its alternatives or parts) declares it. */
function propertySchema(doc: Node, schema: Node | undefined, key: string, depth = 0): Node | undefined {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 8) return undefined;
  if (s.properties?.[key]) return s.properties[key];
  for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? []), s.then, s.else]) {
    const found = propertySchema(doc, part, key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A request body with its ids, credentials and idempotency keys made slots, following the schema beside it. */
function slotBody(c: Context, value: unknown, schema: Node | undefined, segment: string): unknown {
  if (Array.isArray(value)) return value.map((v) => slotBody(c, v, deref(c.doc, schema)?.items, segment));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const raw = propertySchema(c.doc, schema, k);
      if (freshFields.has(k)) return [k, new Slot()];
      if (v && typeof v === 'object') return [k, slotBody(c, v, raw, segment)];
      return [k, slotFor(c, k, raw, v, segment)];
    }),
  );
}

/**
 * The parameters a sample sends: every required one, and each optional one whose documentation gives it an
 * example of its own (a value the contract chose to show); the path item's, overridden by the operation's. The
 * Idempotency-Key is fresh for each run.
 */
function parametersOf(c: Context): Parameter[] {
  const { doc, o } = c;
  const all = new Map<string, Node>();
  for (const raw of [...(o.pathItem.parameters ?? []), ...(o.op.parameters ?? [])]) {
    const p = deref(doc, raw);
    all.set(`${p.in}:${p.name}`, p);
  }
  const segments = o.path.split('/');
  const out: Parameter[] = [];
  for (const p of all.values()) {
    const own = exampleOf(doc, p);
    const value = parameterExample(doc, p);
    if (p.required && value === undefined) throw new Error(`${o.op.operationId}: required parameter ${p.name} has no example`);
    if (!p.required && own === undefined) continue;
    const at = segments.indexOf(`{${p.name}}`);
    const segment = at > 0 ? segments[at - 1]! : segments.filter((s) => !s.startsWith('{')).pop()!;
    const slotted =
      p.in === 'header' && p.name === 'Idempotency-Key' ? new Slot() : slotFor(c, p.name, p.schema, value, segment, p.in === 'path');
    out.push({ name: p.name, in: p.in, value: slotted, documented: value, ...(p.style ? { style: p.style } : {}) });
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
  /** The documented server's origin (production's or the sandbox's), which BASE_URL replaces. */
  documentedOrigin: string;
  /** The path the group is served under on that origin (`/payouts` for group B), kept locally too. */
  basePath: string;
  parameters: Parameter[];
  secured: boolean;
  body?: unknown;
  /** The values the reader sets, in the order the sample first uses them. */
  variables: Variable[];
  /** The group's token operation, when this operation needs a token. */
  tokenOperation?: string;
  /** A document whose callers hold a session cookie (the console's): the sign-in, and the header that carries the
   * session's CSRF token on a change. */
  session?: { signIn: string; csrfHeader?: string };
}

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

/** The request of an operation's sample: its first request example, or the one of that name. */
export function sampleRequest(group: Group, doc: Node, o: PlacedOperation, exampleName?: string): SampleRequest {
  const where = `${group} ${o.op.operationId}`;
  const servers = (o.op.servers ?? o.pathItem.servers ?? doc.servers) as Node[] | undefined;
  const secured = isSecured(doc, o.op);
  const schemes = sessionSchemes(doc);
  const server = serverUrl(servers?.[0], where);
  const c: Context = { doc, o, session: schemes !== undefined, variables: new Map() };
  const parameters = parametersOf(c);
  const json = deref(doc, o.op.requestBody)?.content?.['application/json'];
  const example = exampleName ? deref(doc, json?.examples?.[exampleName])?.value : o.op.requestBody ? requestExample(doc, o) : undefined;
  if (exampleName && example === undefined) throw new Error(`${where} has no request example ${exampleName}`);
  const lastSegment =
    o.path
      .split('/')
      .filter((s) => s && !s.startsWith('{'))
      .pop() ?? '';
  const body = example === undefined ? undefined : slotBody(c, example, json?.schema, lastSegment);
  let session: SampleRequest['session'];
  if (schemes) {
    const { csrf } = schemes;
    const csrfHeader = csrf && (o.op.security ?? doc.security ?? []).some((req: Node) => csrf.scheme in req) ? csrf.header : undefined;
    session = { signIn: tokenOperationOf(doc) ?? '', ...(csrfHeader ? { csrfHeader } : {}) };
  }
  return {
    group,
    operationId: String(o.op.operationId),
    method: o.method.toUpperCase(),
    path: o.path,
    documentedOrigin: server.origin,
    basePath: server.pathname.replace(/\/$/, ''),
    parameters,
    secured,
    ...(body !== undefined ? { body } : {}),
    variables: [...c.variables.values()],
    ...(secured && !schemes ? { tokenOperation: tokenOperationOf(doc) } : {}),
    ...(session ? { session } : {}),
  };
}

/** A word for the shell, single-quoted. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Text inside double quotes, where `$`, `` ` ``, `\` and `"` are the shell's. */
const shellLiteral = (s: string) => s.replace(/[\\$`"]/g, '\\$&');

const shellValue = (v: unknown) => (v instanceof Slot ? (v.variable ? `$${v.variable.name}` : freshShell) : undefined);

const pathWith = (r: SampleRequest, value: (v: unknown) => string) =>
  r.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = r.parameters.find((x) => x.in === 'path' && x.name === name);
    if (!p) throw new Error(`${r.operationId}: no value for path parameter ${name}`);
    return value(p.value);
  });

/** A query parameter's pairs as its style sends them (form, the default: one pair; deepObject: one a key). */
function queryPairs(p: Parameter): [string, unknown][] {
  if (p.style === 'deepObject') {
    if (!p.value || typeof p.value !== 'object') throw new Error(`${p.name}: a deepObject parameter's example must be an object`);
    return Object.entries(p.value).map(([key, value]) => [`${p.name}[${key}]`, value]);
  }
  if (p.value !== null && typeof p.value === 'object' && !(p.value instanceof Slot))
    throw new Error(`${p.name}: no sample serialisation for an object in style ${p.style ?? 'form'}`);
  return [[p.name, p.value]];
}

/** The body as JSON for curl: single-quoted, or a here-document where it holds variables or fresh values. */
function curlBody(body: unknown): string {
  const slots: Slot[] = [];
  const json = JSON.stringify(body, (_, v) => (v instanceof Slot ? `@@slot${slots.push(v) - 1}@@` : v), 2);
  if (slots.length === 0) return `-d ${shellQuote(json)}`;
  // An unquoted here-document expands `$`, `` ` `` and `\`: the JSON's own are escaped, the slots' expand.
  const filled = json.replace(/[\\$`]/g, '\\$&').replace(/"@@slot(\d+)@@"/g, (_, i: string) => {
    const slot = slots[Number(i)]!;
    const v = shellValue(slot)!;
    return slot.variable && typeof slot.variable.documented === 'number' ? v : `"${v}"`;
  });
  return `-d @- <<JSON\n${filled}\nJSON`;
}

/** The comment lines that say what each variable of a sample is. */
function legend(r: SampleRequest, prefix: string, extra: string[]): string[] {
  const lines = [...extra];
  const credentials = r.variables.filter((v) => v.name === clientIdVariable || v.name === clientSecretVariable);
  if (credentials.length > 0) lines.push(`${credentials.map((v) => v.name).join(', ')}: ${credentials[0]!.says}`);
  for (const v of r.variables) if (!credentials.includes(v)) lines.push(`${v.name}: ${v.says}`);
  return lines.map((l) => `${prefix} ${l}`);
}

const originSays = (r: SampleRequest) => `${originVariable}: a local server's origin unless set (elsewhere: ${r.documentedOrigin})`;

export function curlSample(r: SampleRequest): string {
  const encoded = (v: unknown) => shellValue(v) ?? shellLiteral(encodeURIComponent(String(v)));
  const query = r.parameters
    .filter((p) => p.in === 'query')
    .flatMap(queryPairs)
    .map(([name, value]) => `${shellLiteral(encodeURIComponent(name))}=${encoded(value)}`)
    .join('&');
  const url = `"$${originVariable}${shellLiteral(r.basePath)}${pathWith(r, encoded)}${query ? `?${query}` : ''}"`;
  const lines = [r.method === 'GET' ? `curl ${url}` : `curl -X ${r.method} ${url}`];
  const extra = [originSays(r)];
  if (r.session) {
    // The console's requests: the session's cookie (written by the sign-in), the console's Origin, and on a change
    // the session's CSRF token.
    lines.push(r.secured ? `-b "$${cookieJarVariable}"` : `-c "$${cookieJarVariable}"`, `-H "Origin: $${originVariable}"`);
    if (r.session.csrfHeader) lines.push(`-H "${r.session.csrfHeader}: $${csrfVariable}"`);
    extra.push(
      r.secured
        ? `${cookieJarVariable}: the file ${r.session.signIn} wrote the session cookie to${r.session.csrfHeader ? `; ${csrfVariable}: the csrfToken it answered` : ''}`
        : `${cookieJarVariable}: a file for curl to keep the session cookie in`,
    );
  } else if (r.secured) {
    lines.push(`-H "Authorization: Bearer $${tokenVariable}"`);
    extra.push(`${tokenVariable}: the token answered by ${r.tokenOperation}`);
  }
  for (const p of r.parameters.filter((x) => x.in === 'header')) {
    const v = shellValue(p.value);
    lines.push(v ? `-H "${p.name}: ${v}"` : `-H ${shellQuote(`${p.name}: ${String(p.value)}`)}`);
  }
  if (r.body !== undefined) lines.push(`-H 'Content-Type: application/json'`, curlBody(r.body));
  return [...legend(r, '#', extra), `${originVariable}=\${${originVariable}:-${localOrigin}}`, lines.join(' \\\n  ')].join('\n');
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const tsString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
const tsKey = (k: string) => (identifier.test(k) ? k : tsString(k));

/** A value as a TypeScript literal, laid out as Biome would print it (on one line when it fits). */
function tsLiteral(value: unknown, indent: string): string {
  if (value instanceof Slot) {
    const v = value.variable;
    if (!v) return freshTypeScript;
    return typeof v.documented === 'number' ? `Number(process.env.${v.name})` : `process.env.${v.name}!`;
  }
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

/** Where the token operation is documented, when not at the group's own server (groups A, B and D: `{auth_url}`). */
function tokenIssuerOrigin(doc: Node): string | undefined {
  for (const raw of Object.values<Node>(doc.paths ?? {})) {
    const post = deref(doc, raw).post;
    if (post && !isSecured(doc, post) && Array.isArray(post.servers)) return serverUrl(post.servers[0], 'the token operation').origin;
  }
  return undefined;
}

/** The group's factory and options, as client/README.md documents them: the origin from BASE_URL, as curl's. */
function clientSetup(r: SampleRequest, doc: Node): string[] {
  const origin = `process.env.${originVariable} ?? ${tsString(localOrigin)}`;
  const groupServer = serverUrl((doc.servers as Node[] | undefined)?.[0], 'the document');
  const base = groupServer.pathname.replace(/\/$/, '');
  const issuer = tokenIssuerOrigin(doc);
  const elsewhere = `${groupServer.origin}${base}${issuer ? `, with authUrl ${issuer}` : ''}`;
  return [
    `// ${originVariable}: a local server's origin unless set (elsewhere: ${elsewhere})`,
    `// ${clientIdVariable}, ${clientSecretVariable}: your API credentials`,
    ...legend(r, '//', []).filter((l) => !l.startsWith(`// ${clientIdVariable}, `)),
    `const ${r.group} = create${capitalised(r.group)}Client({`,
    `  baseUrl: ${base ? `\`\${${origin}}${base}\`` : origin},`,
    `  credentials: { clientId: process.env.${clientIdVariable}!, clientSecret: process.env.${clientSecretVariable}! },`,
    '});',
  ];
}

/** The name of the answer in a sample: the operation's noun (`createPayeeAccount` → `payeeAccount`). */
function answerName(r: SampleRequest): string {
  const noun = r.operationId.replace(/^[a-z]+/, '');
  const name = noun ? noun.charAt(0).toLowerCase() + noun.slice(1) : 'answer';
  return name === r.group ? `${name}Record` : name;
}

export function typeScriptSample(r: SampleRequest, doc: Node, successStatus: number): string {
  const factory = `create${capitalised(r.group)}Client`;
  if (!r.secured) {
    // The client calls the token operation itself, with the credentials it is given, and renews the token.
    return [
      `import { ${factory} } from '@payout-service/client';`,
      '',
      `// The client sends ${r.method} ${r.path} itself with your credentials, keeps the token and renews it before it expires.`,
      ...clientSetup(r, doc),
      '',
    ].join('\n');
  }
  const params: Record<string, Node> = {};
  // The client makes an Idempotency-Key for each call itself (and keeps it on its retries).
  for (const p of r.parameters.filter((x) => !(x.in === 'header' && x.name === 'Idempotency-Key')))
    params[p.in] = { ...params[p.in], [p.name]: p.value };
  const init: Node = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (r.body !== undefined) init.body = r.body;
  const args = Object.keys(init).length > 0 ? `, ${tsLiteral(init, '  ')}` : '';
  const request = `${r.group}.${r.method}('${r.path}'${args})`;
  const call = request.includes('\n') ? `unwrap(\n  ${request},\n)` : `unwrap(${request})`;
  const keyed = r.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const lines = [`import { ${factory}, unwrap } from '@payout-service/client';`, '', ...clientSetup(r, doc), ''];
  if (keyed) lines.push('// The client sends a fresh Idempotency-Key with each call (and the same one on its retries).');
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

/** An operation's samples, sending its first request example or the one of that name. */
export function codeSamples(group: Group, doc: Node, o: PlacedOperation, exampleName?: string): CodeSample[] {
  const r = sampleRequest(group, doc, o, exampleName);
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

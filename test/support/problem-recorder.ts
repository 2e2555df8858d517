// Every problem a test service answers, checked as it leaves against the contract: its `type` must be a kind of the
// catalogue (generated/problem-types.ts) with that kind's status and title, and, when the request names exactly one
// operation that lists its kinds (`x-problem-types`), a kind that operation lists or one marked `unrouted`. Problems Express writes are read
// at `res.end`; the ones listen.ts writes on a raw socket (431, unparsable HTTP) at `socket.end`.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { problemTypeBase, problemTypes } from '../../generated/problem-types.js';
import type { Environment } from '../../server/platform/environment.js';
import { distinctOperations } from './operations.js';

export interface ProblemRecord {
  /** Every kind answered, with how often. */
  answered: Map<string, number>;
  /** One line per problem the contract does not allow where it was answered. */
  outside: string[];
}

const allTemplates = distinctOperations.map((o) => ({
  method: o.method.toUpperCase(),
  pattern: new RegExp(`^${o.url.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  params: (o.url.match(/\{/g) ?? []).length,
  kinds: o.op['x-problem-types'] as string[] | undefined,
  name: `${o.group} ${o.operationId}`,
  sandboxOnly: o.operationId.startsWith('simulate'),
}));

/** The operation a request reaches: among the templates its path matches, the most literal ones (the server's rule:
 * `/v1/payees/list` is the list, not a payee), then the method; undefined when none or more than one. In production
 * the simulations are not served (server/http/groups/registry.ts): a request to one reaches no operation. */
function operationOf(method: string, path: string, environment: Environment) {
  const templates = environment === 'sandbox' ? allTemplates : allTemplates.filter((t) => !t.sandboxOnly);
  const matching = templates.filter((t) => t.pattern.test(path));
  const fewest = Math.min(...matching.map((t) => t.params));
  const found = matching.filter((t) => t.params === fewest && t.method === (method === 'HEAD' ? 'GET' : method));
  return found.length === 1 ? found[0] : undefined;
}

export function recordProblems(server: Server, environment: Environment = 'sandbox'): ProblemRecord {
  const record: ProblemRecord = { answered: new Map(), outside: [] };

  const check = (status: number, text: string, request: string, operation?: ReturnType<typeof operationOf>) => {
    let body: { type?: unknown; status?: unknown; title?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      record.outside.push(`${request}: a ${status} problem+json body that is not JSON`);
      return;
    }
    const type = String(body.type);
    const kind = type.startsWith(problemTypeBase) ? type.slice(problemTypeBase.length) : undefined;
    const known = kind === undefined ? undefined : problemTypes[kind as keyof typeof problemTypes];
    if (!kind || !known) {
      record.outside.push(`${request}: ${status} ${type} is not in the catalogue`);
      return;
    }
    record.answered.set(kind, (record.answered.get(kind) ?? 0) + 1);
    if (known.status !== status || body.status !== status || body.title !== known.title)
      record.outside.push(
        `${request}: ${kind} answered as ${status} "${String(body.title)}", the catalogue says ${known.status} "${known.title}"`,
      );
    // An unrouted kind is answered before a request reaches its operation (no Host, a body its coding does not
    // decode): no operation lists it.
    if (operation?.kinds && !(known as { unrouted?: boolean }).unrouted && !operation.kinds.includes(kind))
      record.outside.push(`${request}: ${operation.name} answered ${kind}, which its x-problem-types does not list`);
  };

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const path = (req.url ?? '/').split('?')[0]!;
    const request = `${req.method} ${path}`;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      if ((typeof chunk === 'string' || Buffer.isBuffer(chunk)) && String(res.getHeader('content-type')).includes('problem+json'))
        check(res.statusCode, chunk.toString(), request, operationOf(req.method ?? '', path, environment));
      return end(...args);
    }) as ServerResponse['end'];
  });

  // Registered first, so listen.ts's handler writes through the wrapped end.
  server.prependListener('clientError', (_err: Error, socket: Socket) => {
    const end = socket.end.bind(socket) as (...args: unknown[]) => Socket;
    socket.end = ((...args: unknown[]) => {
      const [data] = args;
      if (typeof data === 'string' && /content-type: application\/problem\+json/i.test(data)) {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
        check(status, data.slice(data.indexOf('\r\n\r\n') + 4), 'an unparsed request');
      }
      return end(...args);
    }) as Socket['end'];
  });
  return record;
}

// Judges one answer of the service against the operation's contract: never a 5xx; a success only with a
// documented status and a body valid against that response's schema; every failure a 4xx
// application/problem+json valid against the Problem schema (the documented response's when the status is
// documented), with the headers its status needs. Returns what is wrong, or nothing.
import { escapeToken, locate } from '../../scripts/contract/document.js';
import { bundles, validatorAt } from '../support/contract.js';
import type { ServedOperation } from '../support/operations.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The JSON pointer to the schema of a documented response's body (through $ref'd responses), if it has one. */
function responseSchemaPointer(o: ServedOperation, status: number): string | undefined {
  const doc = bundles[o.group];
  const [node, pointer] = locate(doc, o.op.responses[String(status)], `${o.pointer}/responses/${status}`);
  const type = Object.keys(node?.content ?? {})[0];
  return type ? `${pointer}/content/${escapeToken(type)}/schema` : undefined;
}

export function judge(o: ServedOperation, a: Answer): string | undefined {
  const documented = o.statuses.includes(a.status);
  const contentType = a.headers.get('content-type') ?? '';
  if (a.status >= 500) return `answered ${a.status}: ${a.text.slice(0, 300)}`;
  if (!a.headers.get('x-request-id')) return 'no X-Request-Id';
  if (a.status < 400) {
    if (!documented) return `undocumented success status ${a.status}`;
    const pointer = responseSchemaPointer(o, a.status);
    if (!pointer) return a.text === '' ? undefined : `a body where none is documented: ${a.text.slice(0, 200)}`;
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      return `a body that is not JSON: ${a.text.slice(0, 200)}`;
    }
    const validate = validatorAt(o.group, pointer);
    return validate(body) ? undefined : `a ${a.status} body that breaks the contract: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
  }
  if (!contentType.includes('application/problem+json'))
    return `a ${a.status} that is not problem+json (${contentType}): ${a.text.slice(0, 200)}`;
  let problem: unknown;
  try {
    problem = JSON.parse(a.text);
  } catch {
    return `a ${a.status} problem that is not JSON`;
  }
  const validate = validatorAt(o.group, (documented && responseSchemaPointer(o, a.status)) || '#/components/schemas/Problem');
  if (!validate(problem)) return `a ${a.status} problem that breaks the contract: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
  if ((problem as { status?: number }).status !== a.status) return `a problem whose status is not the response's`;
  if (a.status === 401 && !a.headers.get('www-authenticate')) return '401 without WWW-Authenticate';
  if (a.status === 429 && !a.headers.get('retry-after')) return '429 without Retry-After';
  return undefined;
}

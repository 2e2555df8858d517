// The failures of `POST /oauth/token` in RFC 6749 §5.2's terms, so that OAuth libraries read them: every failure
// carries `error` and `error_description`. A 400 is `invalid_request`, or `unsupported_grant_type` when only the
// grant type is wrong, or `invalid_scope` when only the scope is; a 401 is `invalid_client` (set where it is raised);
// the statuses §5.2 does not name take the codes the OAuth error registry gives them (`temporarily_unavailable`
// for a 429, `server_error` for a 5xx, `invalid_request` for any other 4xx). A client whose Accept names
// `application/json` but not `application/problem+json` (oauth4webapi, openid-client) gets a 400 or 401 under
// §5.2's media type, as the contract documents; other operations are left as they are.
import type { Request } from 'express';
import { Problem, type OAuthErrorCode } from '../platform/problems.js';

/** The OAuth token endpoint, where groups A and D serve it. */
export const oauthTokenPath = '/oauth/token';

const isTokenRequest = (req: Request) => req.path === oauthTokenPath;

/** The code of a 400 whose fields at fault are all `field`, sent as a string. */
const onlyField = (req: Request, problem: Problem, field: string) =>
  problem.kind === 'validation-error' &&
  (problem.extra.errors ?? []).length > 0 &&
  (problem.extra.errors ?? []).every((e) => e.pointer === `#/${field}`) &&
  typeof (req.body as Record<string, unknown> | undefined)?.[field] === 'string';

function codeOf(req: Request, problem: Problem): OAuthErrorCode {
  if (problem.status === 400) {
    if (onlyField(req, problem, 'grant_type')) return 'unsupported_grant_type';
    if (onlyField(req, problem, 'scope')) return 'invalid_scope';
    return 'invalid_request';
  }
  if (problem.status === 401) return 'invalid_client';
  if (problem.status === 429) return 'temporarily_unavailable';
  return problem.status >= 500 ? 'server_error' : 'invalid_request';
}

export function asOAuthError(req: Request, problem: Problem): Problem {
  if (!isTokenRequest(req) || problem.extra.error) return problem;
  return new Problem(problem.kind, problem.detail, { ...problem.extra, error: codeOf(req, problem) });
}

/** The media type of a problem: §5.2's `application/json` only where the token operation documents it. */
export function problemMediaType(req: Request, problem: Problem): string {
  if (!isTokenRequest(req) || (problem.status !== 400 && problem.status !== 401)) return 'application/problem+json';
  const accept = req.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/application\/problem\+json/i.test(accept) ? 'application/json' : 'application/problem+json';
}

// The failures of `POST /oauth/token` in RFC 6749 §5.2's terms, so that OAuth libraries read them: every 400 carries
// `error` (`unsupported_grant_type` when only the grant type is wrong, else `invalid_request`), and a client whose
// Accept names `application/json` but not `application/problem+json` (oauth4webapi, openid-client) gets the same
// body under §5.2's media type. Other operations, and the token operation's other statuses, are left as they are.
import type { Request } from 'express';
import { Problem } from '../platform/problems.js';

/** The OAuth token endpoint, where groups A and D serve it. */
export const oauthTokenPath = '/oauth/token';

const isTokenRequest = (req: Request) => req.path === oauthTokenPath;

export function asOAuthError(req: Request, problem: Problem): Problem {
  if (!isTokenRequest(req) || problem.status !== 400 || problem.extra.error) return problem;
  const onlyGrantType =
    problem.kind === 'validation-error' &&
    (problem.extra.errors ?? []).every((e) => e.pointer === '#/grant_type') &&
    typeof (req.body as { grant_type?: unknown } | undefined)?.grant_type === 'string';
  return new Problem(problem.kind, problem.detail, {
    ...problem.extra,
    error: onlyGrantType ? 'unsupported_grant_type' : 'invalid_request',
  });
}

/** The media type of a problem: §5.2's `application/json` only where the token operation documents it. */
export function problemMediaType(req: Request, problem: Problem): string {
  if (!isTokenRequest(req) || (problem.status !== 400 && problem.status !== 401)) return 'application/problem+json';
  const accept = req.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/application\/problem\+json/i.test(accept) ? 'application/json' : 'application/problem+json';
}

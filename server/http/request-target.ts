// The request target and Host (RFC 9112, section 3.2). A server must accept the absolute form
// (`POST http://api.example/v1/payouts HTTP/1.1`, what a client talking through a proxy sends) and take the host
// from it: it is rewritten here to the origin form everything after routes by (express-openapi-validator reads
// `originalUrl`). An HTTP/1.1 request without Host, or any with more than one, is refused as the protocol requires,
// as a problem rather than Node's bare 400 (http/listen.ts turns Node's own check off; Node keeps the first of
// several Host headers).
import type { RequestHandler } from 'express';
import { Problem } from '../platform/problems.js';

const absoluteForm = /^https?:\/\/([^/?#]*)([^#]*)$/i;

const hostRequired = new Problem('malformed-request', 'An HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2).', {
  errors: [{ header: 'Host', detail: 'is required in HTTP/1.1' }],
});
const oneHost = new Problem('malformed-request', 'A request must carry one Host header, not several (RFC 9112, section 3.2).', {
  errors: [{ header: 'Host', detail: 'must be sent once' }],
});

function hostLines(rawHeaders: string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

export const requestTarget: RequestHandler = (req, _res, next) => {
  const absolute = req.url.startsWith('/') ? null : absoluteForm.exec(req.url);
  if (absolute) {
    const rest = absolute[2] ?? '';
    req.headers.host = absolute[1];
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    req.originalUrl = req.url;
  }
  if (hostLines(req.rawHeaders) > 1) return next(oneHost);
  if (req.httpVersion === '1.1' && !req.headers.host) return next(hostRequired);
  next();
};

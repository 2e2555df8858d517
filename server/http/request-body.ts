// How request bodies are read: JSON and form bodies (the media types the contract takes), in UTF-8 only, sent as
// they are or in a content coding Node decodes (body-parser's: gzip, deflate, br, and zstd where Node has it).
// What body parsing refuses becomes a problem saying what was wrong and what is accepted (RFC 9110, sections
// 8.4 and 15.5.16): an unknown Content-Encoding or charset is a 415 naming it, with `Accept-Encoding` for the
// first; a body its coding does not decode is a 400 saying so.
import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { Problem } from '../platform/problems.js';
import { chain } from './middleware-chain.js';
import { cutToCodePoints } from '../platform/text/code-points.js';
import './locals.js';

/** The content codings body-parser decodes on this Node (it checks for zstd the same way). */
export const contentCodings: readonly string[] = ['gzip', 'deflate', 'br', ...('createZstdDecompress' in zlib ? ['zstd'] : [])];

/** Cut to what a problem's detail should quote of a header the caller chose. */
const quoted = (value: string) => JSON.stringify(cutToCodePoints(value.replace(/[\x00-\x1f\x7f]/g, ' '), 60));

/** body-parser's `verify` runs on every body it read (its content coding undone), before decoding its text: the
 * charset it would decode with is refused unless UTF-8 (body-parser alone takes any `utf-*` for JSON, UTF-7
 * included, and ISO-8859-1 for forms), and a zero-length body is marked, so that it reaches validation as absent
 * rather than as `{}` (an operation whose body is required would otherwise take "nothing" as "an empty object"). */
function verify(_req: unknown, res: ServerResponse, buf: Buffer, charset: string | null): void {
  if (charset !== null && charset !== 'utf-8')
    throw Object.assign(new Error('unsupported charset'), { type: 'charset.unsupported', charset });
  if (buf.length === 0) (res as Response).locals.emptyBody = true;
}

const emptyIsAbsent: RequestHandler = (req, res, next) => {
  if (res.locals.emptyBody === true) req.body = undefined;
  next();
};

const parse = chain([
  express.json({ limit: '1mb', verify }),
  express.urlencoded({ extended: false, limit: '16kb', verify }),
  emptyIsAbsent,
]);

/** The body parsers app.ts runs on every request. A request without a body (neither Content-Length nor
 * Transfer-Encoding, RFC 9112 section 6.3: most reads) skips them; each would find that out for itself. */
export const bodyParsers: readonly RequestHandler[] = [
  (req, res, next) => {
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return parse(req, res, next);
    req.body = undefined;
    next();
  },
];

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
  encoding?: string;
  errno?: unknown;
}

/** The problem for a failure of body parsing, or undefined when the error is not one. */
export function bodyRefusal(err: unknown, req: Request): Problem | undefined {
  const e = (err ?? {}) as BodyParserError;
  const coding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  switch (e.type) {
    case 'entity.parse.failed':
      return new Problem('malformed-json', 'The request body could not be parsed as JSON.');
    case 'entity.too.large':
      return new Problem('payload-too-large', `Request bodies here are limited to ${e.limit ?? 1048576} bytes.`);
    case 'encoding.unsupported':
      return new Problem(
        'unsupported-media-type',
        `Content-Encoding ${quoted(e.encoding ?? coding)} is not supported: send the body uncompressed or encoded as one of ${contentCodings.join(', ')}.`,
        { headers: { 'Accept-Encoding': contentCodings.join(', ') } },
      );
    case 'charset.unsupported':
      return new Problem(
        'unsupported-media-type',
        `The charset ${quoted(e.charset ?? '')} is not accepted: send the body in UTF-8 (charset=utf-8, or no charset).`,
      );
    case undefined:
      // The decompressing stream failed (zlib's errors carry an errno): the body is not what its coding says.
      if (coding !== 'identity' && typeof e.errno === 'number')
        return new Problem('malformed-request', `The request body could not be decoded as its Content-Encoding, ${quoted(coding)}, says.`);
      return undefined;
    default:
      return undefined;
  }
}

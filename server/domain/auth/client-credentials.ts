// The client credentials of a token request (RFC 6749 §2.3.1): in the body (`client_id`, `client_secret`) or
// in an `Authorization: Basic` header, which is what OAuth libraries and Postman send by default. One method per
// request (RFC 6749 §2.3): a secret in both places is refused; a body that names the header's own `client_id`
// is allowed, since some libraries send it anyway.
import { bodyField, invalidRequest, Problem } from '../../platform/problems.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** How they came: a refusal answers with the challenge of the scheme the client used (RFC 6749 §5.2). */
  method: 'body' | 'basic';
}

const basic = /^basic +([A-Za-z0-9+/]+={0,2})$/i;
const clientId = /^[A-Za-z0-9_-]{1,100}$/;
const clientSecret = /^[\x21-\x7E]{1,200}$/;
const both = 'Send client_id and client_secret in the body, or both in an Authorization Basic header.';

/** Wrong credentials sent by Basic: 401 `invalid_client` with a Basic challenge, saying no more than the body form. */
export const invalidBasicClient = (): Problem =>
  new Problem('invalid-client', 'The Client ID or Client Secret is wrong, or the credentials were revoked.', {
    error: 'invalid_client',
    challenge: { scheme: 'Basic', realm: 'payouts' },
  });

/** Neither a Basic header nor both body fields: 401 `invalid_client`, challenging with the scheme to use. */
export const noClientAuthentication = (): Problem =>
  new Problem('invalid-client', `No client credentials were sent. ${both}`, {
    error: 'invalid_client',
    challenge: { scheme: 'Basic', realm: 'payouts' },
  });

/** Form-decoding of one part of the Basic credential (`+` is a space, then percent-decoding); undefined when broken. */
function formDecoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The `id:secret` of a Basic header, or undefined when the header is not Basic at all. Throws 401 when it is
 * Basic but cannot hold credentials of this service (they could never be right). */
function fromBasic(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (!header || !/^basic\b/i.test(header)) return undefined;
  const encoded = basic.exec(header)?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = colon > 0 ? formDecoded(decoded.slice(0, colon)) : undefined;
  const secret = colon > 0 ? formDecoded(decoded.slice(colon + 1)) : undefined;
  if (id === undefined || secret === undefined || !clientId.test(id) || !clientSecret.test(secret)) throw invalidBasicClient();
  return { clientId: id, clientSecret: secret };
}

export function clientCredentialsOf(
  authorization: string | undefined,
  body: { client_id?: string; client_secret?: string },
): ClientCredentials {
  const header = fromBasic(authorization);
  if (header) {
    const fields = [];
    if (body.client_secret !== undefined)
      fields.push(bodyField('client_secret', 'Send the Client Secret in the body or in the Authorization header, not both.'));
    if (body.client_id !== undefined && body.client_id !== header.clientId)
      fields.push(bodyField('client_id', "Differs from the Authorization header's Client ID."));
    if (fields.length > 0) throw invalidRequest(fields);
    return { ...header, method: 'basic' };
  }
  // No (complete) client authentication at all is RFC 6749 §5.2's invalid_client, not a malformed request: the body
  // itself is valid, since the credentials may come by Basic.
  if (body.client_id === undefined || body.client_secret === undefined) throw noClientAuthentication();
  return { clientId: body.client_id, clientSecret: body.client_secret, method: 'body' };
}

// Requests from a chosen client address. On Linux every address of 127.0.0.0/8 is the loopback interface, so a
// test can connect from 127.0.0.2, 127.0.0.3, ... and the service sees genuinely different addresses, with no
// need to trust a client-supplied X-Forwarded-For (which would let anyone pick their own address).
import http from 'node:http';

export interface AddressedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or undefined. */
  body: any;
}

export function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<AddressedAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        localAddress,
        agent: false,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

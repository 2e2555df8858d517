// Plain HTTP for the security suites: an attacker does not use our client, so requests are built by hand
// with whatever token, body and headers a case needs, and answers are read whole.
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  body: any;
}

export interface Call {
  token?: string;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

export async function send(baseUrl: string, method: string, path: string, call: Call = {}): Promise<Answer> {
  const url = new URL(path, baseUrl);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, String(value));
  const hasBody = call.raw !== undefined || call.body !== undefined;
  const response = await fetch(url, {
    method,
    headers: {
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...call.headers,
    },
    body: call.raw ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export const problemType = (kind: string) => `https://payouts.example/problems/${kind}`;

/** A concrete path for an operation's template: each `{param}` from `values`, else `1`. */
export const fill = (template: string, values: Record<string, string | number> = {}) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? 1)));

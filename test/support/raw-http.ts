// HTTP written by hand on a socket, for what fetch cannot send (no Host, an absolute-form target, a body trickled
// in) and for what happens to the connection itself (closed, refused). Everything waits on socket events.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** 0 when the connection closed without an answer. */
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  body: any;
}

/** A connected socket to the service at `baseUrl`. */
export async function open(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Everything the peer sends until the connection closes (a reset ends it too), parsed as one answer. */
export function answerOf(socket: Socket): Promise<RawAnswer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  return new Promise((resolve) => {
    socket.once('close', () => resolve(parse(Buffer.concat(chunks).toString('latin1'))));
  });
}

function parse(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, text: raw, body: undefined };
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const text = Buffer.from(raw.slice(end + 4), 'latin1').toString('utf8');
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, text, body };
}

/** Sends one request (head and body as given, so it should say `Connection: close`: the server closes the
 * connection after answering; half-closing ours would make Node drop the request) and reads the answer. */
export async function exchange(baseUrl: string, head: string, body: Buffer | string = ''): Promise<RawAnswer> {
  const socket = await open(baseUrl);
  const answer = answerOf(socket);
  socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]));
  return answer;
}

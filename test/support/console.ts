// A console user and a browser-like caller of the console API for tests: it keeps the session cookie the service
// sets, sends it back with the page's Origin, and adds the session's CSRF token to requests that change something,
// as the console's page does. Each case can leave any of them out to see the refusal.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/console/schema.js';
import type { Owner } from '../../server/domain/events/owners.js';
import { type Answer, type Call, send } from './requests.js';
import type { ServiceFixture } from './use-service.js';

export const consolePassword = 'correct horse battery staple';

let users = 0;

/** A console user of `owner`, made as the admin CLI makes one; a fresh address unless one is given. */
export async function newConsoleUser(service: Pick<ServiceFixture, 'services'>, owner: Owner, email?: string) {
  const address = email ?? `user${++users}.${Date.now()}@northwind.example`;
  const user = await service.services.consoleUsers.create(owner, address, consolePassword);
  return { ...user, password: consolePassword };
}

export interface ConsoleCall extends Call {
  /** Send no Origin (a non-browser caller); by default the console's own origin. */
  origin?: string | null;
  /** The CSRF token to send: the session's by default on POST, PUT, PATCH and DELETE; null for none. */
  csrf?: string | null;
  /** Send no session cookie. */
  noCookie?: boolean;
}

export class ConsoleBrowser {
  cookie: string | undefined;
  csrfToken: string | undefined;
  /** The Set-Cookie of the last answer that set one. */
  setCookie: string | undefined;

  constructor(private readonly service: Pick<ServiceFixture, 'baseUrl'>) {}

  async signIn(email: string, password = consolePassword, call: ConsoleCall = {}): Promise<Answer> {
    const answer = await this.send('POST', '/console/api/sessions', { body: { email, password }, csrf: null, ...call });
    if (answer.status === 201) this.csrfToken = answer.body.csrfToken;
    return answer;
  }

  async send(method: string, path: string, call: ConsoleCall = {}): Promise<Answer> {
    const changes = !['GET', 'HEAD'].includes(method);
    const csrf = call.csrf === undefined ? (changes ? this.csrfToken : undefined) : (call.csrf ?? undefined);
    const origin = call.origin === undefined ? this.service.baseUrl : (call.origin ?? undefined);
    const headers: Record<string, string> = {
      ...(origin === undefined ? {} : { origin }),
      ...(csrf === undefined ? {} : { 'x-csrf-token': csrf }),
      ...(this.cookie === undefined || call.noCookie ? {} : { cookie: this.cookie }),
      ...call.headers,
    };
    const answer = await send(this.service.baseUrl, method, path, { ...call, headers });
    const set = answer.headers.getSetCookie()[0];
    if (set !== undefined) {
      this.setCookie = set;
      const pair = set.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return answer;
  }
}

/** A browser signed in as a new console user of `owner`. */
export async function signedIn(service: Pick<ServiceFixture, 'services' | 'baseUrl'>, owner: Owner) {
  const user = await newConsoleUser(service, owner);
  const browser = new ConsoleBrowser(service);
  const answer = await browser.signIn(user.email);
  if (answer.status !== 201) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  return { user, browser };
}

/**
 * The console API as the console's page calls it: an openapi-fetch client typed by generated/console, whose
 * requests carry the browser's cookie, Origin and CSRF token (the same as `ConsoleBrowser.send`).
 */
export function consoleClient(browser: ConsoleBrowser, baseUrl: string) {
  return createClient<paths>({
    baseUrl,
    fetch: async (request: Request) => {
      const changes = !['GET', 'HEAD'].includes(request.method);
      const headers = new Headers(request.headers);
      headers.set('origin', baseUrl);
      if (browser.cookie !== undefined) headers.set('cookie', browser.cookie);
      if (changes && browser.csrfToken !== undefined) headers.set('x-csrf-token', browser.csrfToken);
      const body = changes ? await request.text() : undefined;
      const response = await fetch(request.url, { method: request.method, headers, body: body || undefined });
      const set = response.headers.getSetCookie()[0];
      if (set !== undefined) {
        browser.setCookie = set;
        const pair = set.split(';')[0]!;
        browser.cookie = pair.endsWith('=') ? undefined : pair;
      }
      return response;
    },
  });
}

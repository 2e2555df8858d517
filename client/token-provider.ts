// Access tokens for a client: fetched with the client's credentials, cached, renewed shortly before they
// expire, and fetched by one request at a time however many calls need one at once (single flight).
export interface IssuedToken {
  access_token: string;
  expires_in: number;
}

export interface TokenProviderOptions {
  /** Renew this many seconds before expiry (default 60, capped at half the lifetime). */
  renewBeforeSeconds?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export class TokenProvider {
  private token?: { value: string; renewAt: number };
  private inFlight?: Promise<string>;
  private readonly renewBefore: number;
  private readonly now: () => number;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    options: TokenProviderOptions = {},
  ) {
    this.renewBefore = options.renewBeforeSeconds ?? 60;
    this.now = options.now ?? Date.now;
  }

  /** A token valid for at least the renewal margin. */
  async get(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forget `value` after the server refused it, so the next get() fetches a new one (once, for all callers). */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }

  private async fetch(): Promise<string> {
    const issued = await this.issue();
    const margin = Math.min(this.renewBefore, issued.expires_in / 2);
    this.token = { value: issued.access_token, renewAt: this.now() + (issued.expires_in - margin) * 1000 };
    return issued.access_token;
  }
}

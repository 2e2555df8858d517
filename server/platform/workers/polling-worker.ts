// A background worker that runs rounds: when woken (after a write that made work) or every pollMs, and
// round after round while each comes back full, so a backlog drains without waiting for the poll.
// One round at a time; a wake during a round schedules another, no sooner than settleMs after it ends.
// Used by every engine and dispatcher.
import type { Logger } from 'pino';

export class PollingWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private again = false;
  private settling = false;
  private lastEnded = -Infinity;

  constructor(
    private readonly name: string,
    /** Does one batch of work and returns how many items it took. */
    private readonly round: () => Promise<number>,
    private readonly settings: {
      pollMs: number;
      batchSize: number;
      /**
       * The least time between the end of a round and a round a wake asks for (default 0; a full round is
       * followed at once regardless). Under a steady stream of wakes, one per request, a round then takes the
       * work of many requests instead of one, and its fixed cost (a query for due work, a commit) is paid far
       * less often; a lone wake after a quiet spell still starts a round at once.
       */
      settleMs?: number;
    },
    private readonly log: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.settling = false;
    clearTimeout(this.timer);
    await this.running;
  }

  wake(): void {
    if (this.stopped || this.settling) return; // a round is already due in a moment
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    const wait = this.lastEnded + (this.settings.settleMs ?? 0) - performance.now();
    if (wait > 0) {
      this.settling = true;
      this.timer = setTimeout(() => {
        this.settling = false;
        this.wake();
      }, wait);
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
      this.lastEnded = performance.now();
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else this.timer = setTimeout(() => this.wake(), this.settings.pollMs);
    });
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopped && (await this.round()) >= this.settings.batchSize);
    } catch (err) {
      this.log.error({ err, worker: this.name }, 'worker round failed');
    }
  }
}

// The limits of the embedded store when `npm start` runs several processes (server/primary.ts): counted in the
// primary process's memory, asked over the processes' IPC channel. Each process's own memory would give a caller
// one budget per process; the SQLite file would make every request a write that waits for the one write lock.
// The primary does nothing else, so a count is one round trip to an idle process (about 0.1 ms), and the counts
// are exactly those of one process: the same fixed windows (rate-limiter-flexible in memory), each count one step
// of the primary's event loop, so no two processes can both pass a check. The counts end with the primary, as a
// single process's did.
//
// A child whose question is not answered in time (the primary is gone or stuck) gets LimitStoreUnavailable, as
// from an unreachable Redis: the rate limit then counts in the child's memory, the failed-attempt limits refuse.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { sendMessage } from '../process-messages.js';
import { type Count, type Limiter, LimitStoreUnavailable, type Limits, memoryLimits } from './limits.js';

/** One question of a child to the primary. */
interface Question {
  id: number;
  op: 'consume' | 'reward' | 'delete';
  name: string;
  points: number;
  duration: number;
  key: string;
}

/** The questions a child asked in one turn of its event loop, in one message (one write to the channel). */
export interface LimitQuestion {
  limits: Question[];
}

/** The primary's answers to one message: each the count, or an error message. */
export interface LimitAnswer {
  limitsAnswer: { id: number; count?: Count; error?: string }[];
}

export const isLimitQuestion = (message: unknown): message is LimitQuestion =>
  typeof message === 'object' && message !== null && 'limits' in message;

const isLimitAnswer = (message: unknown): message is LimitAnswer =>
  typeof message === 'object' && message !== null && 'limitsAnswer' in message;

/** How long a child waits for the primary before it counts the limits' store as unreachable. */
const answerTimeoutMs = 2000;

export interface Channel {
  send(message: LimitQuestion): void;
  onMessage(listener: (message: unknown) => void): void;
  offMessage(listener: (message: unknown) => void): void;
}

/** The process's own IPC channel to the primary (node:cluster or child_process.fork). */
export function parentChannel(): Channel {
  if (!process.send) throw new Error('this process has no IPC channel to a primary');
  return {
    send: (message) => sendMessage(process, message),
    onMessage: (listener) => process.on('message', listener),
    offMessage: (listener) => process.off('message', listener),
  };
}

/** A child's limits: every count asked of the primary. */
export function primaryLimits(channel: Channel = parentChannel()): Limits {
  let nextId = 1;
  const waiting = new Map<number, { resolve(count: Count | undefined): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  const listener = (message: unknown) => {
    if (!isLimitAnswer(message)) return;
    for (const { id, count, error } of message.limitsAnswer) {
      const w = waiting.get(id);
      if (!w) continue;
      waiting.delete(id);
      clearTimeout(w.timer);
      if (error !== undefined) w.reject(new LimitStoreUnavailable(`the primary could not count: ${error}`));
      else w.resolve(count);
    }
  };
  channel.onMessage(listener);
  // The questions of one turn go together: a write to the channel costs more than the count (a profile of an HTTP
  // process under the pipeline's load put one write per request at about 8% of its CPU).
  let unsent: Question[] = [];
  const flush = () => {
    const questions = unsent;
    unsent = [];
    try {
      channel.send({ limits: questions });
    } catch (err) {
      for (const { id } of questions) {
        const w = waiting.get(id);
        if (!w) continue;
        waiting.delete(id);
        clearTimeout(w.timer);
        w.reject(new LimitStoreUnavailable('the primary cannot be reached', { cause: err }));
      }
    }
  };
  const ask = (question: Omit<Question, 'id'>) =>
    new Promise<Count | undefined>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new LimitStoreUnavailable(`the primary did not answer within ${answerTimeoutMs} ms`));
      }, answerTimeoutMs);
      timer.unref();
      waiting.set(id, { resolve, reject, timer });
      if (unsent.length === 0) setImmediate(flush);
      unsent.push({ id, ...question });
    });
  return {
    kind: 'primary',
    limiter(name, points, duration, { refuseSpentLocally = false } = {}): Limiter {
      // A key seen spending its budget is refused here until its window closes, without asking again.
      const spent = new Map<string, number>();
      return {
        points,
        async consume(key) {
          const until = spent.get(key);
          if (until !== undefined) {
            const left = until - Date.now();
            if (left > 0) return { allowed: false, remaining: 0, msBeforeNext: left };
            spent.delete(key);
          }
          const count = (await ask({ op: 'consume', name, points, duration, key }))!;
          if (refuseSpentLocally && !count.allowed) spent.set(key, Date.now() + count.msBeforeNext);
          return count;
        },
        async reward(key) {
          await ask({ op: 'reward', name, points, duration, key });
        },
        async delete(key) {
          spent.delete(key);
          await ask({ op: 'delete', name, points, duration, key });
        },
      };
    },
    local: memoryLimits().local,
    close: async () => {
      channel.offMessage(listener);
      unsent = [];
      for (const [id, w] of waiting) {
        clearTimeout(w.timer);
        w.reject(new LimitStoreUnavailable('the limits were closed'));
        waiting.delete(id);
      }
    },
  };
}

/** The primary's side: the counts of every child, one memory limiter per limit (name, points and window). */
export class PrimaryLimitCounts {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  async answer({ limits: questions }: LimitQuestion): Promise<LimitAnswer> {
    // One after another, in the order asked: each count sees the ones before it.
    const answers: LimitAnswer['limitsAnswer'] = [];
    for (const q of questions) answers.push(await this.answerOne(q));
    return { limitsAnswer: answers };
  }

  private async answerOne(q: Question): Promise<LimitAnswer['limitsAnswer'][number]> {
    const id = `${q.name}:${q.points}:${q.duration}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: q.name, points: q.points, duration: q.duration });
      this.limiters.set(id, limiter);
    }
    try {
      if (q.op === 'reward') await limiter.reward(q.key);
      else if (q.op === 'delete') await limiter.delete(q.key);
      else {
        try {
          const res = await limiter.consume(q.key);
          return { id: q.id, count: { allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext } };
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err;
          return { id: q.id, count: { allowed: false, remaining: 0, msBeforeNext: err.msBeforeNext } };
        }
      }
      return { id: q.id };
    } catch (err) {
      return { id: q.id, error: err instanceof Error ? err.message : String(err) };
    }
  }
}

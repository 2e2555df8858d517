// The embedded store's limits when `npm start` runs several processes (server/platform/limits/primary-limits.ts):
// each process asks the primary, which keeps one count for all. Here two "processes" are two clients of one
// PrimaryLimitCounts over in-memory channels (test/reliability/processes.test.ts runs the real processes).
import { describe, expect, it } from 'vitest';
import { LimitStoreUnavailable } from '../../server/platform/limits/limits.js';
import { type Channel, type LimitQuestion, PrimaryLimitCounts, primaryLimits } from '../../server/platform/limits/primary-limits.js';

/** A channel to `counts`, answering like the primary, or never (`silent`); counts the messages sent. */
function channelTo(counts: PrimaryLimitCounts, silent = false) {
  const listeners = new Set<(m: unknown) => void>();
  const sent: LimitQuestion[] = [];
  const channel: Channel = {
    send(message) {
      sent.push(message);
      if (!silent)
        void counts.answer(message).then((answer) =>
          setImmediate(() => {
            for (const listener of listeners) listener(answer);
          }),
        );
    },
    onMessage: (l) => listeners.add(l),
    offMessage: (l) => listeners.delete(l),
  };
  return { channel, sent };
}

describe('limits counted by the primary', () => {
  it('give two processes one budget, counted in the order asked', async () => {
    const counts = new PrimaryLimitCounts();
    const [a, b] = [channelTo(counts), channelTo(counts)].map(({ channel }) => primaryLimits(channel).limiter('rate', 5, 60));
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await (i % 2 === 0 ? a! : b!).consume('merchant:1'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(results.slice(0, 5).map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect((await a!.consume('merchant:2')).allowed, 'another key has its own budget').toBe(true);
  });

  it('ask the questions of one turn in one message', async () => {
    const counts = new PrimaryLimitCounts();
    const { channel, sent } = channelTo(counts);
    const limiter = primaryLimits(channel).limiter('rate', 100, 60);
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.consume('k')));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.limits).toHaveLength(10);
    expect(results.map((r) => r.remaining).sort((x, y) => y - x)).toEqual([99, 98, 97, 96, 95, 94, 93, 92, 91, 90]);
  });

  it('take a count back, and forget a key', async () => {
    const counts = new PrimaryLimitCounts();
    const limiter = primaryLimits(channelTo(counts).channel).limiter('failed-pair', 2, 300);
    await limiter.consume('k');
    await limiter.consume('k');
    await limiter.reward('k');
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.consume('k')).allowed).toBe(false);
    await limiter.delete('k');
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('refuse a spent key from memory until its window closes, without asking again', async () => {
    const counts = new PrimaryLimitCounts();
    const { channel, sent } = channelTo(counts);
    const limiter = primaryLimits(channel).limiter('rate', 1, 60, { refuseSpentLocally: true });
    await limiter.consume('k');
    expect((await limiter.consume('k')).allowed).toBe(false);
    const asked = sent.length;
    const refused = await limiter.consume('k');
    expect(refused.allowed).toBe(false);
    expect(refused.msBeforeNext).toBeGreaterThan(50_000);
    expect(sent).toHaveLength(asked);
  });

  it('report the store unavailable when the primary does not answer, or once closed', async () => {
    const limits = primaryLimits(channelTo(new PrimaryLimitCounts(), true).channel);
    const pending = limits.limiter('rate', 1, 60).consume('k');
    await limits.close();
    await expect(pending).rejects.toBeInstanceOf(LimitStoreUnavailable);
  });
});

// A message to a process that has just died never throws nor raises an 'error' (server/platform/process-messages.ts):
// the primary sends to its children all the time, and a `kill -9` of one lands between the check that its channel
// is open and the write. A real child here, killed while messages stream to it. (Node's own `send` without a callback
// raises that EPIPE as an 'error' event, which would end the sender; the window is too short to hit on every run,
// so this file holds the guarded send to never failing that way, rather than racing the unguarded one.)
import { type ChildProcess, fork } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../server/platform/process-messages.js';

/** A child that only keeps its channel open, and says when it is up. */
function child(): Promise<ChildProcess> {
  const c = fork('-e', ['process.send("up"); process.on("message", () => {}); setInterval(() => {}, 1000);'], { stdio: 'ignore' });
  return new Promise((resolve) => c.once('message', () => resolve(c)));
}

/** Streams messages to the child through `send` until it has exited and its channel closed, killing it meanwhile. */
async function killWhileSending(send: (c: ChildProcess) => void): Promise<{ errorEvents: Error[]; thrown: unknown[] }> {
  const c = await child();
  const errorEvents: Error[] = [];
  const thrown: unknown[] = [];
  c.on('error', (err) => errorEvents.push(err));
  let closed = false;
  c.once('close', () => {
    closed = true;
  });
  let sent = 0;
  await new Promise<void>((resolve) => {
    const next = () => {
      try {
        send(c);
      } catch (err) {
        thrown.push(err);
      }
      sent += 1;
      if (sent === 200) c.kill('SIGKILL');
      if (closed && sent > 200) resolve();
      else setImmediate(next);
    };
    next();
  });
  return { errorEvents, thrown };
}

describe('a message to a process that dies meanwhile', () => {
  it('fails to the callback, never as a throw or an error event', async () => {
    const failures: Error[] = [];
    const { errorEvents, thrown } = await killWhileSending((c) =>
      sendMessage(c as never, { wake: ['payouts'] }, (err) => failures.push(err)),
    );
    expect(thrown).toEqual([]);
    expect(errorEvents).toEqual([]);
    for (const err of failures) expect((err as NodeJS.ErrnoException).code ?? err.message).toMatch(/EPIPE|ECONNRESET|ERR_IPC|closed/i);
  });

  it('is refused without a write once the channel is closed', async () => {
    const c = await child();
    c.kill('SIGKILL');
    await new Promise((resolve) => c.once('close', resolve));
    expect(sendMessage(c as never, { wake: [] })).toBe(false);
  });
});

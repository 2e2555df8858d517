// The one way a message goes from one process of `npm start` to another over their IPC channel (the primary to a
// child, a child to the primary), and it never throws. A child can die between the check that its channel is
// connected and the write (a `kill -9`): node then fails the write with EPIPE, and without a callback it raises
// that as an 'error' event, which with no listener ends the process that sent it: the primary, and with it the
// service. Here the failure goes to a callback instead; the receiver's death is seen by its 'exit' (the primary
// starts another) or, for a child, by its own end, so a lost message needs nothing more.
import type { Worker } from 'node:cluster';
import type { Serializable } from 'node:child_process';

/** Sends `message` if the channel is open; false when it was not sent (closed, or the write failed at once). */
export function sendMessage(to: Worker | NodeJS.Process, message: Serializable, onFailure: (err: Error) => void = () => {}): boolean {
  const failed = (err: Error | null) => {
    if (err) onFailure(err);
  };
  try {
    if ('isConnected' in to) return to.isConnected() && to.send(message, undefined, undefined, failed);
    return to.connected && to.send?.(message, undefined, undefined, failed) === true;
  } catch (err) {
    // A channel closed between the check and the write may also throw at once (ERR_IPC_CHANNEL_CLOSED).
    onFailure(err as Error);
    return false;
  }
}

// Polling for the e2e harness and the tests.
//
// `waitFor` retries a check until it returns a truthy value or the timeout
// passes; `fatal` builds an error that makes a check abort the wait at once
// (e.g. a server that reports "failed" will never become "connected").

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `fn` until it returns a truthy value (which is returned). Exceptions
 * thrown by `fn` count as "not yet" (e.g. stale elements while React
 * re-renders) and are reported if the wait times out; throw `fatal(msg)` to
 * stop waiting at once. `message` may be a function (evaluated on timeout).
 */
export async function waitFor(fn, { timeout = 10_000, interval = 250, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  let lastValue;
  for (;;) {
    try {
      lastValue = await fn();
      if (lastValue) return lastValue;
      lastError = undefined;
    } catch (err) {
      if (err?.fatal) throw err; // fn can abort the wait early
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
  }
  const detail = lastError
    ? `last error: ${lastError.message ?? lastError}`
    : `last value: ${JSON.stringify(lastValue)}`;
  const what = typeof message === 'function' ? message() : message;
  throw new Error(`Timed out after ${timeout} ms waiting for ${what} (${detail})`);
}

/** An error that makes waitFor stop immediately instead of retrying. */
export function fatal(message) {
  const err = new Error(message);
  err.fatal = true;
  return err;
}

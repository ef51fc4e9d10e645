// The app's IPC as the window uses it, driven from the main webview through WebDriver: invoke a
// command (as the UI does), and read the per-launch invoke key Tauri gives the main webview's
// scripts (a test hands it to an app view to show that even the real key gives a view nothing);
// and the app's own output, where it says what it refused.

import { readFileSync } from 'node:fs';

import { waitFor } from './wait-for.mjs';

/** Invokes `cmd` from the main webview (the session must be in it); rejects with its error. */
export async function invoke(session, cmd, args = {}) {
  const out = await session.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     window.__TAURI_INTERNALS__.invoke(arguments[0], arguments[1])
       .then((value) => done({ value }), (error) => done({ error }));`,
    [cmd, args],
  );
  if (out.error !== undefined) throw new Error(`${cmd}: ${JSON.stringify(out.error)}`);
  return out.value;
}

/**
 * Tauri's invoke key, as the main webview's IPC script sends it: the `Tauri-Invoke-Key` header of
 * the next command it sends (the script keeps the key in a closure, so it is read off the wire).
 */
export async function invokeKey(session) {
  const key = await session.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     const original = window.fetch;
     let key = null;
     window.fetch = function (url, init) {
       try { key = new Headers(init && init.headers).get('Tauri-Invoke-Key'); } catch (_) {}
       window.fetch = original;
       return original.apply(this, arguments);
     };
     window.__TAURI_INTERNALS__.invoke('list_servers').then(() => done(key), () => done(key));`,
  );
  if (typeof key !== 'string' || key.length < 16) throw new Error(`no invoke key read from the main webview: ${key}`);
  return key;
}

/** Everything the app has written to stdout and stderr so far (tauri-driver passes it on). */
export function appOutput(app) {
  return readFileSync(app.driverLog, 'utf8');
}

/** How many lines of the app's output match `pattern`. */
export function outputLines(app, pattern) {
  return appOutput(app)
    .split('\n')
    .filter((line) => pattern.test(line)).length;
}

/**
 * Waits until at least `count` lines of the app's output match `pattern` (the app logs what it
 * refused, which tells a test the refusal happened).
 */
export function waitForOutput(app, pattern, { count = 1, timeout = 15_000, message }) {
  return waitFor(() => outputLines(app, pattern) >= count, { timeout, interval: 200, message });
}

/** What the app says when Tauri refuses an IPC message with a wrong invoke key. */
export const WRONG_KEY_NOTICE = /an IPC message with a wrong invoke key was refused/;

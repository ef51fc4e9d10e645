// tauri-driver for the e2e harness: finding the binary, picking free ports,
// and starting it (it starts WebKitWebDriver, which starts the app, when a
// WebDriver session is created).
//
//   TAURI_DRIVER  tauri-driver binary (default: PATH, then $CARGO_HOME/bin, ~/.cargo/bin)

import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { which, requireCommand } from './locations.mjs';
import { OutputTail } from './log.mjs';
import { spawnGroup, waitUntilReady } from './processes.mjs';
import { WebDriverSession } from './webdriver.mjs';

/** Absolute path of tauri-driver, or throws with install instructions. */
export function resolveTauriDriver() {
  const fromEnv = process.env.TAURI_DRIVER;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`TAURI_DRIVER=${fromEnv} does not exist.`);
    return fromEnv;
  }
  const candidates = [
    which('tauri-driver'),
    process.env.CARGO_HOME && join(process.env.CARGO_HOME, 'bin', 'tauri-driver'),
    join(homedir(), '.cargo', 'bin', 'tauri-driver'),
  ].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'tauri-driver not found (PATH, $CARGO_HOME/bin, ~/.cargo/bin). Run scripts/install-test-deps.sh ' +
        "or `cargo install tauri-driver --version '^2' --locked`.",
    );
  }
  return found;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

async function distinctFreePorts(n) {
  const ports = new Set();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/**
 * Starts `tauriDriver` on two free ports with `env` (inherited by
 * WebKitWebDriver and the app) and waits until it answers GET /status.
 * All its output (WebKitWebDriver's and the app's included) goes to `logFile`.
 */
export async function startTauriDriver(tauriDriver, env, logFile, timeoutMs = 30_000) {
  requireCommand('WebKitWebDriver', 'webkit2gtk-driver');
  const [port, nativePort] = await distinctFreePorts(2);
  const child = spawnGroup(tauriDriver, ['--port', String(port), '--native-port', String(nativePort)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  // stderr carries WebKitWebDriver's and the app's stderr too (inherited).
  const out = new OutputTail(40_000, logFile);
  out.attach(child.stdout, 'tauri-driver');
  out.attach(child.stderr, 'tauri-driver');
  const url = `http://127.0.0.1:${port}`;
  const status = await waitUntilReady(child, {
    name: 'tauri-driver',
    output: out,
    probe: () => WebDriverSession.status(url),
    timeout: timeoutMs,
    interval: 200,
    message: `tauri-driver to answer GET ${url}/status`,
    graceMs: 2_000,
  });
  return { child, url, port, nativePort, status, output: out };
}

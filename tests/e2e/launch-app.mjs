// Launching the app under test, and the `App` handle the tests drive it with.
//
// `launchApp` starts (as needed) Xvfb, a private D-Bus session bus with an
// unlocked gnome-keyring, and tauri-driver (which starts WebKitWebDriver,
// which starts the app), then opens a W3C WebDriver session on the app.
// `app.close()` tears everything down; it is safe to call twice and after a
// partial start. Process exit and SIGINT/SIGTERM/SIGHUP also kill whatever
// a live App started.
//
// With `attach: true` the harness starts the app itself, listening on WebKit's remote
// inspector, and WebKitWebDriver attaches to it there: the session can then be made again
// (`app.reattach()`) after the window was closed and opened anew, which ends a session.
//
//   GATEHOUSE_E2E_XVFB=1       start a private Xvfb even when DISPLAY is set
//   GATEHOUSE_E2E_HOST_DBUS=1  use the caller's D-Bus session (and keyring) instead of a private one

import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

import { ARTIFACTS_DIR, resolveAppPath } from './locations.mjs';
import { log } from './log.mjs';
import { killGroup, killPidsWithEnv, processAlive, spawnGroup, stopGroup } from './processes.mjs';
import { createRunDir, removeRunDir, removeRunDirSync } from './run-dir.mjs';
import { saveFailureEvidence, saveScreenshot, settle } from './screenshots.mjs';
import { startDbus, startKeyring } from './session-bus.mjs';
import { freePort, resolveTauriDriver, startTauriDriver } from './tauri-driver.mjs';
import { fatal, waitFor } from './wait-for.mjs';
import { WebDriverSession } from './webdriver.mjs';
import { startXvfb } from './xvfb.mjs';

// How long the app process may be absent while the WebDriver session is being created.
const APP_GONE_MS = 8_000;

/**
 * Launches the Gatehouse app under WebDriver. Resolves to an `App` handle.
 * Call `app.close()` in `after` (it is also safe if launch failed half-way:
 * launchApp cleans up itself before rejecting).
 */
export async function launchApp({ sessionTimeoutMs = 90_000, env: extraEnv = {}, args = [], appPath, browserName = 'wry', waitForLoad = true, attach = false, beforeStart } = {}) {
  const app = new App();
  try {
    await app.start({ sessionTimeoutMs, extraEnv, args, appPath, browserName, waitForLoad, attach, beforeStart });
    return app;
  } catch (err) {
    await app.screenshot('launch-failure').catch(() => {});
    await app.close();
    const tail = app.driver ? `\n--- tauri-driver/WebKitWebDriver/app output (tail) ---\n${app.driver.output}` : '';
    err.message += tail;
    throw err;
  }
}

const liveApps = new Set();
function killAllSync() {
  for (const app of liveApps) app.killSync();
}
process.once('exit', killAllSync);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    killAllSync();
    process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig] ?? 0));
  });
}

export class App {
  constructor() {
    this.runId = randomUUID();
    this.marker = `GATEHOUSE_E2E_RUN=${this.runId}`;
    this.closed = false;
    liveApps.add(this);
  }

  async start({ sessionTimeoutMs, extraEnv, args, appPath, browserName, waitForLoad, attach, beforeStart }) {
    this.appPath = appPath ?? resolveAppPath();
    const tauriDriver = resolveTauriDriver();
    await mkdir(ARTIFACTS_DIR, { recursive: true });

    const run = await createRunDir(this.runId, extraEnv);
    this.tmp = run.root;
    this.dataDir = run.dataDir;
    const env = run.env;

    if (!process.env.DISPLAY || process.env.GATEHOUSE_E2E_XVFB === '1') {
      this.xvfb = await startXvfb({ fbdir: run.fbDir });
      env.DISPLAY = this.xvfb.display;
      delete env.WAYLAND_DISPLAY;
      env.GDK_BACKEND = 'x11';
      log(`Xvfb started on ${this.xvfb.display}`);
    }

    if (process.env.GATEHOUSE_E2E_HOST_DBUS !== '1') {
      this.dbus = await startDbus(run.dbusDir, env);
      env.DBUS_SESSION_BUS_ADDRESS = this.dbus.address;
      this.keyring = await startKeyring(env);
      log(`private D-Bus session; Secret Service default collection: ${this.keyring?.collection ?? 'none'}`);
    }

    this.env = env;
    this.driverLog = join(ARTIFACTS_DIR, 'tauri-driver.log');
    await writeFile(this.driverLog, `# ${new Date().toISOString()} app=${this.appPath}\n`);
    this.driver = await startTauriDriver(tauriDriver, env, this.driverLog);
    log(`tauri-driver on ${this.driver.url} (native ${this.driver.nativePort})`);

    // What must run before the app (on its display, bus and data directory).
    if (beforeStart) await beforeStart(this);
    if (attach) {
      this.inspector = `127.0.0.1:${await freePort()}`;
      this.appChild = spawnGroup(this.appPath, args, {
        env: { ...env, TAURI_WEBVIEW_AUTOMATION: 'true', WEBKIT_INSPECTOR_SERVER: this.inspector },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      await this.reattach({ timeout: sessionTimeoutMs });
    } else {
      this.session = await this.createSession({ sessionTimeoutMs, args, browserName });
    }
    log(`WebDriver session ${this.session.sessionId}`);
    // The app's main webview (its UI); MCP App views get webviews (window handles) of their own.
    this.mainHandle = await this.session.getWindowHandle();

    if (!waitForLoad) return;
    await waitFor(
      async () => {
        const state = await this.session.executeScript(
          'return document.readyState === "complete" && !!document.body && document.body.childElementCount > 0;',
        );
        return state === true;
      },
      { timeout: 30_000, interval: 250, message: 'the app webview to finish loading' },
    );
  }

  /**
   * Opens the WebDriver session, which makes WebKitWebDriver launch the app.
   *
   * tauri-driver 2.x turns tauri:options {application, args} into
   * webkitgtk:browserOptions {binary, args} for WebKitWebDriver, which
   * launches the app. WebKitWebDriver waits for the app's automation
   * connection indefinitely, so watch the app process and give up early
   * when it is not running (crashed at startup) instead of waiting for the
   * full session timeout.
   */
  async createSession({ sessionTimeoutMs, args, browserName }) {
    const appExe = realpathSync(this.appPath);
    const abort = new AbortController();
    const started = Date.now();
    let lastAlive = started;
    const watchdog = setInterval(() => {
      if (processAlive(appExe, this.marker)) lastAlive = Date.now();
      else if (Date.now() - lastAlive > APP_GONE_MS) {
        abort.abort(
          new Error(
            `the app (${this.appPath}) is not running ${Math.round((Date.now() - started) / 1000)} s after ` +
              `the session request: it exited or crashed during startup (its output is in ${this.driverLog})`,
          ),
        );
      }
    }, 250);
    try {
      return await WebDriverSession.create(
        this.driver.url,
        {
          capabilities: {
            alwaysMatch: {
              ...(browserName ? { browserName } : {}),
              'tauri:options': { application: this.appPath, args },
            },
          },
        },
        { timeoutMs: sessionTimeoutMs, signal: abort.signal },
      );
    } finally {
      clearInterval(watchdog);
    }
  }

  /**
   * (`attach` apps) Ends the current WebDriver session, if any, and attaches a new one to the
   * app's window through WebKit's remote inspector; resolves once it is switched to the window.
   */
  async reattach({ timeout = 60_000 } = {}) {
    if (this.session) {
      await this.session.delete().catch(() => {});
      this.session = null;
    }
    const native = `http://127.0.0.1:${this.driver.nativePort}`;
    const caps = { capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { targetAddress: this.inspector } } } };
    let last = '';
    const session = await waitFor(
      async () => {
        if (this.appChild.exitCode !== null) fatal(`the app exited (code ${this.appChild.exitCode}) before a session attached`);
        try {
          return await WebDriverSession.create(native, caps, { timeoutMs: 10_000 });
        } catch (err) {
          last = err.message;
          return null;
        }
      },
      { timeout, interval: 250, message: () => `a WebDriver session attached to the app's inspector (${last})` },
    );
    const handles = await waitFor(async () => {
      const list = await session.getWindowHandles();
      return list.length ? list : null;
    }, { timeout: 30_000, interval: 200, message: "the app's window in the attached session" });
    await session.switchToWindow(handles[0]);
    this.session = session;
    this.mainHandle = handles[0];
    return session;
  }

  /** Polls for the first element matching `css` and returns it. */
  waitForElement(css, { timeout = 15_000, interval = 250, message } = {}) {
    return waitFor(
      async () => {
        const els = await this.session.findElements(css);
        return els.length ? els[0] : null;
      },
      { timeout, interval, message: message ?? `element ${css}` },
    );
  }

  /** Lets the webview paint the latest DOM state (two animation frames + a short pause). */
  settle() {
    return settle(this.session);
  }

  /**
   * Saves a screenshot into tests/e2e/artifacts/<name>.png and resolves to its
   * path: the Xvfb framebuffer when the harness owns Xvfb, else the WebDriver
   * screenshot (see screenshots.mjs for why).
   */
  screenshot(name) {
    return saveScreenshot(name, { session: this.session, framebuffer: this.xvfb?.framebuffer });
  }

  /** Best-effort failure evidence: screenshot + page source. Never throws. */
  captureFailure(name) {
    return saveFailureEvidence(name, { session: this.session, framebuffer: this.xvfb?.framebuffer });
  }

  /** Runs `fn`; if it throws, captures failure artifacts named after `name`, then rethrows. */
  async withFailureCapture(name, fn) {
    try {
      return await fn();
    } catch (err) {
      await this.captureFailure(name);
      throw err;
    }
  }

  /** Tears everything down. Idempotent; never throws. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    if (this.session) {
      await this.session.delete().catch((err) => log(`delete session: ${err.message}`));
      this.session = null;
    }
    await stopGroup(this.appChild, 10_000);
    await stopGroup(this.driver?.child, 5_000);
    await this.driver?.output?.pending;
    // The app or its MCP servers may have left the process group: sweep by env marker.
    killPidsWithEnv(this.marker);
    await stopGroup(this.keyring?.child, 2_000);
    await stopGroup(this.dbus?.child, 2_000);
    await stopGroup(this.xvfb?.child, 2_000);
    await removeRunDir(this.tmp);
    liveApps.delete(this);
  }

  /** Synchronous last-resort cleanup (process exit / signals). */
  killSync() {
    if (this.closed && !liveApps.has(this)) return;
    for (const c of [this.appChild, this.driver?.child, this.keyring?.child, this.dbus?.child, this.xvfb?.child]) {
      if (c?.pid) killGroup(c.pid, 'SIGKILL');
    }
    killPidsWithEnv(this.marker);
    removeRunDirSync(this.tmp);
  }
}

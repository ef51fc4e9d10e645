// Real-window e2e of the app's life without its window. With a server connected, closing the
// window (a WM_DELETE_WINDOW message, as a window manager sends for the close button) leaves the
// engine and the server running while WebKit's processes exit (read from /proc); a CLI call
// still works; the person is told once that Gatehouse stays in the tray. A CLI call under an
// ask rule, with the window closed, raises an OS notification (a real notification daemon,
// dunst, on the app's private session bus; what the app sent read with dbus-monitor): who
// asks, which tool on which server, with Allow once and Deny. A second launch of the app opens
// the window of the first (no second engine) with the request in its dialog; Allow once there
// completes the call. Screenshot of the reopened window.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { cliJson, runCli } from './cli.mjs';
import { launchApp, waitFor, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { childrenOf, spawnGroup, stopGroup } from './processes.mjs';
import {
  addStdioServer,
  openPage,
  pressApprovalButton,
  waitForApproval,
  waitForApprovalClosed,
  waitForConnected,
} from './servers-page.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER_NAME = 'everything';

const webkitChildren = (pid) => childrenOf(pid).filter((c) => c.comm.startsWith('WebKit'));

/** Starts a process on the app's display and bus, with its output kept. */
function startWatched(app, cmd, args) {
  const child = spawnGroup(cmd, args, { env: app.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { text: '' };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (output.text += d));
  child.stderr.on('data', () => {});
  return { child, output };
}

function busHasName(app, name) {
  const r = spawnSync(
    'dbus-send',
    ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
    { env: app.env, encoding: 'utf8' },
  );
  return r.status === 0 && /boolean true/.test(r.stdout);
}

describe('The app without its window (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  const started = [];

  after(async () => {
    for (const p of started) {
      if (p.child.exitCode === null) await stopGroup(p.child, 2_000).catch(() => {});
    }
    await app?.close();
  });

  it('keeps the engine in the tray with the window closed, notifies an ask, and a second launch opens the window to answer it', { timeout: 300_000 }, async (t) => {
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    // The window's webview goes when it closes, and the WebDriver session with it: the app is
    // attached to through WebKit's remote inspector, and attached to again when reopened.
    app = await launchApp({ attach: true });

    await app.withFailureCapture(t.name, async () => {
      // A notification daemon on the app's bus, and a monitor of what is sent to it.
      const monitor = startWatched(app, 'dbus-monitor', ['--session', "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"]);
      started.push(monitor);
      const daemon = startWatched(app, 'dunst', []);
      started.push(daemon);
      await waitFor(async () => busHasName(app, 'org.freedesktop.Notifications'), {
        timeout: 15_000,
        interval: 100,
        message: 'dunst to own org.freedesktop.Notifications',
      });

      await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      await waitForConnected(app, SERVER_NAME);
      const engine = await cliJson(app, ['status']);
      assert.equal(engine.kind, 'app', `the app is the engine: ${JSON.stringify(engine)}`);
      const appPid = engine.pid;
      assert.ok(webkitChildren(appPid).length > 0, 'WebKit runs while the window is open');
      const serverPids = childrenOf(appPid).filter((c) => !c.comm.startsWith('WebKit'));
      assert.ok(serverPids.length > 0, 'the server runs under the app');

      // Close the window as a window manager would.
      const closed = spawnSync('/usr/bin/python3', [join(HERE, 'close-window.py'), String(appPid)], { env: app.env, encoding: 'utf8' });
      assert.equal(closed.status, 0, `close-window.py found the window: ${closed.stdout}${closed.stderr}`);
      await waitFor(async () => webkitChildren(appPid).length === 0, {
        timeout: 20_000,
        interval: 100,
        message: "WebKit's processes to exit once the window closed",
      });
      assert.ok(existsSync(`/proc/${appPid}`), 'the engine keeps running');
      for (const server of serverPids) assert.ok(existsSync(`/proc/${server.pid}`), `the server ${server.comm} keeps running`);
      await waitFor(async () => /Gatehouse is still running/.test(monitor.output.text), {
        timeout: 10_000,
        interval: 100,
        message: 'the notice that Gatehouse stays in the tray',
      });

      // A CLI call with the window closed is served by the running engine.
      const echoed = await runCli(app, ['call', SERVER_NAME, 'echo', '--args', JSON.stringify({ message: 'window closed' })]).ended;
      assert.equal(echoed.code, 0, `gatehouse call with the window closed: ${echoed.stderr}`);
      assert.match(echoed.stdout, /window closed/);

      // An ask with the window closed raises a notification.
      const rule = await runCli(app, ['policy', 'set', SERVER_NAME, '--tool', 'echo', 'ask']).ended;
      assert.equal(rule.code, 0, `gatehouse policy set: ${rule.stderr}`);
      const running = runCli(app, ['call', SERVER_NAME, 'echo', '--args', JSON.stringify({ message: 'asked while closed' })]);
      started.push({ child: running.child });
      await waitFor(async () => /Gatehouse needs your answer/.test(monitor.output.text), {
        timeout: 20_000,
        interval: 100,
        message: 'a notification for the ask',
      });
      const sent = monitor.output.text.slice(monitor.output.text.indexOf('Gatehouse needs your answer'));
      assert.match(sent, /The gatehouse CLI asks to call `echo` on everything/, `the notification says who asks for which tool: ${sent}`);
      assert.match(sent, /string "allow"\s+string "Allow once"/, 'it offers Allow once');
      assert.match(sent, /string "deny"\s+string "Deny"/, 'it offers Deny');
      assert.equal(running.child.exitCode, null, 'the CLI waits for the answer');

      // A second launch opens the first one's window and starts no second engine.
      const second = spawn(app.appPath, [], { env: app.env, stdio: 'ignore' });
      const secondExit = await new Promise((resolve) => second.on('exit', (code) => resolve(code)));
      assert.equal(secondExit, 0, 'the second launch hands over to the first and ends');
      const again = await cliJson(app, ['status']);
      assert.equal(again.pid, appPid, 'the same engine runs');
      await waitFor(async () => webkitChildren(appPid).length > 0, {
        timeout: 20_000,
        interval: 100,
        message: 'WebKit to start again with the window',
      });
      const reopened = await app.reattach();
      await waitFor(async () => (await reopened.executeScript('return document.readyState === "complete" && !!document.querySelector("nav")')) === true, {
        timeout: 30_000,
        interval: 200,
        message: 'the reopened window to load',
      });
      const question = await waitForApproval(app, 'toolCall');
      const shot = await app.screenshot('tray-reopened-dialog');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
      await pressApprovalButton(app, question, 'allow-once', 'the Allow once button');
      await waitForApprovalClosed(app);
      const done = await waitFor(
        async () => (running.child.exitCode === null && running.child.signalCode === null ? null : running.ended),
        { timeout: 20_000, interval: 100, message: 'the CLI to exit once the call was allowed' },
      );
      assert.equal(done.code, 0, `gatehouse call exits 0: ${done.stderr}`);
      assert.match(done.stdout, /asked while closed/, 'the CLI prints the result');

      // Settings: start at login writes the autostart entry that starts this app hidden;
      // pausing the agents is on the audit log as the person's change.
      await openPage(app, 'settings');
      const login = await app.waitForElement('[data-testid="setting-start-at-login-switch"]', { message: 'the start-at-login switch' });
      await app.session.click(login);
      const entry = join(app.env.XDG_CONFIG_HOME, 'autostart', 'gatehouse.desktop');
      await waitFor(async () => existsSync(entry), { timeout: 10_000, interval: 100, message: 'the autostart entry' });
      assert.match(readFileSync(entry, 'utf8'), /^Exec=.*gatehouse-app"? --hidden$/m, 'the entry starts the app hidden');
      const auto = await cliJson(app, ['autostart', 'status']);
      assert.equal(auto.enabled, true, `gatehouse autostart status agrees: ${JSON.stringify(auto)}`);
      await app.session.click(await app.waitForElement('[data-testid="setting-pause-agents-switch"]', { message: 'the pause switch' }));
      await waitFor(
        async () => {
          const rows = await cliJson(app, ['audit', 'list', '--limit', '20']);
          return rows.rows.some((r) => JSON.stringify(r).includes('agents_paused')) ? rows : null;
        },
        { timeout: 10_000, interval: 200, message: 'the pause on the audit log' },
      );
    });
  });

  it('takes over from a running `gatehouse serve` when started with --take-over', { timeout: 180_000 }, async (t) => {
    /** @type {{ child: import('node:child_process').ChildProcess, ended: Promise<any> } | undefined} */
    let serve;
    const other = await launchApp({
      attach: true,
      args: ['--take-over'],
      beforeStart: async (starting) => {
        serve = runCli(starting, ['serve']);
        started.push({ child: serve.child });
        await waitFor(
          async () => {
            const { code, stdout } = await runCli(starting, ['status', '--json']).ended;
            return code === 0 && JSON.parse(stdout).kind === 'serve';
          },
          { timeout: 30_000, interval: 200, message: '`gatehouse serve` to run' },
        );
      },
    });
    try {
      await other.withFailureCapture(t.name, async () => {
        const ended = await waitFor(async () => (serve.child.exitCode === null ? null : serve.ended), {
          timeout: 30_000,
          interval: 100,
          message: '`gatehouse serve` to stop for the app',
        });
        assert.equal(ended.code, 0, `gatehouse serve stops cleanly: ${ended.stderr}`);
        const status = await cliJson(other, ['status']);
        assert.equal(status.kind, 'app', `the app is the engine now: ${JSON.stringify(status)}`);
        await other.waitForElement('nav', { message: "the app's window" });
      });
    } finally {
      await other.close();
    }
  });
});

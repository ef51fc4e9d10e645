// Real-window e2e of MCP Apps (SEP-1865, ext-apps specification/2026-01-26/apps.mdx): the four
// example servers from npm (basic-vanillajs, budget-allocator, system-monitor, debug 2.0.3, over
// stdio with --stdio) are added through the form; each one's UI tool is called from its Call
// form, its app renders in the panel below the result, and the test looks into the app's own
// document (the view's own webview, then its inner #app-view frame) for what the app renders
// once it has the tool's result; a screenshot of each goes to artifacts/app-<name>.png. The
// system-monitor app polls its app-only tool; the Audit page shows those calls succeeded with
// the source app. The debug app is told of a theme switch and of fullscreen (its own event log
// shows each host-context change, the fullscreen area with a size), and Close removes its panel
// after the teardown. The basic app's message is listed in its panel, and its link opens (in a
// stand-in browser that writes it down) only once the person confirms it. Then the hostile fixture (tests/fixtures/python/hostile_app.py) renders an
// app that tries every escape and reports each result; the test asserts every one failed,
// checks the side effects from outside (no server added through the IPC, no navigation, no
// request to an undeclared origin, no link opened, model_only never ran), and that the app's
// refused calls did not succeed in the audit log. Last, the person blocks the app's declared
// origin under Policies, App sites: the next view names it as withheld and cannot reach it.
// Runs the real app binary under Xvfb via tauri-driver (see README.md).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, waitFor, FIXTURES_DIR, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { addStdioServer, fillField, openPage, rowOf, selectServer, waitForConnected } from './servers-page.mjs';
import { appPanelOf, auditRowsOf, callUiTool, insideApp, setServerDefault, viewWindowOf, waitForAppReady, waitInApp } from './apps-panel.mjs';

const EXAMPLES = join(FIXTURES_DIR, 'node_modules', '@modelcontextprotocol');
const PYTHON = join(FIXTURES_DIR, 'python', '.venv', 'bin', 'python');
const HOSTILE = join(FIXTURES_DIR, 'python', 'hostile_app.py');

/**
 * The example apps: the server (its package's bin, dist/index.js), its UI tool and resource,
 * and a script run in the app's document that returns what the app shows once it has the
 * tool's result (falsy until then). Learnt from each package's tools/list and its ui:// page.
 */
const APPS = [
  {
    name: 'basic-vanillajs',
    tool: 'get-time',
    uri: 'ui://get-time/mcp-app.html',
    shows: 'the server time from the tool result in #server-time',
    check: `const el = document.getElementById('server-time');
            const text = el ? el.textContent.trim() : '';
            return /\\d/.test(text) && !text.includes('ERROR') ? text : null;`,
  },
  {
    name: 'budget-allocator',
    tool: 'get-budget-data',
    uri: 'ui://budget-allocator/mcp-app.html',
    shows: 'the budget options and one slider per category',
    check: `const options = document.querySelectorAll('#budget-selector option').length;
            const sliders = document.querySelectorAll('#sliders-container input[type=range]').length;
            const status = document.getElementById('status-bar')?.textContent.trim();
            return options > 0 && sliders > 0 ? { options, sliders, status } : null;`,
  },
  {
    name: 'debug',
    tool: 'debug-tool',
    uri: 'ui://debug-tool/mcp-app.html',
    shows: 'ontoolinput and ontoolresult entries in its event log',
    check: `const types = [...document.querySelectorAll('#event-log .log-type')].map((e) => e.textContent.trim());
            const has = (name) => types.some((t) => t.startsWith(name));
            return has('ontoolinput') && has('ontoolresult') ? types : null;`,
  },
  {
    name: 'system-monitor',
    tool: 'get-system-info',
    uri: 'ui://system-monitor/mcp-app.html',
    shows: 'the hostname, and a poll time in its status (poll-system-stats answered)',
    check: `const host = document.getElementById('info-hostname')?.textContent.trim();
            const status = document.getElementById('status-text')?.textContent.trim();
            return host && host !== '--' && /^\\d{1,2}:\\d{2}:\\d{2}$/.test(status ?? '') ? { host, status } : null;`,
  },
];

const entryOf = (name) => join(EXAMPLES, `server-${name}`, 'dist', 'index.js');

/** Puts `domain` on the App sites `list` (allow or block) from the Policies page, as a person does. */
async function addAppSite(app, domain, list) {
  const s = app.session;
  await openPage(app, 'policies');
  await fillField(s, await app.waitForElement('[data-testid="app-site-domain"]', { message: 'the App sites domain field' }), domain);
  await s.executeScript(
    `const select = document.querySelector('[data-testid="app-site-list"]');
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, arguments[0]);
     select.dispatchEvent(new Event('change', { bubbles: true }));`,
    [list],
  );
  await s.click(await app.waitForElement('[data-testid="app-site-add"]', { message: 'the App sites Add button' }));
  await app.waitForElement(`[data-testid="app-site"][data-domain="${domain}"][data-list="${list}"]`, {
    message: `${domain} on the ${list} list`,
  });
}

/** A local HTTP server on 127.0.0.1 that answers every request (with CORS) and records it. */
async function recordingServer() {
  const hits = [];
  const server = createServer((req, res) => {
    hits.push({ method: req.method, path: req.url, origin: req.headers.origin ?? null });
    res.writeHead(200, {
      'Content-Type': 'text/plain',
      'Access-Control-Allow-Origin': req.headers.origin ?? '*',
      'Access-Control-Allow-Headers': '*',
    });
    res.end(`answered ${req.url}`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, hits, close: () => new Promise((r) => server.close(r)) };
}

/** A directory holding an `xdg-open` that only writes down what it was asked to open. */
function browserStandIn(dir) {
  const log = join(dir, 'opened.log');
  const script = join(dir, 'xdg-open');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`);
  chmodSync(script, 0o755);
  return log;
}

/** Scrolls the page so the top of `panel` shows just below the sticky page header. */
async function showPanelTop(app, panel) {
  await app.session.executeScript(
    `const el = document.querySelector(arguments[0]);
     if (!el) return;
     el.scrollIntoView({ block: 'start' });
     const header = document.querySelector('header');
     const below = header ? header.getBoundingClientRect().bottom + 8 : 0;
     let scroller = el.parentElement;
     const scrolls = (e) => e.scrollHeight > e.clientHeight && /auto|scroll/.test(getComputedStyle(e).overflowY);
     while (scroller && scroller !== document.body && !scrolls(scroller)) scroller = scroller.parentElement;
     (scroller && scroller !== document.body ? scroller : document.scrollingElement).scrollBy(0, el.getBoundingClientRect().top - below);`,
    [panel],
  );
  await app.settle();
}

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

function assertImage(file) {
  assert.ok(statSync(file).size > 1_000, `screenshot ${file} must be a real image`);
}

describe('MCP Apps (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  let scratch;
  let declared;
  let undeclared;
  let openedLog;
  let report;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-apps-'));
    openedLog = browserStandIn(scratch);
    report = join(scratch, 'hostile-report.json');
    declared = await recordingServer();
    undeclared = await recordingServer();
  });

  /**
   * The app's environment: the stand-in browser first on PATH, and the hostile fixture's
   * settings, which the app passes on to the servers it starts.
   */
  const appEnv = () => ({
    PATH: `${scratch}:${process.env.PATH}`,
    HOSTILE_DECLARED_ORIGIN: declared.origin,
    HOSTILE_UNDECLARED_ORIGIN: undeclared.origin,
    HOSTILE_REPORT_FILE: report,
  });

  after(async () => {
    await app?.close();
    await declared?.close();
    await undeclared?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('renders the four example apps in the window', { timeout: 600_000 }, async (t) => {
    for (const { name } of APPS) assert.ok(existsSync(entryOf(name)), `example server ${name} missing at ${entryOf(name)}`);
    app = await launchApp({ env: appEnv() });

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      for (const { name } of APPS) await addStdioServer(app, name, 'node', [entryOf(name), '--stdio']);
      for (const { name } of APPS) await waitForConnected(app, name);
      // The person lets these servers' tools run without asking (the apps call tools of their
      // own servers; those calls go through the same policy).
      for (const { name } of APPS) await setServerDefault(app, name, 'allow');

      for (const example of APPS) {
        await openPage(app, 'servers');
        await selectServer(app, example.name);
        await callUiTool(app, example.tool);
        await waitForAppReady(app, example.uri);
        const shown = await insideApp(app, example.uri, () =>
          waitInApp(app, example.check, { timeout: 30_000, message: `the ${example.name} app to show ${example.shows}` }),
        );
        t.diagnostic(`${example.name}: ${JSON.stringify(shown)}`);
        await showPanelTop(app, appPanelOf(example.uri));
        assertImage(await app.screenshot(`app-${example.name}`));
      }
    });
  });

  it("audits the system-monitor app's own poll-system-stats calls with the source app", { timeout: 120_000 }, async (t) => {
    assert.ok(app, 'the window of the test before is needed (it rendered the system-monitor app)');
    await app.withFailureCapture(t.name, async () => {
      // The app polled at least once before the test left its page (its panel, and its polling,
      // end when the Servers page does): the test before saw a poll's time in its status.
      const rows = await auditRowsOf(app, 'poll-system-stats', {
        accept: (found) => found.some((r) => r.kind === 'call_finished'),
      });
      const listed = JSON.stringify(rows);
      for (const row of rows) assert.equal(row.source, 'app', `every poll-system-stats row comes from the app: ${listed}`);
      for (const row of rows.filter((r) => r.kind === 'call_finished')) {
        assert.equal(row.outcome, 'ok', `the app's poll-system-stats calls succeed: ${listed}`);
      }
      assert.ok(rows.some((r) => r.kind === 'decision' && r.decision === 'allow'), `the gate decided on them: ${listed}`);
    });
  });

  it('tells the debug app of a theme change and of fullscreen, and closes it', { timeout: 180_000 }, async (t) => {
    assert.ok(app, 'the window of the tests before is needed (it added the debug server)');
    const debug = APPS.find((a) => a.name === 'debug');
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await openPage(app, 'servers');
      await selectServer(app, debug.name);
      await callUiTool(app, debug.tool);
      const panel = await waitForAppReady(app, debug.uri);
      const inline = await insideApp(app, debug.uri, async () => {
        await waitInApp(app, debug.check, { message: `the debug app to show ${debug.shows}` });
        return s.executeScript(`return document.getElementById('host-container-info')?.textContent.replace(/\\s+/g, ' ').trim();`);
      });
      t.diagnostic(`inline container, as the debug app shows it: ${inline}`);
      assert.doesNotMatch(inline ?? '', /Width\s*0px/, `the inline view is told its width: ${inline}`);

      // The host-context changes the debug app has logged, as parsed payloads.
      const contextChanges = `return [...document.querySelectorAll('#event-log .log-entry')]
        .filter((e) => (e.querySelector('.log-type')?.textContent ?? '').startsWith('onhostcontextchanged'))
        .map((e) => { try { return JSON.parse(e.querySelector('.log-payload-full')?.textContent ?? 'null'); } catch { return null; } });`;
      const changed = (test, message) =>
        insideApp(app, debug.uri, () =>
          waitInApp(app, `${contextChanges.replace('return ', 'const seen = ')}; return seen.some((p) => p && (${test})) ? seen : null;`, {
            message,
          }),
        );

      // SEP-1865 "Theming": a theme switch reaches the view as ui/notifications/host-context-changed.
      const toggle = await app.waitForElement('[data-testid="theme-toggle"]', { message: 'the theme button' });
      const before = await s.executeScript('return document.documentElement.dataset.theme ?? null;');
      await s.click(toggle);
      const seenTheme = await changed(`typeof p.theme === 'string' && p.theme !== ${JSON.stringify(before ?? 'light')}`,
        'an onhostcontextchanged entry with the new theme');
      t.diagnostic(`after the theme switch: ${JSON.stringify(seenTheme)}`);
      await s.click(await app.waitForElement('[data-testid="theme-toggle"]', { message: 'the theme button' }));

      // "Display Modes": fullscreen from the panel's button, told to the view; then back inline.
      const fullscreen = await app.waitForElement(`${panel} [data-testid="app-fullscreen"]`, { message: 'the Fullscreen button' });
      assert.equal(await s.isEnabled(fullscreen), true, 'a view that declared no modes may go fullscreen');
      await s.click(fullscreen);
      await changed(`p.displayMode === 'fullscreen'`, 'an onhostcontextchanged entry with displayMode fullscreen');
      // "Container Dimensions": fullscreen is a fixed area, the size of the window; the view is
      // told it (the first change may be sent before the area is measured, a later one not).
      await changed(
        `p.displayMode === 'fullscreen' && p.containerDimensions?.width > 0 && p.containerDimensions?.height > 0`,
        'an onhostcontextchanged entry giving the fullscreen area a size (width and height above 0)',
      );
      assertImage(await app.screenshot('app-debug-fullscreen'));
      await s.click(await app.waitForElement(`${panel} [data-testid="app-fullscreen"]`, { message: 'the Exit fullscreen button' }));
      await changed(`p.displayMode === 'inline'`, 'an onhostcontextchanged entry back to inline');

      // Close: the panel asks the view to tear down, then goes.
      await s.click(await app.waitForElement(`${panel} [data-testid="app-close"]`, { message: 'the Close button of the panel' }));
      await waitFor(async () => (await s.findElements(panel)).length === 0, {
        timeout: 10_000,
        interval: 200,
        message: 'the app panel to be removed after its teardown',
      });
    });
  });

  it("opens the basic app's link once the person agrees, and lists its message", { timeout: 180_000 }, async (t) => {
    assert.ok(app, 'the window of the tests before is needed (it added the basic-vanillajs server)');
    const basic = APPS.find((a) => a.name === 'basic-vanillajs');
    const LINK = 'https://modelcontextprotocol.io/';
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await openPage(app, 'servers');
      await selectServer(app, basic.name);
      await callUiTool(app, basic.tool);
      const panel = await waitForAppReady(app, basic.uri);
      await insideApp(app, basic.uri, async () => {
        await waitInApp(app, basic.check, { message: `the basic app to show ${basic.shows}` });
        // The app's own buttons: ui/message with its textarea's text, then ui/open-link.
        // Clicked from script: the frame is shorter than the app, and a pointer click on a
        // button below its fold lands elsewhere.
        for (const id of ['send-message-btn', 'open-link-btn']) {
          await s.executeScript(`const b = document.getElementById(arguments[0]); b.scrollIntoView({ block: 'center' }); b.click();`, [id]);
        }
      });

      // SEP-1865 "ui/message": no conversation yet, so the panel lists it.
      const message = await waitFor(
        async () => {
          for (const note of await s.findElements(`${panel} [data-testid="app-message"]`)) {
            const text = await s.getText(note);
            if (text.includes('This is message text.')) return text;
          }
          return null;
        },
        { timeout: 10_000, interval: 250, message: "the basic app's message listed in its panel" },
      );
      t.diagnostic(`listed: ${message}`);

      // "ui/open-link": the person sees the whole URL first; only Open hands it to the browser.
      const dialog = await app.waitForElement('[data-testid="app-link-dialog"]', { message: 'the Open this link? dialog' });
      // The site, large, from the engine's description of the URL (Open waits for it).
      const site = await app.waitForElement('[data-testid="app-link-dialog"] [data-testid="approval-domain"]', {
        message: 'the site of the link in the dialog',
      });
      assert.equal(await s.getText(site), new URL(LINK).hostname);
      assert.equal(await s.getText(await s.findElement('[data-testid="app-link-url"]', dialog)), LINK);
      assertImage(await app.screenshot('app-link-dialog'));
      await s.click(await s.findElement('[data-testid="app-link-open"]', dialog));
      const opened = await waitFor(() => (existsSync(openedLog) ? readFileSync(openedLog, 'utf8') : null), {
        timeout: 10_000,
        interval: 200,
        message: 'the link handed to the (stand-in) system browser',
      });
      assert.equal(opened.trim(), LINK, 'exactly the confirmed link was opened');
    });
  });

  it('refuses every escape of the hostile app', { timeout: 600_000 }, async (t) => {
    assert.ok(existsSync(PYTHON), `the Python fixtures' venv is missing at ${PYTHON}`);
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    app ??= await launchApp({ env: appEnv() });

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const openedNow = () => (existsSync(openedLog) ? readFileSync(openedLog, 'utf8') : '');
      const openedBefore = openedNow();
      await openPage(app, 'servers');
      // A test before may have left the page scrolled, the Add server button under the header.
      await s.executeScript(`document.querySelector('[data-testid="add-server-button"]')?.scrollIntoView({ block: 'center' });`);
      // Another server, with the tool the app will try to call (echo), and the hostile one.
      if ((await s.findElements(rowOf('everything'))).length === 0) {
        await addStdioServer(app, 'everything', 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      }
      // Its settings come from the environment the app gives its servers (see appEnv).
      await addStdioServer(app, 'hostile', PYTHON, [HOSTILE]);
      await waitForConnected(app, 'everything');
      await waitForConnected(app, 'hostile');
      assert.ok(existsSync(report), `the hostile server got its settings from the app's environment (no ${report})`);
      // Both allow everything by policy: what refuses the app's calls must be the app guard.
      await setServerDefault(app, 'everything', 'allow');
      await setServerDefault(app, 'hostile', 'allow');
      // The declared origin is on this computer: apps reach it only once the person allows it.
      await addAppSite(app, new URL(declared.origin).hostname, 'allow');

      await openPage(app, 'servers');
      await selectServer(app, 'hostile');
      const windowUrl = await s.getUrl();
      await callUiTool(app, 'hostile');
      const uri = 'ui://hostile/app';
      await waitForAppReady(app, uri);

      // While the app runs: no link dialog and no approval dialog may appear.
      const dialogs = [];
      const done = await waitFor(
        async () => {
          for (const d of await s.findElements('[role="dialog"], [role="alertdialog"]')) {
            const text = await s.getText(d).catch(() => '');
            if (text && !dialogs.includes(text)) dialogs.push(text);
          }
          const state = readJson(report);
          return state?.done ? state : null;
        },
        {
          timeout: 180_000,
          interval: 500,
          message: () => `the hostile app to report done in ${report} (so far: ${JSON.stringify(readJson(report))})`,
        },
      );
      t.diagnostic(`hostile report: ${JSON.stringify(done.results, null, 1)}`);
      const results = new Map(done.results.map((r) => [r.name, r]));
      const text = JSON.stringify(done.results, null, 1);

      // The app's own document says it finished, in its own webview: the proxy page on the
      // sandbox origin, the view in its opaque-origin frame without the Tauri IPC.
      const probe = `const view = document.getElementById('app-view');
        return { tauri: typeof window.__TAURI_INTERNALS__, tauriGlobal: typeof window.__TAURI__, ipc: typeof window.ipc,
                 origin: window.origin, href: location.href, viewSandbox: view ? view.getAttribute('sandbox') : null,
                 viewAllow: view ? view.getAttribute('allow') : null };`;
      const frames = await insideApp(
        app,
        uri,
        async ({ outer }) => {
          await waitInApp(app, `return document.getElementById('hostile-status')?.dataset.state === 'done';`, {
            message: 'the hostile app to say done',
          });
          const shown = await s.executeScript(
            `return [...document.querySelectorAll('#hostile-results li')].map((li) => li.textContent);`,
          );
          return { outer, inner: await s.executeScript(probe), shown };
        },
        { probeOuter: probe },
      );
      const { shown, ...frameProbes } = frames;
      t.diagnostic(`frames: ${JSON.stringify(frameProbes)}`);
      t.diagnostic(`the app's own list: ${JSON.stringify(shown, null, 1)}`);

      // Every escape failed; the two whose effect the app cannot see are checked below.
      const EFFECT_CHECKED = new Set(['invoke-ipc-handler', 'navigate-top']);
      const EXPECTED = [
        'tauri-globals-self', 'tauri-globals-parent', 'tauri-globals-top', 'invoke-internals', 'invoke-ipc-handler',
        'fetch-ipc-scheme', 'fetch-ipc-localhost', 'parent-document', 'top-document', 'fetch-undeclared',
        'image-undeclared', 'popup', 'call-other-server', 'call-model-only', 'open-link-javascript', 'open-link-file',
        'navigate-top',
      ];
      for (const name of [...EXPECTED, 'initialize', 'fetch-declared']) {
        assert.ok(results.has(name), `the app reported ${name} (its own list: ${JSON.stringify(shown, null, 1)})`);
      }
      const escaped = done.results.filter(
        (r) => r.kind === 'escape' && r.blocked !== true && !(r.blocked === null && EFFECT_CHECKED.has(r.name)),
      );
      assert.deepEqual(escaped, [], `every escape must be blocked; these were not: ${JSON.stringify(escaped, null, 1)}`);
      const control = results.get('fetch-declared');
      assert.equal(control?.blocked, false, `the fetch of the declared origin must succeed: ${JSON.stringify(control)}`);

      // Seen from outside the app.
      assert.equal(await s.getUrl(), windowUrl, 'the window was not navigated');
      // The view's webview is still on its proxy page (it is found by that URL).
      await viewWindowOf(app, uri);
      assert.deepEqual(await s.findElements('[data-testid="server-row"][data-server-name^="hostile-escaped"]'), [],
        'no server was added through the IPC');
      assert.deepEqual(undeclared.hits, [], 'nothing reached the undeclared origin');
      const declaredPaths = declared.hits.map((h) => h.path);
      assert.ok(declaredPaths.includes('/declared-fetch'), `the declared origin was reached: ${JSON.stringify(declared.hits)}`);
      for (const path of ['/navigated-top', '/popup']) {
        assert.ok(!declaredPaths.includes(path), `${path} was never loaded: ${JSON.stringify(declared.hits)}`);
      }
      assert.equal(done.model_only_calls, 0, 'model_only never ran');
      assert.deepEqual(
        done.client_ui_extension,
        { mimeTypes: ['text/html;profile=mcp-app'] },
        'the app declared the MCP Apps extension to the server, with its mimeType',
      );
      assert.equal(openedNow(), openedBefore, 'the hostile app opened nothing');
      assert.deepEqual(dialogs, [], 'no dialog asked anything while the hostile app ran');

      // The host answered ui/initialize with its info and the capabilities it handles.
      const init = JSON.parse(results.get('initialize')?.detail ?? '{}');
      assert.equal(init.hostInfo?.name, 'Gatehouse', `the host names itself: ${JSON.stringify(init)}`);
      assert.ok(init.hostCapabilities?.serverTools, `the host proxies tool calls: ${JSON.stringify(init)}`);

      // The view is not framed in the window at all: it has its own webview, on the sandbox
      // origin (SEP-1865 "Sandbox proxy": a different origin from the host), whose proxy page
      // frames the view without the proxy's origin, top navigation or popups; no permission was
      // declared, so no `allow`. The proxy page has the scripts Tauri puts in every webview, but
      // its webview holds no capability (app-ipc.test.mjs tries them); the view has none.
      assert.equal(await s.executeScript(`return document.querySelectorAll('iframe').length;`), 0,
        'the main webview frames nothing');
      assert.equal(frames.outer.origin, 'gatehouse-app://localhost', `the proxy page's origin: ${JSON.stringify(frames.outer)}`);
      assert.equal(frames.inner.tauri, 'undefined', `__TAURI_INTERNALS__ is absent in the view: ${JSON.stringify(frames.inner)}`);
      assert.equal(frames.inner.tauriGlobal, 'undefined', `__TAURI__ is absent in the view: ${JSON.stringify(frames.inner)}`);
      assert.equal(frames.inner.ipc, 'undefined', `window.ipc is absent in the view: ${JSON.stringify(frames.inner)}`);
      const viewSandbox = (frames.outer.viewSandbox ?? '').split(/\s+/);
      assert.ok(viewSandbox.includes('allow-scripts'), `the view frame runs scripts: ${frames.outer.viewSandbox}`);
      for (const token of ['allow-same-origin', 'allow-top-navigation', 'allow-popups', 'allow-top-navigation-by-user-activation']) {
        assert.ok(!viewSandbox.includes(token), `the view frame's sandbox has no ${token}: ${frames.outer.viewSandbox}`);
      }
      assert.equal(frames.outer.viewAllow, null, 'no permission declared, so the view frame has no allow attribute');
      const top = await s.executeScript('return window.origin;');
      for (const [which, seen] of Object.entries(frameProbes)) {
        assert.notEqual(seen.origin, top, `the ${which} frame does not share the window's origin ${top}`);
      }
      await showPanelTop(app, appPanelOf(uri));
      assertImage(await app.screenshot('app-hostile'));

      // The audit log: the app's report calls went through the gate with the source app; its
      // calls of model_only and of another server's echo never succeeded.
      const reports = await auditRowsOf(app, 'report', { accept: (rows) => rows.some((r) => r.kind === 'call_finished') });
      for (const row of reports) assert.equal(row.source, 'app', `report was called by the app: ${JSON.stringify(reports)}`);
      for (const tool of ['model_only', 'echo']) {
        const rows = await auditRowsOf(app, tool, { source: 'app', accept: (found, { noMatch }) => noMatch || found.length > 0 });
        const succeeded = rows.filter((r) => r.kind === 'call_finished' && r.outcome === 'ok');
        assert.deepEqual(succeeded, [], `no app-sourced ${tool} call succeeded: ${JSON.stringify(rows)}`);
        t.diagnostic(`app-sourced ${tool} rows: ${JSON.stringify(rows)}`);
      }
    });
  });

  it('withholds the declared origin once the person blocks it under Policies, App sites', { timeout: 300_000 }, async (t) => {
    assert.ok(app, 'the window of the test before is needed (it added the hostile server)');
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const uri = 'ui://hostile/app';
      const blocked = new URL(declared.origin).hostname;
      // The open view of the test before goes first: the next one must be the one checked.
      await openPage(app, 'servers');
      await selectServer(app, 'hostile');
      const [open] = await s.findElements(`${appPanelOf(uri)} [data-testid="app-close"]`);
      if (open) {
        await s.click(open);
        await waitFor(async () => (await s.findElements(appPanelOf(uri))).length === 0, {
          timeout: 10_000,
          interval: 200,
          message: 'the hostile app panel of the test before to close',
        });
      }

      await addAppSite(app, blocked, 'block');

      const fetchesBefore = declared.hits.filter((h) => h.path === '/declared-fetch').length;
      await openPage(app, 'servers');
      await selectServer(app, 'hostile');
      await callUiTool(app, 'hostile');
      await waitForAppReady(app, uri);
      const notice = await app.waitForElement(`${appPanelOf(uri)} [data-testid="app-domains-withheld"]`, {
        message: 'the notice naming what the app sites withheld',
      });
      assert.match(await s.getText(notice), new RegExp(declared.origin.replace(/[.]/g, '\\.')));
      const done = await waitFor(() => (readJson(report)?.done ? readJson(report) : null), {
        timeout: 180_000,
        interval: 500,
        message: () => `the hostile app to report done again in ${report}`,
      });
      const fetched = done.results.find((r) => r.name === 'fetch-declared');
      assert.equal(fetched?.blocked, true, `the declared origin is out of the policy now: ${JSON.stringify(fetched)}`);
      assert.equal(
        declared.hits.filter((h) => h.path === '/declared-fetch').length,
        fetchesBefore,
        `the blocked origin was not reached: ${JSON.stringify(declared.hits)}`,
      );
      await showPanelTop(app, appPanelOf(uri));
      assertImage(await app.screenshot('app-hostile-site-blocked'));
    });
  });
});

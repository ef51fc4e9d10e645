// Real-window e2e: the MCP Apps sandbox. A small stdio MCP server (written below) offers one
// UI resource whose CSP declares one local HTTP origin. The test opens a view of it through
// the shell's `app_open_view`, listens to what the view relays and places the view as the UI
// does (`app_place_view`: the view gets a webview of its own, a window handle of its own to
// WebDriver), answers the proxy's ready message with the resource (`app_post_to_view`), and then
// evaluates inside the view's webview and its frame through WebDriver:
//
// - the proxy page is on `gatehouse-app://localhost`, a secure context, holding exactly one
//   `#app-view`; it has the scripts Tauri puts in every webview, but its webview holds no
//   capability: Tauri refuses the proxy page's own invoke of `add_server`;
// - the view frame has an opaque origin, no Tauri IPC, cannot read `parent.document` or
//   `top.location`, carries its policy (without the relay) as the first meta tag, and can fetch
//   the declared origin but not an undeclared one, nor the relay;
// - neither frame can run a command over `ipc://localhost` or WebKit's `ipc` message handler
//   (which WebKitGTK exposes in every frame) with a guessed key;
// - the main window frames nothing, and cannot be navigated away from the app's origin;
// - a view cannot navigate its frame away, even where its policy would let it (the view's
//   webview refuses it before it starts);
// - closing the view closes its webview, and so does reloading the window.
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, waitFor } from './harness.mjs';
import { invoke, outputLines, waitForOutput, WRONG_KEY_NOTICE } from './ipc.mjs';

const SANDBOX_ORIGIN = 'gatehouse-app://localhost';
const VIEW_URI = 'ui://sandbox-check/view';

// The view: records what it can reach in `window.__results`, read back by the test.
function viewHtml(declared, undeclared) {
  return `<!doctype html><html lang="en"><head><title>sandbox check</title></head><body>
<p id="view-text">sandbox check view</p>
<script>
(async () => {
  const r = {};
  const t = (k, f) => { try { r[k] = f(); } catch (e) { r[k] = 'threw ' + e.name; } };
  const get = async (k, url, init) => {
    try { const res = await fetch(url, init); r[k] = 'ok ' + res.status + ' ' + (await res.text()); }
    catch (e) { r[k] = 'failed ' + e.name; }
  };
  t('parentDocument', () => typeof parent.document.body);
  t('topLocation', () => String(top.location.href));
  t('storage', () => typeof localStorage.length);
  await get('declared', ${JSON.stringify(declared + '/from-view')});
  await get('undeclared', ${JSON.stringify(undeclared + '/from-view')});
  window.__results = r;
})();
</script></body></html>`;
}

// A minimal MCP server over stdio (newline-delimited JSON-RPC) with one UI resource, which
// declares the test's origin for fetches and frames (so that the view's policy lets the view's
// frame navigate there, and what refuses it is the view's webview).
function serverSource(html, declared) {
  return `
const readline = require('node:readline');
const html = ${JSON.stringify(html)};
const ui = { csp: { connectDomains: [${JSON.stringify(declared)}], frameDomains: [${JSON.stringify(declared)}] } };
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const reply = (m, result) => send({ jsonrpc: '2.0', id: m.id, result });
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined || !m.method) return;
  switch (m.method) {
    case 'initialize':
      return reply(m, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'sandbox-check', version: '1.0.0' } });
    case 'ping': return reply(m, {});
    case 'tools/list':
      return reply(m, { tools: [{ name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: ${JSON.stringify(VIEW_URI)} } } }] });
    case 'tools/call': return reply(m, { content: [{ type: 'text', text: 'shown' }] });
    case 'resources/list':
      return reply(m, { resources: [{ uri: ${JSON.stringify(VIEW_URI)}, name: 'view', mimeType: 'text/html;profile=mcp-app', _meta: { ui } }] });
    case 'resources/read':
      return reply(m, { contents: [{ uri: m.params.uri, mimeType: 'text/html;profile=mcp-app', text: html, _meta: { ui } }] });
    default:
      return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no ' + m.method } });
  }
});
`;
}

function httpServer() {
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    res.end('reached');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, hits, origin: `http://127.0.0.1:${server.address().port}` })),
  );
}

// What a frame can reach of the Tauri IPC; runs in the frame WebDriver has switched to.
const IPC_PROBE = `
const done = arguments[arguments.length - 1];
(async () => {
  const r = {
    origin: self.origin,
    secure: isSecureContext,
    internals: typeof window.__TAURI_INTERNALS__,
    tauri: typeof window.__TAURI__,
    ipc: typeof window.ipc,
  };
  const input = { name: arguments[0], enabled: false, roots: [],
    spec: { kind: 'stdio', command: 'true', args: [], env: [], cwd: null } };
  try {
    const res = await fetch('ipc://localhost/add_server', { method: 'POST', body: JSON.stringify({ input }),
      headers: { 'Content-Type': 'application/json', 'Tauri-Callback': '1', 'Tauri-Error': '2', 'Tauri-Invoke-Key': 'guessed-key' } });
    r.ipcFetch = 'answered ' + res.status;
  } catch (e) { r.ipcFetch = 'failed ' + e.name; }
  const handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.ipc;
  r.handler = typeof handler;
  if (handler) {
    handler.postMessage(JSON.stringify({ cmd: 'add_server', callback: 1, error: 2, payload: { input },
      __TAURI_INVOKE_KEY__: 'guessed-key' }));
  }
  done(r);
})();`;

/** The window handle of the webview whose page is `url`, or null; leaves the session in `back`. */
async function windowOf(session, url, back) {
  try {
    for (const handle of await session.getWindowHandles()) {
      await session.switchToWindow(handle);
      if ((await session.getUrl().catch(() => null)) === url) return handle;
    }
    return null;
  } finally {
    await session.switchToWindow(back);
  }
}

describe('MCP Apps sandbox: a webview of its own, on its own origin, without the Tauri IPC', () => {
  let app;
  let declared;
  let undeclared;
  let dir;
  let serverId;
  let frame;
  let viewHandle;

  before(
    async () => {
      declared = await httpServer();
      undeclared = await httpServer();
      dir = mkdtempSync(join(tmpdir(), 'gatehouse-sandbox-'));
      const entry = join(dir, 'server.cjs');
      writeFileSync(entry, serverSource(viewHtml(declared.origin, undeclared.origin), declared.origin));
      app = await launchApp();
      const view = await invoke(app.session, 'add_server', {
        input: {
          name: 'sandbox-check',
          enabled: true,
          roots: [],
          spec: { kind: 'stdio', command: 'node', args: [entry], env: [], cwd: null },
        },
      });
      serverId = view.config.id;
      // The declared origin is on this computer: apps reach it only once the person allows it.
      await invoke(app.session, 'app_site_add', { list: 'allow', domain: '127.0.0.1' });
      await waitFor(
        async () => {
          try {
            const tools = await invoke(app.session, 'list_tools', { id: serverId });
            return tools.some((t) => t.name === 'show');
          } catch {
            return false;
          }
        },
        { timeout: 30_000, interval: 500, message: 'the sandbox-check server to connect' },
      );
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await app?.close();
    declared?.server.close();
    undeclared?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a view in a webview of its own, on the sandbox origin with the view policy', { timeout: 60_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      frame = await invoke(s, 'app_open_view', { serverId, uri: VIEW_URI });
      assert.equal(frame.sandboxOrigin, SANDBOX_ORIGIN);
      assert.match(frame.sandboxUrl, /^gatehouse-app:\/\/localhost\/sandbox\?view=[0-9a-f]{64}$/);
      assert.ok(frame.policy.includes(`connect-src ${declared.origin}`), frame.policy);
      assert.ok(frame.policy.includes(`frame-src ${declared.origin}`), frame.policy);
      // Listen as the UI does, then place the view: the shell makes its webview.
      await s.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         window.__sandboxCheck = { messages: [] };
         window.__TAURI_INTERNALS__.invoke('plugin:event|listen', {
           event: 'app-view-messages-event', target: { kind: 'Any' },
           handler: window.__TAURI_INTERNALS__.transformCallback((e) => window.__sandboxCheck.messages.push(...e.payload.messages)),
         }).then(() => done(true), (e) => done(String(e)));`,
      );
      await invoke(s, 'app_place_view', {
        view: frame.sandboxUrl,
        placement: { visible: true, x: 700, y: 500, width: 480, height: 240, viewWidth: 480, viewHeight: 240, offsetX: 0, offsetY: 0 },
      });
      await waitFor(
        async () =>
          (await s.executeScript(
            `return window.__sandboxCheck.messages.some((m) => m && m.method === 'ui/notifications/sandbox-proxy-ready');`,
          )) === true,
        { timeout: 15_000, message: 'the proxy page to announce itself through the relay' },
      );
      await invoke(s, 'app_post_to_view', {
        view: frame.sandboxUrl,
        message: {
          jsonrpc: '2.0',
          method: 'ui/notifications/sandbox-resource-ready',
          params: { html: frame.html, permissions: {}, sandbox: 'allow-scripts allow-same-origin allow-top-navigation allow-popups' },
        },
      });
      viewHandle = await waitFor(() => windowOf(s, frame.sandboxUrl, app.mainHandle), {
        timeout: 15_000,
        message: "the view's own webview (a window handle whose page is the sandbox URL)",
      });
      assert.notEqual(viewHandle, app.mainHandle, 'the view is not in the main webview');
    });
  });

  it("gives the view's webview no capability, and the view neither the IPC nor the proxy", { timeout: 90_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      assert.ok(viewHandle, 'the view was opened');
      const s = app.session;
      const before = (await invoke(s, 'list_servers')).length;
      const noticesBefore = outputLines(app, WRONG_KEY_NOTICE);
      t.after(() => s.switchToWindow(app.mainHandle).catch(() => {}));

      await s.switchToWindow(viewHandle);
      const proxy = await s.executeAsyncScript(IPC_PROBE, ['from-proxy']);
      // Tauri puts its scripts (and the key) in every webview it makes; this one's capability is
      // none, so its own invoke is refused.
      const ownInvoke = await s.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         const internals = window.__TAURI_INTERNALS__;
         if (!internals) return done('no __TAURI_INTERNALS__');
         internals.invoke('add_server', { input: { name: 'from-proxy-internals', enabled: false, roots: [],
           spec: { kind: 'stdio', command: 'true', args: [], env: [], cwd: null } } })
           .then((v) => done('answered ' + JSON.stringify(v)), (e) => done('refused: ' + String(e)));`,
      );
      const shape = await s.executeScript(
        `const views = document.querySelectorAll('iframe');
         return { count: views.length, id: views[0] && views[0].id, sandbox: views[0] && views[0].getAttribute('sandbox') };`,
      );
      assert.equal(proxy.origin, SANDBOX_ORIGIN);
      assert.equal(proxy.secure, true, 'the sandbox scheme is a secure context');
      assert.match(ownInvoke, /^refused: .*not allowed.*webview "app-view-/s, `the ACL refuses the view's webview: ${ownInvoke}`);
      assert.match(proxy.ipcFetch, /^failed/, 'the proxy page policy blocks ipc://');
      assert.deepEqual({ count: shape.count, id: shape.id }, { count: 1, id: 'app-view' });
      assert.equal(
        shape.sandbox,
        'allow-scripts',
        'the proxy drops allow-same-origin, allow-top-navigation and allow-popups from what it is asked',
      );

      await s.switchToFrame(await s.findElement('#app-view'));
      const results = await waitFor(
        async () => (await s.executeScript('return window.__results || null;')) ?? false,
        { timeout: 15_000, message: 'the view to record what it can reach' },
      );
      const view = await s.executeAsyncScript(IPC_PROBE, ['from-view']);
      const policyMeta = await s.executeScript(
        `const m = document.head.firstElementChild;
         return m && m.getAttribute('http-equiv') === 'Content-Security-Policy' ? m.getAttribute('content') : null;`,
      );
      const relay = await s.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         fetch(arguments[0], { method: 'POST', body: '[{"jsonrpc":"2.0","method":"forged"}]' })
           .then((r) => done('answered ' + r.status), (e) => done('failed ' + e.name));`,
        [frame.sandboxUrl.replace('/sandbox?', '/relay?')],
      );
      const text = await s.executeScript(`return document.getElementById('view-text').textContent;`);
      await s.switchToWindow(app.mainHandle);

      assert.equal(text, 'sandbox check view', "the view's own document rendered");
      assert.equal(view.origin, 'null', 'the view runs in an opaque origin');
      assert.equal(view.internals, 'undefined', 'no __TAURI_INTERNALS__ in the view');
      assert.equal(view.tauri, 'undefined');
      assert.equal(view.ipc, 'undefined');
      assert.match(view.ipcFetch, /^failed/);
      assert.match(relay, /^failed/, "the view's policy does not reach the relay");
      assert.equal(results.parentDocument, 'threw SecurityError', 'parent.document is out of reach');
      assert.equal(results.topLocation, 'threw SecurityError', 'top.location is out of reach');
      assert.equal(policyMeta, frame.policy, 'the view carries its own policy (without the relay) as its first meta tag');
      assert.equal(results.declared, 'ok 200 reached', 'the declared origin is reachable');
      assert.match(results.undeclared, /^failed/, 'an undeclared origin is not');
      assert.deepEqual(undeclared.hits, [], 'no request reached the undeclared origin');
      const messages = await s.executeScript('return window.__sandboxCheck.messages;');
      assert.ok(!messages.some((m) => m && m.method === 'forged'), `nothing forged reached the window: ${JSON.stringify(messages)}`);

      // Tauri said it refused both frames' guessed-key messages (without the key).
      await waitForOutput(app, WRONG_KEY_NOTICE, {
        count: noticesBefore + 2,
        message: "the app saying it refused the two frames' guessed-key messages",
      });
      const names = (await invoke(s, 'list_servers')).map((v) => v.config.name);
      assert.equal(names.length, before, `no frame added a server: ${names}`);
    });
  });

  it('lets the main window frame nothing and go nowhere but the app', { timeout: 30_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await s.switchToWindow(app.mainHandle);
      for (const target of [frame.sandboxUrl, `${declared.origin}/framed`]) {
        const violation = await s.executeAsyncScript(
          `const done = arguments[arguments.length - 1];
           const target = arguments[0];
           const timer = setTimeout(() => done(null), 3000);
           const origin = target.slice(0, target.indexOf('/', target.indexOf('//') + 2));
           document.addEventListener('securitypolicyviolation', (e) => {
             if (!String(e.blockedURI).startsWith(origin)) return;
             clearTimeout(timer);
             done({ directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI });
           });
           const f = document.createElement('iframe');
           f.src = target;
           document.body.appendChild(f);`,
          [target],
        );
        assert.ok(violation, `the main window's CSP let it frame ${target}`);
        assert.match(violation.directive, /^frame-src/);
      }
      assert.ok(!declared.hits.includes('/framed'), `the main window framed ${declared.origin}: ${declared.hits}`);
      await s.executeScript(`document.querySelectorAll('iframe').forEach((f) => f.remove());`);

      // The main webview holds the app's commands: it stays on the app's origin.
      const url = await s.getUrl();
      const away = `${declared.origin}/main-navigated`;
      await s.executeScript(`const to = arguments[0]; setTimeout(() => { location.href = to; }, 10);`, [away]);
      await waitForOutput(app, new RegExp(`refused to navigate the webview main to ${away.replace(/[.]/g, '\\.')}`), {
        message: 'the app refusing to navigate the main webview away',
      });
      assert.ok(!declared.hits.includes('/main-navigated'), `the main window went to ${declared.origin}: ${declared.hits}`);
      assert.equal(await s.getUrl(), url, 'the main window is still on the app');
    });
  });

  it('refuses a view that navigates its frame away', { timeout: 30_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      t.after(() => s.switchToWindow(app.mainHandle).catch(() => {}));
      await s.switchToWindow(viewHandle);
      await s.switchToFrame(await s.findElement('#app-view'));
      const away = `${declared.origin}/navigated`;
      await s.executeScript(`const to = arguments[0]; setTimeout(() => { location.href = to; }, 10);`, [away]);
      await waitForOutput(app, new RegExp(`refused to navigate the webview app-view-\\d+ to ${away.replace(/[.]/g, '\\.')}`), {
        message: "the view's webview refusing the view's navigation",
      });
      assert.equal(await s.executeScript(`return document.getElementById('view-text')?.textContent ?? null;`), 'sandbox check view',
        'the view is still its own document');
      await s.switchToWindow(viewHandle);
      assert.equal(await s.getUrl(), frame.sandboxUrl, "the view's webview is still on its proxy page");
      assert.ok(!declared.hits.includes('/navigated'), `the view navigated to ${declared.origin}: ${declared.hits}`);
    });
  });

  it('closes the webview of a closed view, and forgets it', { timeout: 30_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await s.switchToWindow(app.mainHandle);
      assert.equal(await invoke(s, 'app_close_view', { view: frame.sandboxUrl }), true);
      assert.equal(await invoke(s, 'app_close_view', { view: frame.sandboxUrl }), false);
      await waitFor(async () => (await s.getWindowHandles()).length === 1, {
        timeout: 10_000,
        message: "the view's webview to close",
      });
    });
  });

  it('closes every view\'s webview when the window loads again', { timeout: 60_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await s.switchToWindow(app.mainHandle);
      const again = await invoke(s, 'app_open_view', { serverId, uri: VIEW_URI });
      await invoke(s, 'app_place_view', {
        view: again.sandboxUrl,
        placement: { visible: true, x: 700, y: 500, width: 480, height: 240, viewWidth: 480, viewHeight: 240, offsetX: 0, offsetY: 0 },
      });
      await waitFor(() => windowOf(s, again.sandboxUrl, app.mainHandle), {
        timeout: 15_000,
        message: "the second view's webview",
      });
      // A reloaded window has no panel left to place or close its views.
      await s.executeScript(`setTimeout(() => location.reload(), 10);`);
      await waitFor(async () => (await s.getWindowHandles()).length === 1, {
        timeout: 15_000,
        message: "the view's webview to close when the window reloads",
      });
      await waitFor(
        async () => (await s.executeScript(`return document.readyState === 'complete' && !!window.__TAURI_INTERNALS__;`).catch(() => false)) === true,
        { timeout: 15_000, message: 'the window to load again' },
      );
      assert.equal(await invoke(s, 'app_close_view', { view: again.sandboxUrl }), false, 'the view was forgotten');
    });
  });
});

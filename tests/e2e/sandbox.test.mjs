// Real-window e2e: the MCP Apps sandbox. A small stdio MCP server (written below) offers one
// UI resource whose CSP declares one local HTTP origin. The test opens a view of it through
// the shell's `app_open_view`, frames the proxy page from the main window the way the UI does
// (SEP-1865 "Sandbox proxy": proxy-ready, then resource-ready), and then evaluates inside each
// frame through WebDriver frame switching:
//
// - the proxy frame is on `gatehouse-app://localhost`, a secure context, with no Tauri IPC
//   (`__TAURI_INTERNALS__`, `__TAURI__`, `ipc` absent) and holding exactly one `#app-view`;
// - the view frame has an opaque origin, no Tauri IPC, cannot read `parent.document` or
//   `top.location`, carries its policy as the first meta tag, and can fetch the declared origin
//   but not an undeclared one;
// - neither frame can run a command: invoking over `ipc://localhost` and over WebKit's `ipc`
//   message handler (which WebKitGTK exposes in every frame) with a guessed key changes nothing;
// - the main window cannot frame any origin but the sandbox's;
// - a view that navigates its frame away is removed by the proxy.
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, waitFor } from './harness.mjs';

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

// A minimal MCP server over stdio (newline-delimited JSON-RPC) with one UI resource.
function serverSource(html, declared) {
  return `
const readline = require('node:readline');
const html = ${JSON.stringify(html)};
const ui = { csp: { connectDomains: [${JSON.stringify(declared)}] } };
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

// Invokes a command from the main window (the test drives the app as its UI does).
async function invoke(session, cmd, args = {}) {
  const out = await session.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     window.__TAURI_INTERNALS__.invoke(arguments[0], arguments[1])
       .then((value) => done({ value }), (error) => done({ error }));`,
    [cmd, args],
  );
  if (out.error !== undefined) throw new Error(`${cmd}: ${JSON.stringify(out.error)}`);
  return out.value;
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

describe('MCP Apps sandbox: a separate origin without the Tauri IPC', () => {
  let app;
  let declared;
  let undeclared;
  let dir;
  let serverId;
  let frame;

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

  it('opens a view whose proxy page is on the sandbox origin with the view policy', { timeout: 60_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      frame = await invoke(app.session, 'app_open_view', { serverId, uri: VIEW_URI });
      assert.equal(frame.sandboxOrigin, SANDBOX_ORIGIN);
      assert.match(frame.sandboxUrl, /^gatehouse-app:\/\/localhost\/sandbox\?view=[0-9a-f]{64}$/);
      assert.ok(frame.policy.includes(`connect-src ${declared.origin}`), frame.policy);
      // Frame it as the UI does, and answer proxy-ready with the resource.
      await app.session.executeScript(
        `const [url, origin, html] = arguments;
         window.__sandboxCheck = { messages: [] };
         const f = document.createElement('iframe');
         f.id = 'sandbox-check-frame';
         f.setAttribute('sandbox', 'allow-scripts allow-same-origin');
         f.style.cssText = 'position:fixed;right:0;bottom:0;width:480px;height:240px;z-index:9999';
         window.addEventListener('message', (e) => {
           if (e.source !== f.contentWindow || e.origin !== origin) return;
           window.__sandboxCheck.messages.push(e.data);
           if (e.data && e.data.method === 'ui/notifications/sandbox-proxy-ready') {
             f.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready',
               params: { html, permissions: {}, sandbox: 'allow-scripts allow-same-origin allow-top-navigation allow-popups' } }, origin);
           }
         });
         f.src = url;
         document.body.appendChild(f);`,
        [frame.sandboxUrl, frame.sandboxOrigin, frame.html],
      );
      await waitFor(
        async () =>
          (await app.session.executeScript(
            `return window.__sandboxCheck.messages.some((m) => m && m.method === 'ui/notifications/sandbox-proxy-ready');`,
          )) === true,
        { timeout: 15_000, message: 'the proxy page to announce itself' },
      );
    });
  });

  it('gives neither frame the Tauri IPC, nor the view the proxy or the host', { timeout: 90_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      assert.ok(frame, 'the view was opened');
      const s = app.session;
      const before = (await invoke(s, 'list_servers')).length;

      await s.cmd('POST', '/frame', { id: await s.findElement('#sandbox-check-frame') });
      t.after(() => s.cmd('POST', '/frame', { id: null }).catch(() => {}));
      const proxy = await s.executeAsyncScript(IPC_PROBE, ['from-proxy']);
      const shape = await s.executeScript(
        `const views = document.querySelectorAll('iframe');
         let top; try { top = typeof window.top.document.body; } catch (e) { top = 'threw ' + e.name; }
         return { count: views.length, id: views[0] && views[0].id, sandbox: views[0] && views[0].getAttribute('sandbox'), top };`,
      );
      assert.equal(proxy.origin, SANDBOX_ORIGIN);
      assert.equal(proxy.secure, true, 'the sandbox scheme is a secure context');
      assert.equal(proxy.internals, 'undefined', 'no __TAURI_INTERNALS__ in the proxy frame');
      assert.equal(proxy.tauri, 'undefined');
      assert.equal(proxy.ipc, 'undefined');
      assert.match(proxy.ipcFetch, /^failed/, 'the view policy blocks ipc:// from the proxy');
      assert.deepEqual(
        { count: shape.count, id: shape.id, top: shape.top },
        { count: 1, id: 'app-view', top: 'threw SecurityError' },
      );
      assert.equal(
        shape.sandbox,
        'allow-scripts',
        'the proxy drops allow-same-origin, allow-top-navigation and allow-popups from what it is asked',
      );

      await s.cmd('POST', '/frame', { id: await s.findElement('#app-view') });
      const results = await waitFor(
        async () => (await s.executeScript('return window.__results || null;')) ?? false,
        { timeout: 15_000, message: 'the view to record what it can reach' },
      );
      const view = await s.executeAsyncScript(IPC_PROBE, ['from-view']);
      const policyMeta = await s.executeScript(
        `const m = document.head.firstElementChild;
         return m && m.getAttribute('http-equiv') === 'Content-Security-Policy' ? m.getAttribute('content') : null;`,
      );
      const text = await s.executeScript(`return document.getElementById('view-text').textContent;`);
      await s.cmd('POST', '/frame', { id: null });

      assert.equal(text, 'sandbox check view', "the view's own document rendered");
      assert.equal(view.origin, 'null', 'the view runs in an opaque origin');
      assert.equal(view.internals, 'undefined', 'no __TAURI_INTERNALS__ in the view');
      assert.equal(view.tauri, 'undefined');
      assert.equal(view.ipc, 'undefined');
      assert.match(view.ipcFetch, /^failed/);
      assert.equal(results.parentDocument, 'threw SecurityError', 'parent.document is out of reach');
      assert.equal(results.topLocation, 'threw SecurityError', 'top.location is out of reach');
      assert.equal(policyMeta, frame.policy, 'the view carries its policy as its first meta tag');
      assert.equal(results.declared, 'ok 200 reached', 'the declared origin is reachable');
      assert.match(results.undeclared, /^failed/, 'an undeclared origin is not');
      assert.deepEqual(undeclared.hits, [], 'no request reached the undeclared origin');

      // Give any IPC message a moment to land, then check nothing was added.
      await new Promise((r) => setTimeout(r, 1_000));
      const names = (await invoke(s, 'list_servers')).map((v) => v.config.name);
      assert.equal(names.length, before, `no frame added a server: ${names}`);
    });
  });

  it('lets the main window frame the sandbox origin and nothing else', { timeout: 30_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      await app.session.cmd('POST', '/frame', { id: null });
      const violation = await app.session.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         const target = arguments[0];
         const timer = setTimeout(() => done(null), 3000);
         document.addEventListener('securitypolicyviolation', (e) => {
           if (!String(e.blockedURI).startsWith(target)) return;
           clearTimeout(timer);
           done({ directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI });
         });
         const f = document.createElement('iframe');
         f.src = target + '/framed';
         document.body.appendChild(f);`,
        [declared.origin],
      );
      assert.ok(violation, `the main window's CSP let it frame ${declared.origin}`);
      assert.match(violation.directive, /^frame-src/);
      assert.ok(!declared.hits.includes('/framed'), `the main window framed ${declared.origin}: ${declared.hits}`);
    });
  });

  it('removes a view that navigates its frame away', { timeout: 30_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await s.cmd('POST', '/frame', { id: null });
      await s.cmd('POST', '/frame', { id: await s.findElement('#sandbox-check-frame') });
      t.after(() => s.cmd('POST', '/frame', { id: null }).catch(() => {}));
      await s.cmd('POST', '/frame', { id: await s.findElement('#app-view') });
      await s.executeScript(`const to = arguments[0]; setTimeout(() => { location.href = to; }, 50);`, [declared.origin + '/navigated']);
      await s.cmd('POST', '/frame/parent', {});
      await waitFor(async () => (await s.executeScript(`return document.querySelectorAll('iframe').length;`)) === 0, {
        timeout: 10_000,
        message: 'the proxy to remove the navigated view',
      });
    });
  });

  it('forgets a closed view', { timeout: 30_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      await app.session.cmd('POST', '/frame', { id: null });
      assert.equal(await invoke(app.session, 'app_close_view', { view: frame.sandboxUrl }), true);
      assert.equal(await invoke(app.session, 'app_close_view', { view: frame.sandboxUrl }), false);
    });
  });
});

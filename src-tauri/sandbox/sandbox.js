// The MCP Apps sandbox proxy (SEP-1865, "Sandbox proxy"), served by the shell on its own
// origin (src-tauri/src/apps/sandbox_scheme.rs fills in the two constants below) as the page of
// the view's own webview, which holds no Tauri capability.
//
// - The host is the window, in another webview: its messages arrive through
//   `window.__gatehouseSandbox.fromHost`, which only the shell calls (it evaluates the call in
//   this page; the view's frame cannot reach this page's globals). This page's messages to the
//   host go, in order, as batches POSTed to the relay (`gatehouse-app://localhost/relay`), one
//   request at a time.
// - It talks to the one view frame it created, only when the message comes from that frame's
//   window.
// - It announces itself with `ui/notifications/sandbox-proxy-ready`, creates exactly one view
//   frame (`id="app-view"`) on the first `ui/notifications/sandbox-resource-ready`, and from
//   then on relays every other JSON-RPC message both ways, unchanged. Methods starting with
//   `ui/notifications/sandbox-` are never relayed. It never makes up requests of its own.
// - If the view navigates its frame away (the shell refuses such a navigation before it
//   starts), the frame is removed and nothing more is relayed.
// - The view frame is sandboxed without `allow-same-origin`: the view runs in an opaque
//   origin, so it cannot reach this page's DOM or globals; and its document carries the view's
//   Content-Security-Policy as a meta tag at its very top (the policy this page received as a
//   header, without the relay).
// - `window.__gatehouseSandbox.layout` sizes the view frame to the view's whole area and shifts
//   it so the part the webview shows is the part of the panel that is visible in the window.
(() => {
  'use strict';

  const RELAY_URL = "__RELAY_URL__";
  const VIEW_POLICY = "__VIEW_POLICY__";
  // The sandbox tokens the view may have; whatever the host asks, never allow-same-origin,
  // allow-top-navigation*, allow-popups-to-escape-sandbox or allow-downloads.
  const VIEW_SANDBOX_ALLOWED = ['allow-scripts', 'allow-forms', 'allow-modals', 'allow-pointer-lock'];
  const VIEW_SANDBOX_DEFAULT = 'allow-scripts allow-forms';
  // SEP-1865 permissions and the Permissions Policy features they map to.
  const FEATURES = {
    camera: 'camera',
    microphone: 'microphone',
    geolocation: 'geolocation',
    clipboardWrite: 'clipboard-write',
  };
  const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
  const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
  const SANDBOX_PREFIX = 'ui/notifications/sandbox-';
  // What the relay takes in one request (src-tauri/src/apps/relay.rs), and what waits here
  // while a request is out; a message past either is dropped, with a warning.
  const MAX_BATCH_MESSAGES = 256;
  const MAX_BATCH_CHARS = 32 * 1024 * 1024;
  const MAX_WAITING = 4096;

  let view = null;
  // Set once the view has gone; no view is loaded again.
  let ended = false;
  // The view's whole area and the part of it shown, from the host (CSS pixels).
  let area = null;

  const isMessage = (data) =>
    data !== null && typeof data === 'object' && !Array.isArray(data) && data.jsonrpc === '2.0';
  const isSandboxMethod = (data) => typeof data.method === 'string' && data.method.startsWith(SANDBOX_PREFIX);

  // Messages for the host, as JSON text, in order; at most one relay request is out.
  const waiting = [];
  let sending = false;

  function toHost(message) {
    let text;
    try {
      text = JSON.stringify(message);
    } catch (e) {
      console.warn('Gatehouse sandbox: a message that is not JSON was dropped', e);
      return;
    }
    if (text.length > MAX_BATCH_CHARS || waiting.length >= MAX_WAITING) {
      console.warn('Gatehouse sandbox: a message for the host was dropped (too large, or too many waiting)');
      return;
    }
    waiting.push(text);
    void flush();
  }

  async function flush() {
    if (sending || waiting.length === 0) return;
    sending = true;
    const batch = [];
    let size = 2;
    while (waiting.length > 0 && batch.length < MAX_BATCH_MESSAGES && size + waiting[0].length + 1 <= MAX_BATCH_CHARS) {
      const text = waiting.shift();
      size += text.length + 1;
      batch.push(text);
    }
    try {
      const response = await fetch(RELAY_URL, {
        method: 'POST',
        body: '[' + batch.join(',') + ']',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      });
      if (!response.ok) console.warn('Gatehouse sandbox: the relay refused ' + batch.length + ' message(s): ' + response.status);
    } catch (e) {
      console.warn('Gatehouse sandbox: the relay failed', e);
    }
    sending = false;
    void flush();
  }

  function viewSandbox(requested) {
    if (typeof requested !== 'string') return VIEW_SANDBOX_DEFAULT;
    const tokens = requested.split(/\s+/).filter((t) => VIEW_SANDBOX_ALLOWED.includes(t));
    if (!tokens.includes('allow-scripts')) tokens.unshift('allow-scripts');
    return [...new Set(tokens)].join(' ');
  }

  function viewAllow(permissions) {
    if (permissions === null || typeof permissions !== 'object') return '';
    return Object.keys(FEATURES)
      .filter((key) => Object.prototype.hasOwnProperty.call(permissions, key) && permissions[key])
      .map((key) => FEATURES[key])
      .join('; ');
  }

  // The policy goes first, before anything of the view's: a comment or a stray tag in the
  // view's own head cannot hide it, and the view's later doctype and <html> attributes are
  // still honoured by the parser.
  function withPolicy(html) {
    const policy = VIEW_POLICY.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    return '<!doctype html><meta http-equiv="Content-Security-Policy" content="' + policy + '">' + html;
  }

  function applyLayout() {
    if (view === null) return;
    const px = (n) => (typeof n === 'number' && isFinite(n) && n >= 0 ? n : 0);
    if (area === null) {
      view.style.position = 'static';
      view.style.width = '100%';
      view.style.height = '100%';
      return;
    }
    view.style.position = 'absolute';
    view.style.width = px(area.width) + 'px';
    view.style.height = px(area.height) + 'px';
    view.style.left = -px(area.left) + 'px';
    view.style.top = -px(area.top) + 'px';
  }

  function load(params) {
    if (ended || view !== null || params === null || typeof params !== 'object') return;
    if (typeof params.html !== 'string') return;
    const frame = document.createElement('iframe');
    frame.id = 'app-view';
    frame.setAttribute('sandbox', viewSandbox(params.sandbox));
    const allow = viewAllow(params.permissions);
    if (allow) frame.setAttribute('allow', allow);
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.style.border = '0';
    frame.style.display = 'block';
    frame.srcdoc = withPolicy(params.html);
    // The view's own document loads once. A second load means the view navigated its frame
    // away: whatever is there now is not the view the host was given, so the frame is removed
    // and nothing more is relayed.
    let loads = 0;
    frame.addEventListener('load', () => {
      loads += 1;
      if (loads > 1) {
        frame.remove();
        view = null;
        ended = true;
      }
    });
    view = frame;
    applyLayout();
    document.body.appendChild(frame);
  }

  function fromHost(data) {
    if (!isMessage(data)) return;
    if (data.method === RESOURCE_READY) {
      load(data.params);
      return;
    }
    if (isSandboxMethod(data) || view === null || !view.contentWindow) return;
    // The view's origin is opaque: '*' is the only target that reaches it.
    view.contentWindow.postMessage(data, '*');
  }

  function layout(next) {
    if (next === null || typeof next !== 'object') return;
    area = { width: next.width, height: next.height, left: next.left, top: next.top };
    applyLayout();
  }

  Object.defineProperty(window, '__gatehouseSandbox', {
    value: Object.freeze({ fromHost, layout }),
    writable: false,
    configurable: false,
    enumerable: false,
  });

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (view !== null && event.source === view.contentWindow && event.source !== null) {
      if (!isMessage(data) || isSandboxMethod(data)) return;
      toHost(data);
    }
  });

  document.documentElement.style.height = '100%';
  document.body.style.margin = '0';
  document.body.style.height = '100%';
  document.body.style.overflow = 'hidden';
  document.body.style.position = 'relative';
  toHost({ jsonrpc: '2.0', method: PROXY_READY, params: {} });
})();

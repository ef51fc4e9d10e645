// The MCP Apps sandbox proxy (SEP-1865, "Sandbox proxy"), served by the shell on its own
// origin (src-tauri/src/apps/sandbox_scheme.rs fills in the two constants below).
//
// - It talks only to its parent, and only when the message comes from the parent window at the
//   exact host origin; and to the one view frame it created, only when the message comes from
//   that frame's window.
// - It announces itself with `ui/notifications/sandbox-proxy-ready`, creates exactly one view
//   frame (`id="app-view"`) on the first `ui/notifications/sandbox-resource-ready`, and from
//   then on relays every other JSON-RPC message both ways, unchanged. Methods starting with
//   `ui/notifications/sandbox-` are never relayed. It never makes up requests of its own.
// - If the view navigates its frame away, the frame is removed and nothing more is relayed.
// - The view frame is sandboxed without `allow-same-origin`: the view runs in an opaque
//   origin, so it cannot reach this page's DOM, the host's, or `top`; and its document carries
//   the view's Content-Security-Policy as a meta tag at its very top (the same policy this
//   page received as a header).
(() => {
  'use strict';

  const HOST_ORIGIN = "__HOST_ORIGIN__";
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

  const host = window.parent;
  if (!host || host === window) return;

  let view = null;
  // Set once the view has gone; no view is loaded again.
  let ended = false;

  const isMessage = (data) =>
    data !== null && typeof data === 'object' && !Array.isArray(data) && data.jsonrpc === '2.0';
  const isSandboxMethod = (data) => typeof data.method === 'string' && data.method.startsWith(SANDBOX_PREFIX);

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
    frame.style.width = '100%';
    frame.style.height = '100%';
    frame.style.display = 'block';
    frame.srcdoc = withPolicy(params.html);
    // The view's own document loads once. A second load means the view navigated its frame
    // away (no sandbox flag prevents that): whatever is there now is not the view the host
    // was given, so the frame is removed and nothing more is relayed.
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
    document.body.appendChild(frame);
  }

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === host) {
      if (event.origin !== HOST_ORIGIN || !isMessage(data)) return;
      if (data.method === RESOURCE_READY) {
        load(data.params);
        return;
      }
      if (isSandboxMethod(data) || view === null || !view.contentWindow) return;
      // The view's origin is opaque: '*' is the only target that reaches it.
      view.contentWindow.postMessage(data, '*');
      return;
    }
    if (view !== null && event.source === view.contentWindow && event.source !== null) {
      if (!isMessage(data) || isSandboxMethod(data)) return;
      host.postMessage(data, HOST_ORIGIN);
    }
  });

  document.documentElement.style.height = '100%';
  document.body.style.margin = '0';
  document.body.style.height = '100%';
  document.body.style.overflow = 'hidden';
  host.postMessage({ jsonrpc: '2.0', method: PROXY_READY, params: {} }, HOST_ORIGIN);
})();

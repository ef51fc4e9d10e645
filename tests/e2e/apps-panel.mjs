// What a person does with MCP Apps in the window, driven through WebDriver: call a tool that
// has a UI from its Call form, wait until the app panel below the result says the app is
// ready, and look inside the app's own document (the view's own webview, a window handle of
// its own whose page is the sandbox proxy, then its inner `#app-view` frame); set a server's
// default decision on the Policies page; read the rows of one tool on the Audit page.

import { waitFor, fatal } from './harness.mjs';
import { APPROVAL_DIALOG, fillField, openCallForm, openPage, submitCall } from './servers-page.mjs';

/** The CSS selector of the app panel showing the UI resource `uri`. */
export const appPanelOf = (uri) => `[data-testid="app-panel"][data-app-uri="${uri}"]`;

/** Opens the Call form of `tool` (a tool with a UI) and submits it; resolves to the form's selector. */
export async function callUiTool(app, tool) {
  const panel = await openCallForm(app, tool);
  await submitCall(app, panel);
  return panel;
}

/**
 * Waits until the app panel of `uri` says `data-app-state="ready"` (the view sent
 * `ui/notifications/initialized`). A panel in the `error` state, a failed call, or an approval
 * dialog (the app's calls were to be allowed by policy) ends the wait at once.
 */
export async function waitForAppReady(app, uri, { timeout = 45_000 } = {}) {
  const s = app.session;
  let state = '(no app panel yet)';
  await waitFor(
    async () => {
      const [dialog] = await s.findElements(APPROVAL_DIALOG);
      if (dialog) throw fatal(`an approval dialog asks while the app of ${uri} loads: ${await s.getText(dialog)}`);
      for (const id of ['call-failed', 'call-tool-error']) {
        const [failed] = await s.findElements(`[data-testid="${id}"]`);
        if (failed) throw fatal(`the call that shows ${uri} failed (${id}): ${await s.getText(failed)}`);
      }
      const [panel] = await s.findElements(appPanelOf(uri));
      if (!panel) return false;
      state = await s.getAttribute(panel, 'data-app-state');
      if (state === 'error') throw fatal(`the app panel of ${uri} is in the error state: ${await s.getText(panel)}`);
      return state === 'ready';
    },
    { timeout, interval: 250, message: () => `the app panel of ${uri} to be ready (data-app-state: ${state})` },
  );
  return appPanelOf(uri);
}

/**
 * The WebDriver window handle of the webview the app panel of `uri` shows its view in: the
 * handle whose page is the panel's sandbox URL (`data-sandbox-url` of its frame area). Leaves
 * the session in the main webview.
 */
export async function viewWindowOf(app, uri) {
  const s = app.session;
  const area = await app.waitForElement(`${appPanelOf(uri)} [data-testid="app-frame"]`, {
    message: `the frame area of the app panel of ${uri}`,
  });
  const url = await s.getAttribute(area, 'data-sandbox-url');
  if (!url) throw fatal(`the app panel of ${uri} names no sandbox URL`);
  try {
    return await waitFor(
      async () => {
        for (const handle of await s.getWindowHandles()) {
          if (handle === app.mainHandle) continue;
          await s.switchToWindow(handle);
          if ((await s.getUrl().catch(() => null)) === url) return handle;
        }
        return null;
      },
      { timeout: 15_000, interval: 250, message: `the webview of the app view ${url}` },
    );
  } finally {
    await s.switchToWindow(app.mainHandle);
  }
}

/**
 * Scrolls the window so the whole app panel of `uri` shows below the sticky header, and waits
 * until the view's webview shows all of the view (its proxy page lays the view frame out
 * unshifted), so that a pointer click inside the view lands where WebDriver aims it.
 */
export async function showWholeView(app, uri) {
  const s = app.session;
  await s.executeScript(
    `const el = document.querySelector(arguments[0]);
     if (!el) return;
     el.scrollIntoView({ block: 'start' });
     const header = document.querySelector('header');
     const below = header ? header.getBoundingClientRect().bottom + 8 : 0;
     const scroller = document.scrollingElement;
     scroller.scrollBy(0, el.getBoundingClientRect().top - below);`,
    [`${appPanelOf(uri)} [data-testid="app-frame"]`],
  );
  const handle = await viewWindowOf(app, uri);
  try {
    await waitFor(
      async () => {
        await s.switchToWindow(handle);
        return s.executeScript(
          `const view = document.getElementById('app-view');
           const at = (v) => v === '' || parseFloat(v) === 0;
           return !!view && at(view.style.top) && at(view.style.left);`,
        );
      },
      { timeout: 10_000, interval: 200, message: `the whole view of ${uri} to show in its webview` },
    );
  } finally {
    await s.switchToWindow(app.mainHandle);
  }
}

/**
 * Runs `fn(where)` with the WebDriver session switched into the app's own document: the view's
 * webview (the sandbox proxy page), then its inner `#app-view` frame. `where` is
 * `{ outer: <script result in the proxy page>, handle }` for checks made on the way in. Always
 * switches back to the main webview.
 */
export async function insideApp(app, uri, fn, { probeOuter } = {}) {
  const s = app.session;
  const handle = await viewWindowOf(app, uri);
  try {
    await s.switchToWindow(handle);
    const outerResult = probeOuter ? await s.executeScript(probeOuter) : undefined;
    const inner = await waitFor(
      async () => {
        const frames = await s.findElements('iframe#app-view');
        if (frames.length > 1) throw fatal(`the proxy page holds ${frames.length} #app-view frames, not one`);
        return frames[0] ?? null;
      },
      { timeout: 15_000, interval: 250, message: `the inner #app-view frame in the proxy page of ${uri}` },
    );
    await s.switchToFrame(inner);
    return await fn({ outer: outerResult, handle });
  } finally {
    await s.switchToWindow(app.mainHandle);
  }
}

/**
 * Inside an app (see `insideApp`): waits until the script `check` (a function body run in the
 * app's document) returns something truthy, and resolves to it.
 */
export function waitInApp(app, check, { timeout = 20_000, message }) {
  let last;
  return waitFor(
    async () => {
      last = await app.session.executeScript(check);
      return last;
    },
    { timeout, interval: 300, message: () => `${message} (last: ${JSON.stringify(last)})` },
  );
}

/** Sets the default decision of server `name` on the Policies page (`allow`, `ask`, `deny`). */
export async function setServerDefault(app, name, decision) {
  const s = app.session;
  await openPage(app, 'policies');
  const select = await app.waitForElement(`[data-testid="server-policy"][data-server-name="${name}"] select`, {
    message: `the default decision of ${name} on the Policies page`,
  });
  await waitFor(async () => (await s.getProperty(select, 'disabled')) === false, {
    timeout: 10_000,
    interval: 200,
    message: `the default of ${name} to be editable`,
  });
  await s.executeScript(
    `const [select, value] = arguments;
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, value);
     select.dispatchEvent(new Event('change', { bubbles: true }));`,
    [select, decision],
  );
  await waitFor(
    async () => {
      const [row] = await s.findElements(`[data-testid="server-policy"][data-server-name="${name}"] select`);
      return row && (await s.getProperty(row, 'value')) === decision && (await s.getProperty(row, 'disabled')) === false;
    },
    { timeout: 10_000, interval: 200, message: `the default of ${name} to read ${decision} (the engine must keep it)` },
  );
}

/**
 * On the Audit page, filters by `tool` (and by source when given) and resolves to the rows
 * listed as `{ kind, tool, source, decision, outcome }` once `accept(rows, { noMatch })` is true
 * (`noMatch`: the page says no row matches the filter).
 */
export async function auditRowsOf(app, tool, { source, accept = (rows) => rows.length > 0, timeout = 20_000 } = {}) {
  const s = app.session;
  await openPage(app, 'audit');
  await fillField(s, await app.waitForElement('input[aria-label="Tool"]', { message: 'the Tool filter of the Audit page' }), tool);
  if (source) {
    await s.executeScript(
      `const [select, value] = arguments;
       Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, value);
       select.dispatchEvent(new Event('change', { bubbles: true }));`,
      [await s.findElement('select[aria-label="Source"]'), source],
    );
  }
  let listed = [];
  return waitFor(
    async () => {
      const rows = [];
      for (const row of await s.findElements('[data-testid="audit-row"]')) {
        const attribute = (name) => s.getAttribute(row, name);
        rows.push({
          kind: await attribute('data-kind'),
          tool: await attribute('data-tool'),
          source: await attribute('data-source'),
          decision: await attribute('data-decision'),
          outcome: await attribute('data-outcome'),
        });
      }
      // The filter applies as the page refetches: only rows of the tool count.
      if (rows.some((r) => r.tool !== tool)) return null;
      listed = rows;
      const noMatch = rows.length === 0 && (await s.findElements('[data-testid="audit-no-match"]')).length > 0;
      return accept(rows, { noMatch }) ? rows : null;
    },
    { timeout, interval: 500, message: () => `the Audit rows of ${tool} (rows seen: ${JSON.stringify(listed)})` },
  );
}

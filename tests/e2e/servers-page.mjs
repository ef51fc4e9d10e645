// What a person does on the Servers page, driven through WebDriver: open a page from the header
// navigation, add a stdio server through the form, wait until its row reports it connected,
// select it to open its detail view, and open a tool's Call form.

import assert from 'node:assert/strict';

import { waitFor, fatal } from './harness.mjs';
import { Keys } from './webdriver.mjs';

/** The tool items of the server detail's tool list. */
export const TOOL_ITEMS = '[data-testid="server-detail"] [data-testid="tool-list"] [data-testid="tool-item"]';

/** The CSS selector of the server's row in the list. */
export const rowOf = (name) => `[data-testid="server-row"][data-server-name="${name}"]`;

/** Types `value` into an input/textarea the way a user would, then checks React saw it. */
export async function fillField(session, el, value) {
  const current = await session.getProperty(el, 'value');
  if (current) {
    // Select all + delete, as keystrokes, so React's onChange sees it.
    await session.sendKeys(el, `${Keys.CONTROL}a${Keys.CONTROL}${Keys.BACKSPACE}`);
  }
  // Newlines as Enter key presses (in a textarea they insert a line break).
  await session.sendKeys(el, value.split('\n').join(Keys.ENTER));
  let typed = await session.getProperty(el, 'value');
  if (typed !== value) {
    // Fallback: set through the native setter and fire `input`, which React's
    // controlled inputs listen to.
    await session.executeScript(
      `const [el, value] = arguments;
       const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
       Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
       el.dispatchEvent(new Event('input', { bubbles: true }));
       el.dispatchEvent(new Event('change', { bubbles: true }));`,
      [el, value],
    );
    typed = await session.getProperty(el, 'value');
  }
  assert.equal(typed, value, 'form field must hold exactly what the user typed, or the saved server config is wrong');
}

/** Checked state of a checkbox / switch, whether the testid is on the input, a wrapper, or an ARIA switch. */
function isChecked(session, el) {
  return session.executeScript(
    `const el = arguments[0];
     const input = el.matches('input') ? el : el.querySelector('input[type=checkbox], input[type=radio]');
     if (input) return input.checked;
     return el.getAttribute('aria-checked') === 'true' || el.getAttribute('data-state') === 'checked';`,
    [el],
  );
}

/** Adds an enabled stdio server `name` running `command args…` through the add-server form. */
export async function addStdioServer(app, name, command, args) {
  await addServer(app, name, 'stdio', async (s) => {
    const commandField = await app.waitForElement('[data-testid="server-command"]', {
      message: 'the command field (shown for stdio servers)',
    });
    await fillField(s, commandField, command);
    const argsField = await app.waitForElement('[data-testid="server-args"]', { message: 'the arguments textarea' });
    await fillField(s, argsField, args.join('\n'));
  });
}

/** Adds an enabled HTTP server `name` at `url` through the add-server form. */
export async function addHttpServer(app, name, url) {
  await addServer(app, name, 'http', async (s) => {
    await fillField(s, await app.waitForElement('[data-testid="server-url"]', { message: 'the URL field (shown for HTTP servers)' }), url);
  });
}

/** Opens the add-server form, names the server, picks `kind`, lets `fill` fill its fields, and saves it enabled. */
async function addServer(app, name, kind, fill) {
  const s = app.session;
  const addButton = await app.waitForElement('[data-testid="add-server-button"]', {
    timeout: 45_000,
    message: 'the "add server" button (the app UI must render after launch)',
  });
  await s.click(addButton);

  const nameField = await app.waitForElement('[data-testid="server-name"]', {
    message: 'the add-server form (clicking "add server" must open it)',
  });
  await fillField(s, nameField, name);

  await s.click(await app.waitForElement(`[data-testid="server-kind-${kind}"]`, { message: `the ${kind} transport option` }));
  await fill(s);

  const enabled = await app.waitForElement('[data-testid="server-enabled"]', { message: 'the enabled toggle' });
  if (!(await isChecked(s, enabled))) await s.click(enabled);
  assert.equal(
    await isChecked(s, enabled),
    true,
    'the server must be enabled, otherwise Gatehouse will not start it and nothing can connect',
  );

  await s.click(await app.waitForElement('[data-testid="server-save"]', { message: 'the save button' }));
  // The form closes once the engine took the server; until its overlay is gone the page under
  // it cannot be clicked (a second server added at once met "element not interactable").
  await waitFor(async () => (await s.findElements('[data-testid="server-name"]')).length === 0, {
    timeout: 15_000,
    interval: 100,
    message: 'the add-server form closing once saved (the engine must accept the server)',
  });
}

/** The text of the row's status badge, with the failure reason from its tooltip. */
async function badgeOf(session, row) {
  try {
    const el = await session.findElement('[data-testid="server-status"]', row);
    const [text, title] = [await session.getText(el), await session.getAttribute(el, 'title')];
    return title && title !== text ? `${text} (${title})` : text;
  } catch {
    return '(no status badge)';
  }
}

/** Waits until the server's row reports `connected`, and returns its badge text. */
export async function waitForConnected(app, name) {
  const s = app.session;
  let lastStatus = '(row not shown yet)';
  await waitFor(
    async () => {
      const rows = await s.findElements(rowOf(name));
      if (rows.length === 0) return false;
      lastStatus = await s.getAttribute(rows[0], 'data-status');
      if (lastStatus === 'failed') {
        throw fatal(
          `server "${name}" failed to connect — a real stdio MCP server must be launched and ` +
            `initialized by Gatehouse. Status badge: ${await badgeOf(s, rows[0])}`,
        );
      }
      return lastStatus === 'connected';
    },
    {
      timeout: 60_000,
      interval: 500,
      message: () =>
        `server row "${name}" to reach data-status="connected" (last data-status: ${lastStatus}); ` +
        'a saved, enabled stdio server must be started and connected without further user action',
    },
  );
  return badgeOf(s, await s.findElement(rowOf(name)));
}

/** Selects the server in the list and waits for its detail view. */
export async function selectServer(app, name) {
  const s = app.session;
  // Click the row's name (its click bubbles to the row's select handler):
  // the row's centre may fall on its action buttons, which do not select.
  const row = await s.findElement(rowOf(name));
  const [nameButton] = await s.findElements('.server-row-name', row);
  // A page scrolled by an earlier step may leave the row under the sticky header.
  await clickInView(s, nameButton ?? row);
  await waitFor(
    async () => {
      const headings = await s.findElements('[data-testid="server-detail"] #detail-heading');
      return headings.length > 0 && (await s.getText(headings[0])) === name;
    },
    { timeout: 10_000, interval: 250, message: `the detail view of "${name}" after selecting its row` },
  );
}

/**
 * Scrolls `el` to the middle of its scroll container, then clicks it. WebDriver's own
 * scrolling may leave an element under the sticky page header ("element click intercepted").
 */
export async function clickInView(session, el) {
  await session.executeScript("arguments[0].scrollIntoView({ block: 'center', inline: 'nearest' });", [el]);
  await session.click(el);
}

/** Opens the Call form of `tool` in the server detail; resolves to the CSS selector of its panel. */
export async function openCallForm(app, tool) {
  const item = `${TOOL_ITEMS}[data-tool-name="${tool}"]`;
  await clickInView(app.session, await app.waitForElement(`${item} [data-testid="tool-call-button"]`, {
    message: `the Call button of ${tool}`,
  }));
  const panel = `${item} [data-testid="tool-call-panel"]`;
  await app.waitForElement(`${panel} [data-testid="tool-call-submit"]`, {
    message: `the Call form of ${tool} (generated from its input schema)`,
  });
  return panel;
}

/** The Call form of `tool` that something else opened (the palette, the first run), waited for; resolves to its panel's selector. */
export async function openedCallForm(app, tool) {
  const panel = `${TOOL_ITEMS}[data-tool-name="${tool}"] [data-testid="tool-call-panel"]`;
  await app.waitForElement(`${panel} [data-testid="tool-call-submit"]`, { timeout: 30_000, message: `the Call form of ${tool}, opened` });
  return panel;
}

/** Opens a page from the header navigation: `servers`, `approvals`, `audit` or `policies`. */
export async function openPage(app, page) {
  await app.session.click(await app.waitForElement(`[data-testid="nav-${page}"]`, {
    message: `the ${page} item of the page navigation`,
  }));
}

/** Clicks the Call form's submit button (the panel from `openCallForm`). */
export async function submitCall(app, panel) {
  await clickInView(app.session, await app.waitForElement(`${panel} [data-testid="tool-call-submit"]`, {
    message: 'the Call button of the open Call form',
  }));
}

/**
 * Waits until the text blocks of the call's result in `panel` satisfy `test(text)`, and
 * resolves to that text. A failed call (`call-failed` / `call-tool-error`) ends the wait at once.
 */
export async function waitForCallText(app, panel, test, { timeout = 20_000, message } = {}) {
  const s = app.session;
  let seen = '(no result shown yet)';
  return waitFor(
    async () => {
      for (const id of ['call-failed', 'call-tool-error']) {
        const [failed] = await s.findElements(`${panel} [data-testid="${id}"]`);
        if (failed) throw fatal(`the call failed (${id}): ${await s.getText(failed)}; waiting for ${message}`);
      }
      const blocks = await s.findElements(`${panel} [data-testid="call-text"]`);
      if (blocks.length === 0) return null;
      const texts = [];
      for (const block of blocks) texts.push(await s.getText(block));
      seen = texts.join('\n');
      return test(seen) ? seen : null;
    },
    { timeout, interval: 250, message: () => `${message} (result text seen: ${JSON.stringify(seen)})` },
  );
}

/** The approval dialog over every page, and its inner question of one kind. */
export const APPROVAL_DIALOG = '[data-testid="approval-dialog"]';
export const approvalOf = (kind) => `${APPROVAL_DIALOG} .approval[data-kind="${kind}"]`;

/**
 * Waits until the approval dialog puts a question of `kind` (toolCall, sampling, elicitation,
 * openUrl, request) to the person and takes answers (it is disarmed for a moment after a
 * request appears, `data-armed`), and resolves to the CSS selector of that question. A dialog
 * asking something else ends the wait at once.
 */
export async function waitForApproval(app, kind, { timeout = 20_000 } = {}) {
  const s = app.session;
  await waitFor(
    async () => {
      const [inner] = await s.findElements(`${APPROVAL_DIALOG} .approval`);
      if (!inner) return false;
      const shown = await s.getAttribute(inner, 'data-kind');
      if (shown !== kind) throw fatal(`the approval dialog asks a ${shown} question, not the expected ${kind} one`);
      return (await s.getAttribute(inner, 'data-armed')) === 'true';
    },
    { timeout, interval: 250, message: `the approval dialog with a ${kind} question, armed (the server's request must reach the window)` },
  );
  return approvalOf(kind);
}

/** Waits until no approval dialog is shown (after answering it). */
export async function waitForApprovalClosed(app, { timeout = 10_000 } = {}) {
  const s = app.session;
  await waitFor(
    async () => {
      const [error] = await s.findElements(`${APPROVAL_DIALOG} [data-testid="approval-error"]`);
      if (error) throw fatal(`the engine refused the answer: ${await s.getText(error)}`);
      return (await s.findElements(APPROVAL_DIALOG)).length === 0;
    },
    { timeout, interval: 200, message: 'the approval dialog closing once answered' },
  );
}

/**
 * Presses the button `testid` of the approval question `question`. It is clicked when it can be
 * scrolled into the window; a button the dialog leaves outside the window (a long form, which
 * the dialog does not scroll) is pressed from the keyboard instead (focus, then Enter), as a
 * person without a reachable pointer target would. Resolves to `'click'` or `'keyboard'`.
 */
export async function pressApprovalButton(app, question, testid, what) {
  const s = app.session;
  const button = await app.waitForElement(`${question} [data-testid="${testid}"]`, { message: what });
  const inWindow = await s.executeScript(
    `const el = arguments[0];
     el.scrollIntoView({ block: 'center', inline: 'nearest' });
     const r = el.getBoundingClientRect();
     return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;`,
    [button],
  );
  if (inWindow) {
    await s.click(button);
    return 'click';
  }
  await s.executeScript('arguments[0].focus();', [button]);
  await s.sendKeys(button, Keys.ENTER);
  return 'keyboard';
}

const CONTROL_KEY = '\uE009';

/**
 * Opens the command palette with Ctrl+K, types `query`, and resolves to the first option for
 * which `accept(entryId, detail)` is true (`detail`: its second line, a tool's server; `what`
 * names it when none comes).
 */
export async function findInPalette(app, query, accept, what) {
  const s = app.session;
  await s.performActions([{
    type: 'key',
    id: 'keyboard',
    actions: [{ type: 'keyDown', value: CONTROL_KEY }, { type: 'keyDown', value: 'k' }, { type: 'keyUp', value: 'k' }, { type: 'keyUp', value: CONTROL_KEY }],
  }]);
  await s.releaseActions();
  await fillField(s, await app.waitForElement('[data-testid="palette-input"]', { message: 'the command palette after Ctrl+K' }), query);
  return waitFor(async () => {
    for (const option of await s.findElements('[data-testid="palette-option"]')) {
      const [detail] = await s.findElements('.palette-detail', option);
      const detailText = detail ? await s.getText(detail) : '';
      if (accept((await s.getAttribute(option, 'data-entry-id')) ?? '', detailText)) return option;
    }
    return null;
  }, { timeout: 10_000, interval: 200, message: `${what} among the palette's options for "${query}"` });
}

/** The button of a list item whose text includes `text`, in the offer list `testid` (Resources, Prompts). */
export async function offerListButton(app, testid, text) {
  return waitFor(async () => {
    for (const button of await app.session.findElements(`[data-testid="${testid}"] .offer-item`)) {
      if ((await app.session.getText(button)).includes(text)) return button;
    }
    return null;
  }, { timeout: 20_000, interval: 300, message: `"${text}" in ${testid}` });
}

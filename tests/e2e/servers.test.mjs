// Real-window e2e: add the reference MCP server "server-everything" through
// the UI form, wait until Gatehouse reports it connected, and check that its
// tools are listed. Runs the real app binary under Xvfb via tauri-driver.
//
//   node --test tests/e2e/          (or: cd tests/e2e && npm test)
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app
// (target/debug/gatehouse-app, or GATEHOUSE_APP=/path/to/binary).

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';

import { launchApp, waitFor, fatal, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { Keys } from './webdriver.mjs';

// Tools server-everything@2026.8.31 always lists (verified over stdio: 13 tools
// without client capabilities, 16 when the client declares roots/sampling/elicitation).
const EXPECTED_TOOLS = ['echo', 'get-sum', 'get-env', 'get-tiny-image'];
const MIN_TOOL_COUNT = 6;

const SERVER_NAME = 'everything';
const ROW = `[data-testid="server-row"][data-server-name="${SERVER_NAME}"]`;
const TOOL_ITEMS = '[data-testid="server-detail"] [data-testid="tool-list"] [data-testid="tool-item"]';

/** Types `value` into an input/textarea the way a user would, then checks React saw it. */
async function fillField(session, el, value) {
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

describe('MCP servers (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;

  after(async () => {
    await app?.close();
  });

  it('adds server-everything through the form and lists its tools', { timeout: 300_000 }, async (t) => {
    assert.ok(
      existsSync(SERVER_EVERYTHING_ENTRY),
      `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}: run \`npm ci\` in tests/fixtures ` +
        '(scripts/install-test-deps.sh) — the test needs a real MCP server to connect to',
    );
    // Launched inside the test (not in `before`) so a launch failure counts as a
    // test failure; launchApp saves launch-failure.png and cleans up itself.
    app = await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;

      // 1. The app is up and shows the entry point for adding a server.
      const addButton = await app.waitForElement('[data-testid="add-server-button"]', {
        timeout: 45_000,
        message: 'the "add server" button (the app UI must render after launch)',
      });
      await s.click(addButton);

      // 2. Fill the form: stdio server launched as `node <server-everything> stdio`.
      const name = await app.waitForElement('[data-testid="server-name"]', {
        message: 'the add-server form (clicking "add server" must open it)',
      });
      await fillField(s, name, SERVER_NAME);

      await s.click(await app.waitForElement('[data-testid="server-kind-stdio"]', { message: 'the stdio transport option' }));
      const command = await app.waitForElement('[data-testid="server-command"]', {
        message: 'the command field (shown for stdio servers)',
      });
      await fillField(s, command, 'node');
      const argsField = await app.waitForElement('[data-testid="server-args"]', { message: 'the arguments textarea' });
      await fillField(s, argsField, `${SERVER_EVERYTHING_ENTRY}\nstdio`);

      const enabled = await app.waitForElement('[data-testid="server-enabled"]', { message: 'the enabled toggle' });
      if (!(await isChecked(s, enabled))) await s.click(enabled);
      assert.equal(
        await isChecked(s, enabled),
        true,
        'the server must be enabled, otherwise Gatehouse will not start it and nothing can connect',
      );

      await s.click(await app.waitForElement('[data-testid="server-save"]', { message: 'the save button' }));

      // 3. The server appears in the list and reaches "connected".
      let lastStatus = '(row not shown yet)';
      await waitFor(
        async () => {
          const rows = await s.findElements(ROW);
          if (rows.length === 0) return false;
          lastStatus = await s.getAttribute(rows[0], 'data-status');
          if (lastStatus === 'failed') {
            let badge = '(no status badge)';
            try {
              const el = await s.findElement('[data-testid="server-status"]', rows[0]);
              const [text, title] = [await s.getText(el), await s.getAttribute(el, 'title')];
              badge = title && title !== text ? `${text} (${title})` : text;
            } catch {
              /* keep placeholder */
            }
            throw fatal(
              `server "${SERVER_NAME}" failed to connect — a real stdio MCP server must be launched and ` +
                `initialized by Gatehouse. Status badge: ${badge}`,
            );
          }
          return lastStatus === 'connected';
        },
        {
          timeout: 60_000,
          interval: 500,
          message: () =>
            `server row "${SERVER_NAME}" to reach data-status="connected" (last data-status: ${lastStatus}); ` +
            'a saved, enabled stdio server must be started and connected without further user action',
        },
      );

      // 4. Selecting the server shows the tools it advertised via tools/list.
      // Click the row's name (its click bubbles to the row's select handler):
      // the row's centre may fall on its action buttons, which do not select.
      const row = await s.findElement(ROW);
      const [nameButton] = await s.findElements('[data-testid="server-row-select"], .server-row-name', row);
      await s.click(nameButton ?? row);
      const toolNames = await waitFor(
        async () => {
          const items = await s.findElements(TOOL_ITEMS);
          if (items.length < MIN_TOOL_COUNT) return null;
          const names = [];
          for (const item of items) names.push(await s.getAttribute(item, 'data-tool-name'));
          return names;
        },
        {
          timeout: 30_000,
          interval: 500,
          message: `at least ${MIN_TOOL_COUNT} tool items in the server detail (${TOOL_ITEMS})`,
        },
      );
      for (const tool of EXPECTED_TOOLS) {
        assert.ok(
          toolNames.includes(tool),
          `tool "${tool}" from server-everything must be listed (the detail view must show the server's real ` +
            `tools/list result); listed: ${JSON.stringify(toolNames)}`,
        );
      }
      assert.ok(
        toolNames.length >= MIN_TOOL_COUNT,
        `server-everything advertises 13+ tools; the list must not be truncated (got ${toolNames.length})`,
      );

      // 5. The detail view says which era the connection speaks (server-everything is a
      // handshake-era server) and has its Tasks section (empty: nothing ran as a task).
      const era = await app.waitForElement('[data-testid="server-detail"] [data-testid="server-era"]', {
        message: 'the era of the connection in the server detail',
      });
      assert.equal(await s.getText(era), 'legacy handshake', 'server-everything is spoken to in the legacy era');
      await app.waitForElement('[data-testid="server-detail"] [data-testid="tasks-empty"]', {
        message: 'the empty Tasks section of the server detail',
      });

      // 6. Evidence of the connected state for humans.
      const shot = await app.screenshot('servers-connected');
      assert.ok(
        statSync(shot).size > 1_000,
        `screenshot ${shot} must be a real image: it is the visual evidence that the window rendered`,
      );
    });
  });
});

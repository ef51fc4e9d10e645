// Real-window e2e: add the reference MCP server "server-everything" through
// the UI form, wait until Gatehouse reports it connected, and check that its
// tools are listed; then add two servers that offer no tools (a prompts-only and
// a resources-only server on the TypeScript SDK v2) and check that they connect
// and that the app says what they offer; then call server-everything's tools from
// their generated forms, cancelling a long one; then stop it from its detail (its
// process is gone), start it again, and read what it wrote to stderr in the Logs tab.
// Runs the real app binary under Xvfb via tauri-driver.
//
//   node --test tests/e2e/          (or: cd tests/e2e && npm test)
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app
// (target/debug/gatehouse-app, or GATEHOUSE_APP=/path/to/binary).

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';

import { launchApp, waitFor, SERVER_EVERYTHING_ENTRY, PARTIAL_SERVER_ENTRY, TS_SDK_V2_PACKAGE } from './harness.mjs';
import { pidsRunning } from './processes.mjs';
import { addStdioServer, fillField, openCallForm, rowOf, selectServer, TOOL_ITEMS, waitForConnected } from './servers-page.mjs';

// Tools server-everything@2026.8.31 always lists (verified over stdio: 13 tools
// without client capabilities, 16 when the client declares roots/sampling/elicitation).
const EXPECTED_TOOLS = ['echo', 'get-sum', 'get-env', 'get-tiny-image'];
const MIN_TOOL_COUNT = 6;

const SERVER_NAME = 'everything';
const DETAIL = '[data-testid="server-detail"]';

/** Adds server-everything unless an earlier test did, waits until it is connected, and selects it. */
async function showEverything(app) {
  if ((await app.session.findElements(rowOf(SERVER_NAME))).length === 0) {
    await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
  }
  await waitForConnected(app, SERVER_NAME);
  await selectServer(app, SERVER_NAME);
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

      // 1. Add it through the form: a stdio server launched as `node <server-everything> stdio`.
      await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);

      // 2. The server appears in the list and reaches "connected".
      await waitForConnected(app, SERVER_NAME);

      // 3. Selecting the server shows the tools it advertised via tools/list.
      await selectServer(app, SERVER_NAME);
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

      // 4. The detail view says which era the connection speaks (server-everything is a
      // handshake-era server) and has its Tasks section (empty: nothing ran as a task).
      const era = await app.waitForElement(`${DETAIL} [data-testid="server-era"]`, {
        message: 'the era of the connection in the server detail',
      });
      assert.equal(await s.getText(era), 'legacy handshake', 'server-everything is spoken to in the legacy era');
      await app.waitForElement(`${DETAIL} [data-testid="tasks-empty"]`, {
        message: 'the empty Tasks section of the server detail',
      });

      // 5. Evidence of the connected state for humans.
      const shot = await app.screenshot('servers-connected');
      assert.ok(
        statSync(shot).size > 1_000,
        `screenshot ${shot} must be a real image: it is the visual evidence that the window rendered`,
      );
    });
  });

  it('connects a prompts-only and a resources-only server', { timeout: 300_000 }, async (t) => {
    assert.ok(
      existsSync(TS_SDK_V2_PACKAGE),
      `the TypeScript SDK v2 is missing at ${TS_SDK_V2_PACKAGE}: run \`npm ci\` in tests/fixtures ` +
        '(scripts/install-test-deps.sh) — the servers without tools run on it',
    );
    // The window of the test before is reused; it is launched here if that test could not.
    app ??= await launchApp();
    const servers = [
      ['notes-prompts', 'prompts'],
      ['notes-resources', 'resources'],
    ];

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;

      // 1. Both are added through the form: `node partial.mjs prompts|resources`.
      for (const [name, feature] of servers) {
        await addStdioServer(app, name, 'node', [PARTIAL_SERVER_ENTRY, feature]);
      }

      for (const [name, feature] of servers) {
        // 2. Each reaches "connected", and its badge names what it offers instead of 0 tools.
        const badge = await waitForConnected(app, name);
        assert.equal(
          badge,
          `Connected · ${feature}`,
          `a server that offers ${feature} but no tools must stay connected and say what it offers`,
        );

        // 3. Its detail view says it offers no tools, and what it offers.
        await selectServer(app, name);
        const sentence = await waitFor(
          async () => {
            const [el] = await s.findElements(`${DETAIL} [data-testid="no-tools"]`);
            return el ? s.getText(el) : null;
          },
          { timeout: 10_000, interval: 250, message: `the "no tools" sentence in the detail view of "${name}"` },
        );
        assert.equal(
          sentence,
          `This server offers no tools. It offers ${feature}.`,
          'the detail view must tell the person why there is no tool list, and what the server is for',
        );
        assert.equal(
          (await s.findElements(TOOL_ITEMS)).length,
          0,
          'a server without the tools capability has no tool list to show',
        );
      }

      // 4. Evidence for humans: the list with both badges and the last server's detail.
      const shot = await app.screenshot('servers-without-tools');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
    });
  });

  it('calls a tool from the generated form and cancels a long one', { timeout: 300_000 }, async (t) => {
    app ??= await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await showEverything(app);

      // 1. echo: open its Call form, type a message, submit, and read the server's answer.
      const echoPanel = await openCallForm(app, 'echo');
      const message = 'hello from the window';
      const [messageField] = await s.findElements(`${echoPanel} input`);
      assert.ok(messageField, "echo's form must have a field for its `message` argument (from its input schema)");
      await fillField(s, messageField, message);
      await s.click(await s.findElement(`${echoPanel} [data-testid="tool-call-submit"]`));
      const echoed = await waitFor(
        async () => {
          const [text] = await s.findElements(`${echoPanel} [data-testid="call-text"]`);
          return text ? s.getText(text) : null;
        },
        { timeout: 20_000, interval: 250, message: "echo's result in its Call form" },
      );
      assert.ok(echoed.includes(message), `the result must be the server's echo of what was typed; got ${echoed}`);
      const echoShot = await app.screenshot('tool-call-echo');
      assert.ok(statSync(echoShot).size > 1_000, `screenshot ${echoShot} must be a real image`);

      // 2. A long operation: progress appears while it runs, Cancel stops it, and the UI says so.
      const longPanel = await openCallForm(app, 'trigger-long-running-operation');
      await fillField(s, await s.findElement(`${longPanel} input[id$="duration"]`), '60');
      await fillField(s, await s.findElement(`${longPanel} input[id$="steps"]`), '60');
      await s.click(await s.findElement(`${longPanel} [data-testid="tool-call-submit"]`));
      const progress = await waitFor(
        async () => {
          const [text] = await s.findElements(`${longPanel} [data-testid="call-progress-text"]`);
          const shown = text ? await s.getText(text) : '';
          return / of 60/.test(shown) ? shown : null;
        },
        { timeout: 20_000, interval: 250, message: 'progress of the long operation (n of 60)' },
      );
      assert.match(progress, /^\d+ of 60/, 'the progress bar counts the steps the server reports');
      await s.click(await s.findElement(`${longPanel} [data-testid="tool-call-cancel"]`));
      const cancelled = await app.waitForElement(`${longPanel} [data-testid="call-cancelled"]`, {
        timeout: 15_000,
        message: 'the cancelled call saying so',
      });
      assert.equal(await s.getText(cancelled), 'The call was cancelled.');
      assert.equal(
        (await s.findElements(`${longPanel} [data-testid="call-progress"]`)).length,
        0,
        'a cancelled call no longer shows progress',
      );

      // 3. Evidence for humans: the cancelled call (the echo result is in tool-call-echo.png).
      await s.executeScript('arguments[0].scrollIntoView({block: "center"})', [cancelled]);
      const shot = await app.screenshot('tool-call');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
    });
  });

  it('stops and starts a server from its detail, and shows its logs', { timeout: 300_000 }, async (t) => {
    app ??= await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await showEverything(app);
      const running = () => pidsRunning(app.marker, SERVER_EVERYTHING_ENTRY);
      assert.ok(running().length > 0, 'the connected server runs as a process of the app');

      // 1. Stop: the row says so, and the server's process is gone within the stop waits.
      await s.click(await app.waitForElement(`${DETAIL} [data-testid="stop-button"]`, { message: 'the Stop button' }));
      await waitFor(
        async () => (await s.getAttribute(await s.findElement(rowOf(SERVER_NAME)), 'data-status')) === 'stopped',
        { timeout: 10_000, interval: 250, message: 'the row to show the server stopped' },
      );
      await waitFor(async () => running().length === 0, {
        timeout: 7_000,
        interval: 200,
        message: () => `the stopped server's process to end (still running: ${running().join(', ')})`,
      });
      const explanation = await s.getText(await s.findElement(`${DETAIL} [data-testid="connection-explanation"]`));
      assert.match(explanation, /stopped/, `the detail says the server was stopped: ${explanation}`);
      const stoppedShot = await app.screenshot('server-stopped');
      assert.ok(statSync(stoppedShot).size > 1_000, `screenshot ${stoppedShot} must be a real image`);

      // 2. Start: connected again, with a new process.
      await s.click(await s.findElement(`${DETAIL} [data-testid="start-button"]`));
      await waitForConnected(app, SERVER_NAME);
      assert.ok(running().length > 0, 'the started server runs again');

      // 3. Logs: what server-everything writes to stderr when it starts, once per start.
      await s.click(await s.findElement(`${DETAIL} [data-testid="tab-logs"]`));
      const lines = await waitFor(
        async () => {
          const found = [];
          for (const el of await s.findElements(`${DETAIL} [data-testid="log-line"]`)) {
            found.push(await s.getText(el));
          }
          return found.filter((l) => l.includes('Starting default (STDIO) server')).length >= 2 ? found : null;
        },
        { timeout: 20_000, interval: 500, message: "server-everything's start-up line (from both starts) in the Logs tab" },
      );
      assert.ok(lines.length >= 2, `the Logs tab shows the stderr lines: ${lines.join(' | ')}`);
      const logsShot = await app.screenshot('server-logs');
      assert.ok(statSync(logsShot).size > 1_000, `screenshot ${logsShot} must be a real image`);
    });
  });
});

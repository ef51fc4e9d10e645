// Real-window e2e of the gateway: with the app running (the engine with a window), an agent (the
// official TypeScript SDK's v1 client) starts `gatehouse mcp --client claude-code` as its MCP
// server and calls a tool. With no rule, a gateway request is asked: the app's approval dialog
// shows the call and names the client; "Allow once" lets it run and the agent gets the result.
// Its second call is denied in the dialog: the agent's result has `isError` and a text saying
// what was denied and that the person can allow it. Then, on the Clients page, the person adds
// the agent as a client (its earlier requests are listed), hides one tool from it and hands the
// setting back to the default (checked with `gatehouse clients show`), and turns the HTTP
// endpoint on at a port of their choosing (the app then answers there). Screenshots of both
// dialogs and of the Clients page go to artifacts/. Runs the real app binary under Xvfb via tauri-driver (see README.md); the CLI
// binary is the one built beside the app.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { cliJson, cliPath } from './cli.mjs';
import { launchApp, waitFor, FIXTURES_DIR, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import {
  APPROVAL_DIALOG,
  addStdioServer,
  clickInView,
  fillField,
  openPage,
  pressApprovalButton,
  waitForApproval,
  waitForApprovalClosed,
  waitForConnected,
} from './servers-page.mjs';

const SERVER_NAME = 'everything';
const CLIENT = 'claude-code';

describe('An agent through the gateway, asked in the real window', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let agent;

  after(async () => {
    if (agent && agent.exitCode === null) agent.kill('SIGKILL');
    await app?.close();
  });

  it("asks about an agent's calls naming the client; allowed, it gets the result; denied, isError", { timeout: 300_000 }, async (t) => {
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    app = await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      await waitForConnected(app, SERVER_NAME);

      const cli = cliPath(app);
      const clients = join(FIXTURES_DIR, 'clients');
      agent = spawn(
        'node',
        [
          'ts_sdk_v1_client.mjs',
          '--call', `${SERVER_NAME}__echo=${JSON.stringify({ message: 'allowed in the window' })}`,
          '--call', `${SERVER_NAME}__echo=${JSON.stringify({ message: 'denied in the window' })}`,
          '--', cli, '--data-dir', app.dataDir, 'mcp', '--client', CLIENT,
        ],
        { cwd: clients, env: app.env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const output = { stdout: '', stderr: '' };
      agent.stdout.on('data', (chunk) => (output.stdout += chunk));
      agent.stderr.on('data', (chunk) => (output.stderr += chunk));
      const ended = new Promise((resolve) => agent.on('close', (code, signal) => resolve({ code, signal })));

      let question = await waitForApproval(app, 'toolCall', { timeout: 60_000 });
      assert.equal(
        await s.getText(await s.findElement(`${question} [data-testid="approval-tool"]`)),
        'echo',
        'the dialog names the tool',
      );
      assert.match(
        await s.getText(await s.findElement(`${APPROVAL_DIALOG} [data-testid="approval-through"]`)),
        new RegExp(CLIENT),
        'the dialog names the client the call came through',
      );
      const allowShot = await app.screenshot('approval-gateway-call');
      assert.ok(statSync(allowShot).size > 1_000, `screenshot ${allowShot} must be a real image`);
      const first = await s.getAttribute(await s.findElement(`${APPROVAL_DIALOG} .approval`), 'data-approval-id');
      await pressApprovalButton(app, question, 'allow-once', 'the Allow once button');

      // The agent's second call comes once the first has its result: the dialog then asks anew.
      await waitFor(
        async () => {
          const [inner] = await s.findElements(`${APPROVAL_DIALOG} .approval`);
          if (!inner) return false;
          const id = await s.getAttribute(inner, 'data-approval-id');
          return id !== first && (await s.getAttribute(inner, 'data-armed')) === 'true';
        },
        { timeout: 30_000, interval: 250, message: "the dialog asking about the agent's second call" },
      );
      assert.match(
        await s.getText(await s.findElement(`${APPROVAL_DIALOG} .approval`)),
        /denied in the window/,
        'the second question is about the second call',
      );
      const denyShot = await app.screenshot('approval-gateway-deny');
      assert.ok(statSync(denyShot).size > 1_000, `screenshot ${denyShot} must be a real image`);
      await pressApprovalButton(app, question, 'deny', 'the Deny button');
      await waitForApprovalClosed(app);

      const { code } = await waitFor(
        async () => (agent.exitCode === null && agent.signalCode === null ? null : ended),
        { timeout: 30_000, interval: 100, message: 'the agent to finish once both calls were answered' },
      );
      assert.equal(code, 0, `the agent exits 0: ${output.stderr}`);
      const calls = output.stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
        .filter((line) => line.step === 'call')
        .map((line) => line.value.result);
      assert.equal(calls.length, 2, `two results: ${output.stdout}`);
      assert.equal(calls[0].isError, false, `the allowed call ran: ${JSON.stringify(calls[0])}`);
      assert.match(calls[0].content[0].text, /allowed in the window/);
      assert.equal(calls[1].isError, true, `the denied call is an error result: ${JSON.stringify(calls[1])}`);
      assert.match(calls[1].content[0].text, /Gatehouse denied `everything__echo`/);
      assert.match(calls[1].content[0].text, /allow it in Gatehouse/);
    });
  });

  it('the Clients page: the agent added, a tool hidden and handed back, the HTTP endpoint on', { timeout: 120_000 }, async (t) => {
    assert.ok(app, 'the app the first step launched');
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await openPage(app, 'clients');
      await fillField(s, await app.waitForElement('[data-testid="client-name-input"]', { message: 'the new client name field' }), CLIENT);
      await clickInView(s, await s.findElement('[data-testid="add-client"]'));
      await app.waitForElement(`[data-testid="client-row"][data-client-name="${CLIENT}"]`, { message: 'the added client in the list' });
      // Added, it is chosen; its requests through the gateway before it was added are its own.
      await waitFor(
        async () => {
          const rows = await s.findElements('[data-testid="client-recent-row"]');
          for (const row of rows) if (/echo/.test(await s.getText(row))) return true;
          return false;
        },
        { timeout: 15_000, interval: 250, message: "the agent's echo calls among the client's recent requests" },
      );

      const echo = `[data-testid="client-server"][data-server-name="${SERVER_NAME}"] [data-testid="client-tool"][data-tool-name="echo"]`;
      const toggle = await app.waitForElement(`${echo} [data-testid="client-tool-toggle"]`, { message: 'the switch of the echo tool' });
      await clickInView(s, toggle);
      await waitFor(
        async () => (await s.getAttribute(await s.findElement(`${echo} [data-testid="client-tool-toggle"]`), 'data-own')) === 'true',
        { timeout: 10_000, interval: 200, message: 'the echo switch set by the client itself' },
      );
      let shown = await cliJson(app, ['clients', 'show', CLIENT]);
      assert.equal(shown.profile.effective.tools?.[SERVER_NAME]?.echo, false, `hidden from the client: ${JSON.stringify(shown.profile)}`);

      await clickInView(s, await app.waitForElement(`${echo} [data-testid="client-tool-toggle-reset"]`, { message: 'Use default beside the echo switch' }));
      await waitFor(
        async () => (await s.getAttribute(await s.findElement(`${echo} [data-testid="client-tool-toggle"]`), 'data-own')) === 'false',
        { timeout: 10_000, interval: 200, message: 'the echo switch following the default again' },
      );
      shown = await cliJson(app, ['clients', 'show', CLIENT]);
      assert.deepEqual(shown.profile.own, {}, `handed back to the default: ${JSON.stringify(shown.profile)}`);

      // The HTTP endpoint, on a port the person chose.
      const port = await freePort();
      await fillField(s, await app.waitForElement('[data-testid="gateway-http-port"]', { message: 'the HTTP port field' }), String(port));
      await clickInView(s, await s.findElement('[data-testid="gateway-http"] .gateway-http-port button'));
      await waitFor(
        async () => (await cliJson(app, ['gateway', 'http', 'status'])).port === port,
        { timeout: 10_000, interval: 250, message: `the port ${port} saved` },
      );
      await clickInView(s, await s.findElement('[data-testid="gateway-http-toggle"]'));
      await waitFor(
        async () => (await s.getText(await s.findElement('[data-testid="gateway-http-state"]'))).includes(`Serving http://127.0.0.1:${port}/mcp`),
        { timeout: 15_000, interval: 250, message: 'the window saying the app serves HTTP' },
      );
      const refused = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      assert.equal(refused.status, 401, 'the app answers on the port, and wants a token');
      const shot = await app.screenshot('clients-page');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
    });
  });
});

/** A loopback port free now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

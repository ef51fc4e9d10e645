// Real-window e2e of the engine's control socket: with the app running (the engine with a
// window), `gatehouse call` attaches to it instead of starting its own copy of the server. A
// tool under an ask rule (set with `gatehouse policy set`, which the running engine applies)
// waits; the app's approval dialog shows the call and names the face it came through (the
// CLI); "Allow once" in the window lets it run, and the CLI prints the result and exits 0.
// A screenshot of the dialog goes to artifacts/. Runs the real app binary under Xvfb via
// tauri-driver (see README.md); the CLI binary is the one built beside the app.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';

import { runCli } from './cli.mjs';
import { launchApp, waitFor, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import {
  APPROVAL_DIALOG,
  addStdioServer,
  pressApprovalButton,
  waitForApproval,
  waitForApprovalClosed,
  waitForConnected,
} from './servers-page.mjs';

const SERVER_NAME = 'everything';
const MESSAGE = 'asked from the terminal';

describe('The CLI attached to the app (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let call;

  after(async () => {
    if (call && call.exitCode === null) call.kill('SIGKILL');
    await app?.close();
  });

  it("asks in the app's dialog about a CLI call, naming the CLI, and the CLI prints the result once allowed", { timeout: 300_000 }, async (t) => {
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    app = await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      await waitForConnected(app, SERVER_NAME);

      const rule = runCli(app, ['policy', 'set', SERVER_NAME, '--tool', 'echo', 'ask']);
      const ruled = await rule.ended;
      assert.equal(ruled.code, 0, `gatehouse policy set: ${ruled.stderr}`);

      const status = await runCli(app, ['status', '--json']).ended;
      assert.equal(status.code, 0, `gatehouse status: ${status.stderr}`);
      const engine = JSON.parse(status.stdout);
      assert.equal(engine.running, true, `the app is the running engine: ${status.stdout}`);
      assert.equal(engine.kind, 'app', `the engine is the app: ${status.stdout}`);

      const running = runCli(app, ['call', SERVER_NAME, 'echo', '--args', JSON.stringify({ message: MESSAGE })]);
      call = running.child;
      const question = await waitForApproval(app, 'toolCall');
      assert.equal(
        await s.getText(await s.findElement(`${question} [data-testid="approval-tool"]`)),
        'echo',
        'the dialog names the tool',
      );
      assert.match(
        await s.getText(await s.findElement(`${APPROVAL_DIALOG} [data-testid="approval-through"]`)),
        /the gatehouse CLI/,
        'the dialog names the face the call came through',
      );
      assert.equal(call.exitCode, null, 'the CLI waits for the answer');
      const shot = await app.screenshot('approval-cli-call');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);

      await pressApprovalButton(app, question, 'allow-once', 'the Allow once button');
      await waitForApprovalClosed(app);
      const done = await waitFor(
        async () => (running.child.exitCode === null && running.child.signalCode === null ? null : running.ended),
        { timeout: 20_000, interval: 100, message: 'the CLI to exit once the call was allowed' },
      );
      assert.equal(done.code, 0, `gatehouse call exits 0: ${done.stderr}`);
      assert.match(done.stdout, new RegExp(MESSAGE), 'the CLI prints the result');
    });
  });
});

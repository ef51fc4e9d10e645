// Real-window e2e: what an MCP App view cannot do to the window, with the hostile fixture
// (tests/fixtures/python/hostile_app.py, its page hostile_app.html), shown below its tool's
// result:
//
// - Keys typed into the view while it fires a destructive call answer nothing. The person
//   clicks the view's text field and types; on the first key the view calls its destructive
//   tool `wipe`, the window asks the person, and the typing goes on (the letters a, s, t and w
//   among the keys, which single-key answers of the approval dialog have used). The keys go
//   where a person's would, to the view's own webview that has the keyboard; the dialog is
//   never answered by them: no allow on the audit log, no grant, no rule, `wipe` never ran,
//   and the question stays until the person denies it.
// - The window's commands refuse the view whatever invoke key it has. The view posts
//   `add_server`, `answer_approval` (allow always, for its own waiting question) and
//   `policy_add_rule` (allow everything) to WebKit's IPC handler with the real key, read from
//   the main webview and handed to the view by the test, and with a wrong one: nothing is added,
//   answered or ruled, and the key appears nowhere in what the app wrote to stdout or stderr
//   (a wrong key makes Tauri print the right one; the app's stderr filter withholds it).
//
// Runs the real app binary under Xvfb via tauri-driver (see README.md).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, waitFor, FIXTURES_DIR } from './harness.mjs';
import { APPROVAL_DIALOG, addStdioServer, openPage, pressApprovalButton, selectServer, waitForApproval, waitForApprovalClosed, waitForConnected } from './servers-page.mjs';
import { callUiTool, insideApp, setServerDefault, showWholeView, waitForAppReady, waitInApp } from './apps-panel.mjs';
import { appOutput, invoke, invokeKey, outputLines, waitForOutput, WRONG_KEY_NOTICE } from './ipc.mjs';

const PYTHON = join(FIXTURES_DIR, 'python', '.venv', 'bin', 'python');
const HOSTILE = join(FIXTURES_DIR, 'python', 'hostile_app.py');
const URI = 'ui://hostile/app';

/** Keys typed into the view, the letters a, s, t and w among them, upper and lower case. */
const TYPED = ['as', 'tw', ' wasta ', 'ASTW', 'swat', 'w', 'a', 's', 't'];

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** Every audit row of `tool` with `decision` (all decisions when null). */
function auditRows(session, tool, decision = null) {
  return invoke(session, 'audit_list', {
    filter: { since: null, until: null, server: null, tool, source: null, decision, outcome: null, limit: 1000, offset: null },
  });
}

describe('An MCP App view cannot reach the window (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  let scratch;
  let report;
  let approvalId;

  before(
    async () => {
      assert.ok(existsSync(PYTHON), `the Python fixtures' venv is missing at ${PYTHON}`);
      scratch = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-isolation-'));
      report = join(scratch, 'hostile-report.json');
      app = await launchApp({ env: { HOSTILE_REPORT_FILE: report } });
      await addStdioServer(app, 'hostile', PYTHON, [HOSTILE]);
      await waitForConnected(app, 'hostile');
      // The app's own calls (report) run without asking; a destructive tool still asks.
      await setServerDefault(app, 'hostile', 'allow');
      await openPage(app, 'servers');
      await selectServer(app, 'hostile');
      await callUiTool(app, 'hostile');
      await waitForAppReady(app, URI);
      await waitFor(() => readJson(report)?.done === true, {
        timeout: 180_000,
        interval: 500,
        message: () => `the hostile app to finish its escape attempts (${report}: ${JSON.stringify(readJson(report))})`,
      });
    },
    { timeout: 400_000 },
  );

  after(async () => {
    await app?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('keys typed into a view that fires a destructive call allow nothing', { timeout: 180_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const rulesBefore = await invoke(s, 'policy_rules');
      // The person clicks into the view's field and starts typing; the first key fires `wipe`.
      await showWholeView(app, URI);
      await insideApp(app, URI, async () => {
        const field = await s.findElement('#hostile-field');
        await s.executeScript(`arguments[0].scrollIntoView({ block: 'center' });`, [field]);
        await s.click(field);
        assert.equal(await s.executeScript(`return document.activeElement?.id;`), 'hostile-field', 'the click put the focus in the field');
        await s.typeKeys(TYPED[0]);
        await waitInApp(app, `return document.getElementById('hostile-wipe')?.dataset.state === 'fired';`, {
          message: 'the view to fire its destructive call on the first key',
        });
      });
      await waitForApproval(app, 'toolCall', { timeout: 30_000 });
      const [pending] = await invoke(s, 'list_approvals');
      assert.equal(pending?.question?.tool, 'wipe', `the window asks about wipe: ${JSON.stringify(pending)}`);
      approvalId = pending.id;

      // The dialog is up; the person goes on typing, as a person does who did not look up.
      const typed = await insideApp(app, URI, async () => {
        for (const keys of TYPED.slice(1)) await s.typeKeys(keys);
        return s.executeScript(`return document.getElementById('hostile-field').value;`);
      });
      assert.equal(typed, TYPED.join(''), 'every key went to the view, none to the window');

      // Nothing was allowed, and the question is still waiting for the person.
      assert.deepEqual(await auditRows(s, 'wipe', 'allow'), [], 'no allow decision for wipe on the audit log');
      assert.ok((await auditRows(s, 'wipe', 'ask')).length > 0, 'the window asked about wipe (the ask is on the audit log)');
      assert.deepEqual(await invoke(s, 'list_grants'), [], 'no grant was made');
      assert.deepEqual(await invoke(s, 'policy_rules'), rulesBefore, 'no rule was made');
      const still = await invoke(s, 'list_approvals');
      assert.deepEqual(still.map((p) => p.id), [approvalId], 'the question still waits for the person');
      assert.equal(readJson(report)?.wipe_calls, 0, 'wipe never ran');
      assert.equal((await s.findElements(APPROVAL_DIALOG)).length, 1, 'the dialog is still open');
    });
  });

  it('refuses the window\'s commands to the view, with a wrong key and with the real one, and the key is in no output', { timeout: 180_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      assert.ok(approvalId, 'the test before left a question waiting');
      const s = app.session;
      const rulesBefore = await invoke(s, 'policy_rules');
      const serversBefore = (await invoke(s, 'list_servers')).map((v) => v.config.name);
      const key = await invokeKey(s);
      const noticesBefore = outputLines(app, WRONG_KEY_NOTICE);

      // The real key first, then a wrong one: Tauri takes one webview's IPC messages in order, so
      // once it has said it refused the wrong-key ones, it has decided on the real-key ones.
      const tried = await insideApp(app, URI, async () => ({
        real: await s.executeAsyncScript(
          `const done = arguments[arguments.length - 1];
           window.hostileIpc(arguments[0], arguments[1]).then(done, (e) => done(['failed: ' + e]));`,
          [key, approvalId],
        ),
        wrong: await s.executeAsyncScript(
          `const done = arguments[arguments.length - 1];
           window.hostileIpc(arguments[0], arguments[1]).then(done, (e) => done(['failed: ' + e]));`,
          ['0123456789abcdefghij', approvalId],
        ),
      }));
      t.diagnostic(`the view tried: ${JSON.stringify(tried, null, 1)}`);
      for (const attempt of [...tried.real, ...tried.wrong]) {
        assert.doesNotMatch(attempt, /answered/, `an ipc:// request reached the IPC: ${attempt}`);
      }
      assert.equal(tried.real.filter((a) => /over the IPC handler: posted/.test(a)).length, 3, 'the view reached the IPC handler');
      await waitForOutput(app, WRONG_KEY_NOTICE, {
        count: noticesBefore + 3,
        message: "the app saying it refused the view's three wrong-key messages",
      });

      // Nothing ran: no server, the question still waits, no rule, no grant.
      const servers = (await invoke(s, 'list_servers')).map((v) => v.config.name);
      assert.deepEqual(servers, serversBefore, 'no server was added');
      assert.deepEqual((await invoke(s, 'list_approvals')).map((p) => p.id), [approvalId], 'the question was not answered');
      assert.deepEqual(await invoke(s, 'policy_rules'), rulesBefore, 'no rule was added');
      assert.deepEqual(await invoke(s, 'list_grants'), [], 'no grant was made');
      assert.deepEqual(await auditRows(s, 'wipe', 'allow'), [], 'no allow decision for wipe on the audit log');

      // The key is in nothing the app wrote; the refusals are (without it).
      const output = appOutput(app);
      assert.ok(!output.includes(key), 'the invoke key appears in the app\'s stdout or stderr');
      assert.doesNotMatch(output, /__TAURI_INVOKE_KEY__ expected/, "Tauri's wrong-key message reached the output");

      // The person denies the question; wipe never ran.
      const question = await waitForApproval(app, 'toolCall');
      await pressApprovalButton(app, question, 'deny', 'the Deny button of the approval dialog');
      await waitForApprovalClosed(app);
      assert.ok((await auditRows(s, 'wipe', 'deny')).length > 0, 'the denial is on the audit log');
      assert.deepEqual(await auditRows(s, 'wipe', 'allow'), [], 'still no allow decision for wipe');
      await insideApp(app, URI, () =>
        waitInApp(app, `return document.getElementById('hostile-wipe')?.dataset.state === 'answered';`, {
          message: 'the view to hear that wipe was refused',
        }),
      );
      assert.equal(readJson(report)?.wipe_calls, 0, 'wipe never ran');
    });
  });
});

// Real-window e2e of the oversight pages: call server-everything's `echo` from its Call form,
// find the call's rows on the Audit page, open one's redacted detail, verify the hash chain
// ("intact"), then add a rule on the Policies page; then an ask rule for echo makes the next call
// wait for the approval dialog, and "Allow once" runs it. Screenshots of both pages and of the
// dialog go to artifacts/.
// Runs the real app binary under Xvfb via tauri-driver (see README.md).

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';

import { launchApp, waitFor, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { Keys } from './webdriver.mjs';
import {
  APPROVAL_DIALOG,
  addStdioServer,
  fillField,
  openCallForm,
  openPage,
  pressApprovalButton,
  selectServer,
  submitCall,
  waitForApproval,
  waitForApprovalClosed,
  waitForCallText,
  waitForConnected,
} from './servers-page.mjs';

const SERVER_NAME = 'everything';
const MESSAGE = 'audited from the window';
const ASKED = 'asked about first';

/** Adds a rule for server-everything's `tool` with `decision` through the Policies page's form. */
async function addRule(app, tool, decision) {
  const s = app.session;
  await s.click(await app.waitForElement('[data-testid="add-rule"]', { message: 'the Add rule button' }));
  const serverSelect = await app.waitForElement('[data-testid="rule-server"]', { message: 'the rule form' });
  await s.executeScript(
    `const [select, name] = arguments;
     const option = [...select.options].find((o) => o.textContent === name);
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, option.value);
     select.dispatchEvent(new Event('change', { bubbles: true }));`,
    [serverSelect, SERVER_NAME],
  );
  await fillField(s, await s.findElement('[data-testid="rule-tool"]'), tool);
  await s.click(await s.findElement(`[data-testid="rule-decision-${decision}"]`));
  await s.click(await s.findElement('[data-testid="rule-save"]'));
}

describe('Audit and Policies pages (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;

  after(async () => {
    await app?.close();
  });

  it('shows a call on the Audit page and verifies the chain intact', { timeout: 300_000 }, async (t) => {
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    app = await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;

      // 1. A call the person makes: echo from its generated form.
      await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      await waitForConnected(app, SERVER_NAME);
      await selectServer(app, SERVER_NAME);
      const panel = await openCallForm(app, 'echo');
      const [field] = await s.findElements(`${panel} input`);
      assert.ok(field, "echo's form must have a field for its `message` argument");
      await fillField(s, field, MESSAGE);
      await s.click(await s.findElement(`${panel} [data-testid="tool-call-submit"]`));
      await waitFor(
        async () => {
          const [text] = await s.findElements(`${panel} [data-testid="call-text"]`);
          return text ? (await s.getText(text)).includes(MESSAGE) : false;
        },
        { timeout: 20_000, interval: 250, message: "echo's result in its Call form" },
      );

      // 2. The Audit page lists the call's rows, newest first: the request, the decision, and
      //    the finished call, which says ok.
      await openPage(app, 'audit');
      const echoRows = await waitFor(
        async () => {
          const found = [];
          for (const row of await s.findElements('[data-testid="audit-row"][data-tool="echo"]')) {
            const attribute = (name) => s.getAttribute(row, name);
            found.push({
              row,
              kind: await attribute('data-kind'),
              source: await attribute('data-source'),
              decision: await attribute('data-decision'),
              outcome: await attribute('data-outcome'),
            });
          }
          return found.some((r) => r.kind === 'call_finished') ? found : null;
        },
        { timeout: 20_000, interval: 500, message: 'the rows of the echo call on the Audit page' },
      );
      const listed = JSON.stringify(echoRows.map(({ row: _row, ...fields }) => fields));
      const finished = echoRows.find((r) => r.kind === 'call_finished');
      assert.equal(finished.source, 'user', `a call made in the window is audited with the source user: ${listed}`);
      assert.equal(finished.outcome, 'ok', `the finished row says the call succeeded: ${listed}`);
      assert.ok(echoRows.some((r) => r.kind === 'request_received'), `the request is audited: ${listed}`);
      assert.ok(
        echoRows.some((r) => r.kind === 'decision' && r.decision === 'allow'),
        `the decision to allow the person's own call is audited: ${listed}`,
      );

      // 3. Its detail: the arguments as they were recorded (nothing secret in them to redact).
      const received = echoRows.find((r) => r.kind === 'request_received');
      await s.click(received.row);
      const args = await app.waitForElement('[data-testid="audit-detail"] [data-testid="audit-detail-arguments"]', {
        message: 'the arguments in the detail sheet of the request-received row',
      });
      // Read once the sheet has slid in (WebDriver's text of a fading element is empty).
      const recorded = await waitFor(
        async () => {
          const text = await s.getText(args);
          return text.trim() === '' ? null : text;
        },
        { timeout: 5_000, interval: 200, message: 'the recorded arguments shown in the detail sheet' },
      );
      assert.deepEqual(JSON.parse(recorded), { message: MESSAGE });
      const detailShot = await app.screenshot('audit-detail');
      assert.ok(statSync(detailShot).size > 1_000, `screenshot ${detailShot} must be a real image`);
      await s.sendKeys(args, Keys.ESCAPE);
      await waitFor(async () => (await s.findElements('[data-testid="audit-detail"]')).length === 0, {
        timeout: 5_000,
        interval: 200,
        message: 'the detail sheet closing on Escape',
      });

      // 4. Verify chain: intact, counting every row.
      await s.click(await app.waitForElement('[data-testid="verify-chain"]', { message: 'the Verify chain button' }));
      const result = await app.waitForElement('[data-testid="verify-result"]', {
        timeout: 20_000,
        message: 'the result of verifying the chain',
      });
      const text = await s.getText(result);
      assert.equal(await s.getAttribute(result, 'data-state'), 'intact', `the chain must verify; the page says: ${text}`);
      assert.match(text, /Chain intact \(\d+ rows\)/);
      const shot = await app.screenshot('audit-page');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
    });
  });

  it('adds a rule for echo on the Policies page', { timeout: 300_000 }, async (t) => {
    assert.ok(app, 'the window of the test before is needed (it connected server-everything)');

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await openPage(app, 'policies');
      await app.waitForElement(`[data-testid="server-policy"][data-server-name="${SERVER_NAME}"]`, {
        message: "server-everything's row among the server defaults",
      });

      await addRule(app, 'echo', 'allow');

      const row = await waitFor(
        async () => {
          const [found] = await s.findElements('[data-testid="rule-row"]');
          return found ?? null;
        },
        { timeout: 10_000, interval: 250, message: 'the new rule in the list (the engine must accept it)' },
      );
      const text = await s.getText(row);
      assert.match(text, new RegExp(`${SERVER_NAME}[\\s\\S]*echo[\\s\\S]*allow`), `the rule row: ${text}`);
      assert.equal((await s.findElements('[data-testid="stale-note"]')).length, 0, 'a rule just made is not stale');

      // The definition history shows the echo definition the rule was made for.
      await app.waitForElement('[data-testid="definition-row"]', { message: "echo's kept definition" });
      const shot = await app.screenshot('policies-page');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
    });
  });

  it('asks in the dialog before a call an ask rule covers, and runs it once allowed', { timeout: 300_000 }, async (t) => {
    assert.ok(app, 'the window of the tests before is needed (it connected server-everything)');

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      // An explicit ask rule asks even about the person's own calls (an "are you sure?").
      await openPage(app, 'policies');
      await addRule(app, 'echo', 'ask');
      await waitFor(
        async () => {
          for (const row of await s.findElements('[data-testid="rule-row"]')) {
            if (/echo[\s\S]*ask/.test(await s.getText(row))) return true;
          }
          return false;
        },
        { timeout: 10_000, interval: 250, message: 'the ask rule in the list' },
      );

      await openPage(app, 'servers');
      await selectServer(app, SERVER_NAME);
      const panel = `[data-testid="server-detail"] [data-testid="tool-list"] [data-testid="tool-item"][data-tool-name="echo"] [data-testid="tool-call-panel"]`;
      const open = await s.findElements(`${panel} [data-testid="tool-call-submit"]`);
      const form = open.length > 0 ? panel : await openCallForm(app, 'echo');
      const [field] = await s.findElements(`${form} input`);
      await fillField(s, field, ASKED);
      await submitCall(app, form);

      const question = await waitForApproval(app, 'toolCall');
      assert.equal(
        await s.getText(await s.findElement(`${question} [data-testid="approval-tool"]`)),
        'echo',
        'the dialog names the tool',
      );
      assert.equal(
        await s.getText(await s.findElement(`${APPROVAL_DIALOG} [data-testid="approval-server"]`)),
        SERVER_NAME,
        'the dialog names the server',
      );
      const shot = await app.screenshot('approval-tool-call');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);
      await pressApprovalButton(app, question, 'allow-once', 'the Allow once button');
      await waitForApprovalClosed(app);

      await waitForCallText(app, form, (text) => text.includes(ASKED), {
        message: `echo's result with "${ASKED}" once the call was allowed`,
      });
    });
  });
});

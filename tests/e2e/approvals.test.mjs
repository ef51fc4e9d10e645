// Real-window e2e of the approval dialog: server-everything (stdio) asks the window for a
// model's reply (sampling) and for a form (elicitation) while one of its tools runs; the person
// answers in the dialog over the page, and the tool's result in the Call form shows what was
// answered. Then the Audit page lists the server's requests and the chain verifies intact.
// Screenshots of the two dialogs go to artifacts/. Runs the real app binary under Xvfb via
// tauri-driver (see README.md).

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';

import { launchApp, waitFor, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
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
const PROMPT = 'name a colour for the gate';
const REPLY = 'written in the dialog';
const PERSON = 'Ada Lovelace';

const SAMPLING_METHOD = 'sampling/createMessage';
const ELICITATION_METHOD = 'elicitation/create';

/** The field of the form (a Call form or the elicitation form) for the property `name`. */
async function fieldFor(app, scope, name, what) {
  return waitFor(
    async () => {
      for (const el of await app.session.findElements(`${scope} input, ${scope} textarea`)) {
        const id = (await app.session.getAttribute(el, 'id')) ?? '';
        if (id === name || id.endsWith(`_${name}`)) return el;
      }
      return null;
    },
    { timeout: 10_000, interval: 250, message: `${what} (an input whose id ends in "_${name}")` },
  );
}

/** Opens the Call form of `tool`, or reuses it when it is still open from an earlier call. */
async function callFormOf(app, tool) {
  const panel = `[data-testid="server-detail"] [data-testid="tool-list"] [data-testid="tool-item"][data-tool-name="${tool}"] [data-testid="tool-call-panel"]`;
  const open = await app.session.findElements(`${panel} [data-testid="tool-call-submit"]`);
  return open.length > 0 ? panel : openCallForm(app, tool);
}

/** Says so in the test's output when a dialog button had to be pressed from the keyboard. */
function noteKeyboard(t, how, button) {
  if (how === 'keyboard') {
    t.diagnostic(`the dialog's ${button} button lies outside the window (the dialog does not scroll); pressed it with Enter`);
  }
}

function assertImage(file) {
  assert.ok(statSync(file).size > 1_000, `screenshot ${file} must be a real image`);
}

describe('Approval dialog (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;

  after(async () => {
    await app?.close();
  });

  it('answers a sampling request with a reply written in the dialog', { timeout: 300_000 }, async (t) => {
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    app = await launchApp();

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await addStdioServer(app, SERVER_NAME, 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      await waitForConnected(app, SERVER_NAME);
      await selectServer(app, SERVER_NAME);

      // The window declares sampling, so server-everything offers the tool that asks for it.
      const panel = await openCallForm(app, 'trigger-sampling-request');
      await fillField(s, await fieldFor(app, panel, 'prompt', "the Call form's prompt field"), PROMPT);
      await submitCall(app, panel);

      // The dialog shows the conversation the server sent, with the prompt in it.
      const question = await waitForApproval(app, 'sampling');
      const messages = await app.waitForElement(`${question} [data-testid="sampling-messages"]`, {
        message: 'the conversation of the sampling request',
      });
      const conversation = await waitFor(
        async () => {
          const text = await s.getText(messages);
          return text.includes(PROMPT) ? text : null;
        },
        { timeout: 5_000, interval: 200, message: `the prompt "${PROMPT}" in the dialog's conversation` },
      );
      assert.match(conversation, /user/i, `the prompt is the user's message: ${conversation}`);
      assert.equal(
        await s.getText(await s.findElement(`${APPROVAL_DIALOG} [data-testid="approval-server"]`)),
        SERVER_NAME,
        'the dialog names the server that asks',
      );

      const reply = await app.waitForElement(`${question} [data-testid="sampling-reply"]`, { message: 'the reply textarea' });
      await fillField(s, reply, REPLY);
      assertImage(await app.screenshot('approval-sampling'));

      noteKeyboard(t, await pressApprovalButton(app, question, 'sampling-send', 'the Send reply button'), 'Send reply');
      await waitForApprovalClosed(app);

      // The server got the reply as the model's message and returns it as the tool's result.
      const result = await waitForCallText(app, panel, (text) => text.includes(REPLY), {
        message: `the sampling tool's result with the reply "${REPLY}"`,
      });
      assert.match(result, /LLM sampling result/, `the result is the server's report of the sampling: ${result}`);
      assert.match(result, /"role":\s*"assistant"/, `the reply reached the server as the assistant's message: ${result}`);
    });
  });

  it('fills in and sends an elicitation form', { timeout: 120_000 }, async (t) => {
    assert.ok(app, 'the window of the test before is needed (it connected server-everything)');

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const panel = await callFormOf(app, 'trigger-elicitation-request');
      await submitCall(app, panel);

      const question = await waitForApproval(app, 'elicitation');
      const name = await fieldFor(app, question, 'name', 'the name field of the elicitation form');
      const label = await s.executeScript(
        'const el = arguments[0]; return el.labels && el.labels[0] ? el.labels[0].textContent : "";',
        [name],
      );
      assert.match(label, /^String\b/, `the name field is labelled with its title "String": ${JSON.stringify(label)}`);
      // A default from the requested schema is filled in.
      const firstLine = await fieldFor(app, question, 'firstLine', 'the firstLine field (it has a default)');
      assert.equal(await s.getProperty(firstLine, 'value'), 'It was a dark and stormy night.');

      await fillField(s, name, PERSON);
      assertImage(await app.screenshot('approval-elicitation'));

      noteKeyboard(t, await pressApprovalButton(app, question, 'elicitation-accept', 'the Send button of the form'), 'Send');
      await waitForApprovalClosed(app);

      const result = await waitForCallText(app, panel, (text) => text.includes(PERSON), {
        message: `the elicitation tool's result with the name "${PERSON}"`,
      });
      assert.match(result, /"action":\s*"accept"/, `the server saw the form accepted: ${result}`);
    });
  });

  it('declines an elicitation form', { timeout: 120_000 }, async (t) => {
    assert.ok(app, 'the window of the test before is needed (it connected server-everything)');

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const panel = await callFormOf(app, 'trigger-elicitation-request');
      await submitCall(app, panel);

      const question = await waitForApproval(app, 'elicitation');
      noteKeyboard(t, await pressApprovalButton(app, question, 'deny', 'the Decline button of the form'), 'Decline');
      await waitForApprovalClosed(app);

      const result = await waitForCallText(app, panel, (text) => /declin/i.test(text), {
        message: "the elicitation tool's result saying the person declined",
      });
      assert.ok(!result.includes(PERSON), `the declined call's result is a new one, not the accepted form's: ${result}`);
      assert.match(result, /"action":\s*"decline"/, `the server saw the decline: ${result}`);
    });
  });

  it("lists the server's sampling and elicitation requests on the Audit page, chain intact", { timeout: 120_000 }, async (t) => {
    assert.ok(app, 'the window of the tests before is needed (they made the requests)');

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await openPage(app, 'audit');

      // The rows whose Tool / method column names a server request, with their data attributes.
      let listed = [];
      const rows = await waitFor(
        async () => {
          const found = [];
          for (const row of await s.findElements('[data-testid="audit-row"]')) {
            const [cell] = await s.findElements('.audit-cell-tool', row);
            const method = cell ? (await s.getText(cell)).trim() : '';
            if (method !== SAMPLING_METHOD && method !== ELICITATION_METHOD) continue;
            found.push({
              method,
              kind: await s.getAttribute(row, 'data-kind'),
              source: await s.getAttribute(row, 'data-source'),
              decision: await s.getAttribute(row, 'data-decision'),
              outcome: await s.getAttribute(row, 'data-outcome'),
            });
          }
          listed = found;
          const received = (method) => found.filter((r) => r.method === method && r.kind === 'request_received').length;
          return received(SAMPLING_METHOD) >= 1 && received(ELICITATION_METHOD) >= 2 ? found : null;
        },
        {
          timeout: 20_000,
          interval: 500,
          message: () =>
            `the request_received rows of one sampling and two elicitation requests on the Audit page ` +
            `(rows seen: ${JSON.stringify(listed)})`,
        },
      );
      const text = JSON.stringify(rows);
      for (const r of rows.filter((row) => row.kind === 'request_received')) {
        assert.equal(r.source, 'server', `a request the server sent is audited with the source server: ${text}`);
      }
      assert.ok(
        rows.some((r) => r.method === ELICITATION_METHOD && r.kind === 'decision' && r.decision === 'deny'),
        `the declined form is audited as a deny decision: ${text}`,
      );
      assert.ok(
        rows.some((r) => r.method === SAMPLING_METHOD && r.kind === 'decision' && r.decision !== 'deny'),
        `the answered sampling request is audited with a decision that is not deny: ${text}`,
      );

      await s.click(await app.waitForElement('[data-testid="verify-chain"]', { message: 'the Verify chain button' }));
      const result = await app.waitForElement('[data-testid="verify-result"]', {
        timeout: 20_000,
        message: 'the result of verifying the chain',
      });
      const verdict = await s.getText(result);
      assert.equal(await s.getAttribute(result, 'data-state'), 'intact', `the chain must verify; the page says: ${verdict}`);
      assert.match(verdict, /Chain intact \(\d+ rows\)/);
    });
  });
});


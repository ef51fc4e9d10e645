// Real-window e2e: the window as a new user meets it, page by page and tab by tab, from an
// empty data directory. The first run's demo server (bundled, no network) is added from the
// empty Servers page, its echo tool called from the Call form the page opens, and the call found
// on the Audit page through the hint's link. Then: a tool found through the command palette
// (Ctrl+K) and called; the Traffic tab filled by those calls, filtered to tools/call and one
// message opened; the History tab; a resource read and a prompt got, both then found on the
// Audit page; the theme switched on the Settings page (the document's
// theme follows); and an engine setting changed and seen applied: the approval timeout set to
// 2 s, a CLI call under an ask rule shows the window's dialog and is denied once the 2 s pass.
// A screenshot of every page and every tab of the server detail along the way.
//
//   cd tests/e2e && node --test window-tour.test.mjs
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app and the CLI.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';

import { launchApp, waitFor } from './harness.mjs';
import { runCli } from './cli.mjs';
import {
  APPROVAL_DIALOG, clickInView, fillField, findInPalette, offerListButton, openedCallForm, openPage, submitCall, waitForCallText, waitForConnected,
} from './servers-page.mjs';

const DEMO = 'demo';
const DETAIL = '[data-testid="server-detail"]';

async function openTab(app, tab) {
  await clickInView(app.session, await app.waitForElement(`${DETAIL} [data-testid="tab-${tab}"]`, { message: `the ${tab} tab` }));
}

/** Fills the Call form's field for the argument `name` (rjsf ids: `call-<tool>_<name>`). */
async function fillArgument(app, panel, tool, name, value) {
  await fillField(app.session, await app.waitForElement(`${panel} [id="call-${tool}_${name}"]`, { message: `the ${name} field of ${tool}` }), value);
}

describe('The window, page by page (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  const started = [];
  after(async () => {
    for (const { child } of started) child.kill('SIGKILL');
    await app?.close();
  });

  it('goes from an empty window to a call on the Audit page, then through the palette, every tab and page, the theme and a setting', { timeout: 420_000 }, async (t) => {
    app = await launchApp();
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;

      // 1. The empty Servers page teaches; the demo server is one click away.
      const demoButton = await app.waitForElement('[data-testid="empty-state-demo-button"]', {
        timeout: 45_000,
        message: 'the first-run empty state with "Try the demo server"',
      });
      await app.screenshot('tour-first-run');
      await s.click(demoButton);
      await app.waitForElement('[data-testid="first-run-hint"]', { message: 'the hint after adding the demo server' });
      await waitForConnected(app, DEMO);
      const echo = await openedCallForm(app, 'echo');
      await fillArgument(app, echo, 'echo', 'message', 'hello from a new user');
      await submitCall(app, echo);
      await waitForCallText(app, echo, (text) => text.includes('hello from a new user'), { message: "echo's answer" });
      await app.screenshot('tour-servers-overview');

      // 2. The hint's link leads to the call on the Audit page.
      await clickInView(s, await app.waitForElement('[data-testid="first-run-audit-link"]', { message: 'the link to the Audit page' }));
      await waitFor(async () => {
        for (const row of await s.findElements('[data-testid="audit-row"][data-tool="echo"]')) {
          if ((await s.getAttribute(row, 'data-kind')) === 'call_finished') return true;
        }
        return null;
      }, { timeout: 20_000, interval: 300, message: "the echo call's finished row on the Audit page" });
      await app.screenshot('tour-audit');

      // 3. The palette (Ctrl+K) finds the demo's add tool and opens its Call form.
      const option = await findInPalette(
        app,
        'add demo',
        (id) => id.startsWith('tool:') && id.endsWith(':add'),
        "the demo's add tool",
      );
      await app.screenshot('tour-palette');
      await s.click(option);
      const add = await openedCallForm(app, 'add');
      await fillArgument(app, add, 'add', 'a', '40');
      await fillArgument(app, add, 'add', 'b', '2');
      await submitCall(app, add);
      await waitForCallText(app, add, (text) => text.includes('42'), { message: 'add(40, 2) through the palette' });

      // 4. The Traffic tab holds those calls; one opened.
      await openTab(app, 'traffic');
      await fillField(s, await app.waitForElement('[data-testid="traffic-filter"]', { message: 'the method filter' }), 'tools/call');
      const sentCall = await waitFor(async () => {
        const rows = await s.findElements('[data-testid="traffic-row"][data-method="tools/call"][data-direction="sent"]');
        return rows.length >= 2 ? rows[rows.length - 1] : null;
      }, { timeout: 20_000, interval: 300, message: 'the two tools/call requests in the Traffic tab' });
      await clickInView(s, sentCall);
      const body = await app.waitForElement('[data-testid="traffic-message-body"]', { message: 'the opened message' });
      assert.match(await s.getText(body), /"method": "tools\/call"/);
      await app.screenshot('tour-traffic-tab');

      // 5. Every other tab of the detail.
      await openTab(app, 'history');
      await waitFor(async () => (await s.findElements('[data-testid="history-entry"]')).length >= 2 || null, {
        timeout: 10_000,
        interval: 200,
        message: 'the two calls in the History tab',
      });
      await app.screenshot('tour-history-tab');
      // A resource read and a prompt, as a new user would try them.
      await openTab(app, 'resources');
      await clickInView(s, await offerListButton(app, 'resource-list', 'readme'));
      const readme = await app.waitForElement('[data-testid="resource-reader"] [data-testid="resource-text"]', {
        timeout: 20_000,
        message: 'the text of demo://readme',
      });
      assert.match(await s.getText(readme), /The Gatehouse demo server/);
      await app.screenshot('tour-resources-tab');
      await openTab(app, 'prompts');
      await clickInView(s, await offerListButton(app, 'prompt-list', 'greet'));
      const name = await app.waitForElement('[data-testid="prompt-form"] input[role="combobox"]', { message: 'the name field of greet' });
      await fillField(s, name, 'Ada');
      await s.click(await app.waitForElement('[data-testid="prompt-get"]', { message: 'Get prompt' }));
      const messages = await app.waitForElement('[data-testid="prompt-messages"]', { timeout: 20_000, message: 'the messages of greet' });
      assert.match(await s.getText(messages), /Please greet Ada/);
      await app.screenshot('tour-prompts-tab');
      await openTab(app, 'logs');
      await app.waitForElement(`${DETAIL} [role="tabpanel"][data-state="active"]`, { message: 'the logs panel' });
      await app.screenshot('tour-logs-tab');

      // The read and the prompt are on the Audit page beside the calls.
      await openPage(app, 'audit');
      for (const method of ['resources/read', 'prompts/get']) {
        await app.waitForElement(`[data-testid="audit-row"][data-method="${method}"]`, {
          timeout: 20_000,
          message: `the ${method} on the Audit page`,
        });
      }

      // 6. The other pages.
      for (const page of ['approvals', 'policies', 'clients']) {
        await openPage(app, page);
        await app.screenshot(`tour-${page}`);
      }

      // 7. The theme, switched on the Settings page.
      await openPage(app, 'settings');
      await app.waitForElement('[data-testid="settings-page"]', { message: 'the Settings page' });
      const themeOf = () => s.executeScript('return document.documentElement.dataset.theme;');
      await s.click(await app.waitForElement('[data-testid="theme-dark"]', { message: 'the dark theme choice' }));
      await waitFor(async () => (await themeOf()) === 'dark' || null, { timeout: 5_000, interval: 100, message: 'the dark theme applied' });
      await app.screenshot('tour-settings-dark');
      await s.click(await app.waitForElement('[data-testid="theme-light"]', { message: 'the light theme choice' }));
      await waitFor(async () => (await themeOf()) === 'light' || null, { timeout: 5_000, interval: 100, message: 'the light theme applied' });
      await app.screenshot('tour-settings');

      // 8. A setting applied: the approval timeout, 2 s, ends a question nobody answers.
      const timeout = await app.waitForElement('[data-testid="setting-approvalTimeout"]', { message: 'the approval timeout field' });
      await fillField(s, timeout, '2');
      await s.click(await app.waitForElement('[data-testid="engine-settings-save"]', { message: 'Save' }));
      await waitFor(async () => {
        const { code, stdout } = await runCli(app, ['settings', 'get', 'approval-timeout']).ended;
        return code === 0 && stdout.trim().startsWith('2') ? true : null;
      }, { timeout: 10_000, interval: 300, message: 'the stored approval timeout of 2 s' });
      const rule = await runCli(app, ['policy', 'set', DEMO, '--tool', 'echo', 'ask']).ended;
      assert.equal(rule.code, 0, `gatehouse policy set: ${rule.stderr}`);
      const asked = runCli(app, ['call', DEMO, 'echo', '--args', JSON.stringify({ message: 'nobody answers' })]);
      started.push(asked);
      await app.waitForElement(APPROVAL_DIALOG, { timeout: 20_000, message: "the window's question about the CLI's call" });
      await app.screenshot('tour-approval-dialog');
      const ended = await Promise.race([
        asked.ended,
        new Promise((resolve) => setTimeout(() => resolve(null), 20_000)),
      ]);
      assert.ok(ended !== null, 'the unanswered call ends within 20 s (the approval timeout is 2 s)');
      assert.notEqual(ended.code, 0, `the unanswered call is denied: ${ended.stdout}`);
      assert.match(`${ended.stdout}${ended.stderr}`, /nobody answered within 2 s/, 'the CLI says nobody answered within the 2 s set');
      await waitFor(async () => (await s.findElements(APPROVAL_DIALOG)).length === 0 || null, {
        timeout: 10_000,
        interval: 200,
        message: 'the dialog closing once the question timed out',
      });
    });
  });
});

// Real-window e2e: the server detail's Resources and Prompts tabs against server-everything
// over stdio and over Streamable HTTP (its `streamableHttp` mode on a free port). For each: reads a resource through its template, the variable chosen from the server's
// completions; gets a prompt with arguments; subscribes to a resource and sees an update
// (server-everything@2026.8.31 sends `notifications/resources/updated` for its subscribed
// resources once its `toggle-subscriber-updates` tool is called: at once, then every 5 s);
// fills the Traffic tab and opens a resources/read answer; finds the server's echo through the
// command palette and calls it; and screenshots the tabs (`-http` for the HTTP server's).
//
//   cd tests/e2e && node --test resources-prompts.test.mjs
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app (make e2e's build).

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';

import { launchApp, waitFor, freePort, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { spawnGroup, stopGroup, waitUntilReady } from './processes.mjs';
import {
  addHttpServer, addStdioServer, clickInView, findInPalette, offerListButton, fillField, openCallForm, openedCallForm, selectServer, submitCall, waitForCallText, waitForConnected,
} from './servers-page.mjs';

const DETAIL = '[data-testid="server-detail"]';
const TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';

async function openTab(app, tab) {
  await clickInView(app.session, await app.waitForElement(`${DETAIL} [data-testid="tab-${tab}"]`, { message: `the ${tab} tab` }));
}

/** server-everything over Streamable HTTP on a free port; stopped by `stopGroup`. */
async function startEverythingHttp() {
  const port = await freePort();
  let output = '';
  const child = spawnGroup('node', [SERVER_EVERYTHING_ENTRY, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => { output = (output + d).slice(-2000); });
  child.stderr.on('data', (d) => { output = (output + d).slice(-2000); });
  await waitUntilReady(child, {
    name: 'server-everything (streamableHttp)',
    output: { toString: () => output },
    probe: () => fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }).then(() => true, () => null),
    timeout: 20_000,
    interval: 200,
    message: `server-everything listening on port ${port}`,
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

/**
 * The Resources, Prompts and Traffic tabs of the selected `server`, then its echo tool found
 * through the palette and called; screenshots named with `suffix`.
 */
async function exerciseOffers(app, server, suffix) {
  const s = app.session;
  // 1. A template's variable completed by the server, then read.
  await openTab(app, 'resources');
  await clickInView(s, await offerListButton(app, 'template-list', TEMPLATE));
  const field = await app.waitForElement('[data-testid="template-form"] input[role="combobox"]', {
    message: 'the resourceId field of the template form',
  });
  await fillField(s, field, '7');
  const option = await app.waitForElement('[data-testid="template-form"] [role="option"]', {
    timeout: 10_000,
    message: 'a completion suggestion for resourceId',
  });
  assert.equal(await s.getText(option), '7');
  await s.click(option);
  await s.click(await app.waitForElement('[data-testid="template-read"]', { message: 'the template Read button' }));
  const text = await app.waitForElement('[data-testid="resource-reader"] [data-testid="resource-text"]', {
    timeout: 20_000,
    message: 'the text of demo://resource/dynamic/text/7',
  });
  assert.match(await s.getText(text), /Resource 7: This is a plaintext resource/);

  // 2. Subscribed; the server told to send updates; the reader shows one.
  await s.click(await app.waitForElement('[data-testid="resource-subscribe"]', { message: 'Subscribe' }));
  await app.waitForElement('[data-testid="resource-updated"]', { message: 'the subscription status' });
  await app.screenshot(`resources-tab${suffix}`);
  await openTab(app, 'overview');
  const panel = await openCallForm(app, 'toggle-subscriber-updates');
  await submitCall(app, panel);
  await waitForCallText(app, panel, (body) => body.includes('Started simulated resource updated'));
  await openTab(app, 'resources');
  // The tab was left, so the subscription ended with it: subscribe again from the template.
  await clickInView(s, await offerListButton(app, 'template-list', TEMPLATE));
  await fillField(s, await app.waitForElement('[data-testid="template-form"] input[role="combobox"]', {
    message: 'the resourceId field again',
  }), '7');
  await s.click(await app.waitForElement('[data-testid="template-read"]', { message: 'Read again' }));
  await s.click(await app.waitForElement('[data-testid="resource-subscribe"]', { message: 'Subscribe again' }));
  await waitFor(async () => {
    const status = await s.findElements('[data-testid="resource-updated"]');
    return status.length > 0 && /Updated at/.test(await s.getText(status[0])) ? true : null;
  }, { timeout: 20_000, interval: 500, message: 'an update of the subscribed resource (every 5 s)' });

  // 3. A prompt with arguments.
  await openTab(app, 'prompts');
  await clickInView(s, await offerListButton(app, 'prompt-list', 'Arguments Prompt'));
  const city = await app.waitForElement('[data-testid="prompt-form"] input[role="combobox"]', { message: 'the city field' });
  await fillField(s, city, 'Paris');
  await s.click(await app.waitForElement('[data-testid="prompt-get"]', { message: 'Get prompt' }));
  const messages = await app.waitForElement('[data-testid="prompt-messages"]', {
    timeout: 20_000,
    message: 'the messages of args-prompt',
  });
  assert.match(await s.getText(messages), /What's weather in Paris\?/);
  await app.screenshot(`prompts-tab${suffix}`);

  // 4. The Traffic tab holds the reads; one answer opened.
  await openTab(app, 'traffic');
  await fillField(s, await app.waitForElement('[data-testid="traffic-filter"]', { message: 'the method filter' }), 'resources/read');
  const answer = await waitFor(async () => {
    const rows = await s.findElements('[data-testid="traffic-row"][data-method="resources/read"][data-direction="received"]');
    return rows.at(-1) ?? null;
  }, { timeout: 20_000, interval: 300, message: 'an answered resources/read in the Traffic tab' });
  await clickInView(s, answer);
  const body = await app.waitForElement('[data-testid="traffic-message-body"]', { message: 'the opened answer' });
  assert.match(await s.getText(body), /"contents"/);
  await app.screenshot(`traffic-tab${suffix}`);

  // 5. This server's echo found through the palette and called.
  const paletteOption = await findInPalette(
    app,
    `echo ${server}`,
    (id, detail) => id.startsWith('tool:') && id.endsWith(':echo') && detail.trim() === server,
    `${server}'s echo tool`,
  );
  await s.click(paletteOption);
  const echoPanel = await openedCallForm(app, 'echo');
  await fillField(s, await app.waitForElement(`${echoPanel} input`, { message: "echo's message field" }), `through the palette ${suffix}`);
  await submitCall(app, echoPanel);
  await waitForCallText(app, echoPanel, (text) => text.includes(`through the palette ${suffix}`), { message: "echo's answer" });
}

describe('Resources and Prompts tabs (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  let httpServer;
  after(async () => {
    await app?.close();
    await stopGroup(httpServer?.child);
  });

  it('reads a template resource through completion, gets a prompt, follows an update: stdio and Streamable HTTP', { timeout: 420_000 }, async (t) => {
    app = await launchApp();
    httpServer = await startEverythingHttp();
    await app.withFailureCapture(t.name, async () => {
      await addStdioServer(app, 'everything', 'node', [SERVER_EVERYTHING_ENTRY, 'stdio']);
      await addHttpServer(app, 'everything-http', httpServer.url);
      await waitForConnected(app, 'everything');
      await selectServer(app, 'everything');
      await exerciseOffers(app, 'everything', '');
      await waitForConnected(app, 'everything-http');
      await selectServer(app, 'everything-http');
      await exerciseOffers(app, 'everything-http', '-http');
    });
  });
});

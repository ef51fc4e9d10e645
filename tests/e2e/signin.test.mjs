// Real-window e2e of signing in to an OAuth-protected HTTP server: the server (with its
// authorization server, tests/fixtures/faults/oauth_server.py) answers 401, so the app shows
// "Authorization required"; Sign in opens the authorization page in "the browser" and the app's
// loopback redirect listener completes the flow; the server connects with its tools, the
// Sign-in tab shows the issuer and expiry (never a token), and Sign out brings the 401 back.
// The browser is a stand-in `xdg-open` first on the app's PATH that fetches the URL and
// follows its redirects, as a browser whose person is already signed in would.
// Runs the real app binary under Xvfb via tauri-driver (see README.md).

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, waitFor } from './harness.mjs';
import { FIXTURES_DIR } from './locations.mjs';
import { spawnGroup, stopGroup } from './processes.mjs';
import { addHttpServer, rowOf, selectServer } from './servers-page.mjs';

const SERVER_NAME = 'protected';
const DETAIL = '[data-testid="server-detail"]';

/** A port free on 127.0.0.1 right now. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A directory holding an `xdg-open` that fetches its URL and follows redirects. */
function browserStandIn() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-browser-'));
  const script = join(dir, 'xdg-open');
  writeFileSync(
    script,
    '#!/bin/sh\nexec python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=20).read()" "$1"\n',
  );
  chmodSync(script, 0o755);
  return dir;
}

/** Waits until the server's row shows `state`. */
async function waitForState(app, state, timeout = 30_000) {
  let last = '(no row)';
  await waitFor(
    async () => {
      const [row] = await app.session.findElements(rowOf(SERVER_NAME));
      last = row ? await app.session.getAttribute(row, 'data-status') : '(no row)';
      return last === state;
    },
    { timeout, interval: 250, message: () => `the row to show ${state} (last: ${last})` },
  );
}

describe('Signing in to an OAuth-protected server (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  let server;
  let browserDir;

  after(async () => {
    await app?.close();
    if (server) await stopGroup(server);
    if (browserDir) rmSync(browserDir, { recursive: true, force: true });
  });

  it('signs in through the browser, connects, and signs out', { timeout: 300_000 }, async (t) => {
    const port = await freePort();
    server = spawnGroup('python3', [join(FIXTURES_DIR, 'faults', 'oauth_server.py'), String(port), 'plain'], {
      stdio: 'ignore',
    });
    browserDir = browserStandIn();
    app = await launchApp({ env: { PATH: `${browserDir}:${process.env.PATH}` } });

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await addHttpServer(app, SERVER_NAME, `http://127.0.0.1:${port}/mcp`);
      await waitForState(app, 'authRequired');
      await selectServer(app, SERVER_NAME);
      const explanation = await s.getText(await s.findElement(`${DETAIL} [data-testid="connection-explanation"]`));
      assert.match(explanation, /asks for authorization/, explanation);

      await s.click(await s.findElement(`${DETAIL} [data-testid="sign-in-button"]`));
      await waitForState(app, 'connected');

      await s.click(await s.findElement(`${DETAIL} [data-testid="tab-auth"]`));
      const facts = await app.waitForElement(`${DETAIL} [data-testid="auth-signed-in"]`, {
        message: 'the Sign-in tab showing the server signed in',
      });
      const text = await s.getText(facts);
      assert.ok(text.includes(`http://127.0.0.1:${port}/as`), `the issuer is shown: ${text}`);
      assert.ok(!/at-\d+|rt-\d+/.test(text), `no token is ever shown: ${text}`);
      const shot = await app.screenshot('server-signed-in');
      assert.ok(statSync(shot).size > 1_000, `screenshot ${shot} must be a real image`);

      await s.click(await s.findElement(`${DETAIL} [data-testid="auth-sign-out"]`));
      await app.waitForElement(`${DETAIL} [data-testid="auth-signed-out"]`, { message: 'the Sign-in tab after signing out' });
      await waitForState(app, 'authRequired');
    });
  });
});

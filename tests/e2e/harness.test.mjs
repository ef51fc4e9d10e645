// Self-test of the e2e infrastructure, independent of the Gatehouse app:
// Xvfb + private D-Bus/keyring + tauri-driver + WebKitWebDriver + our
// WebDriver client, driving WebKitGTK's own MiniBrowser (shipped by
// libwebkit2gtk-4.1-0). If this passes and servers.test.mjs fails, the
// problem is in the app, not in the test machinery.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { launchApp, waitFor } from './harness.mjs';
import { Keys } from './webdriver.mjs';

function findMiniBrowser() {
  for (const base of ['/usr/lib', '/usr/libexec']) {
    let dirs = [];
    try {
      dirs = readdirSync(base);
    } catch {
      continue;
    }
    for (const d of ['', ...dirs]) {
      const p = join(base, d, 'webkit2gtk-4.1', 'MiniBrowser');
      if (existsSync(p)) return p;
    }
  }
  return null;
}

const MINIBROWSER = findMiniBrowser();

const PAGE = `<!doctype html><title>harness self-test</title>
<button data-testid="go" onclick="document.getElementById('out').textContent = document.getElementById('ta').value.split('\\n').join('|')">Go</button>
<textarea id="ta" data-testid="ta"></textarea>
<input type="checkbox" data-testid="cb">
<p id="out" data-state="idle">none</p>`;

describe('e2e harness (MiniBrowser stands in for the app)', { skip: !MINIBROWSER && 'WebKitGTK MiniBrowser not installed' }, () => {
  let app;

  before(
    async () => {
      // MiniBrowser needs --automation; it reports browserName "MiniBrowser", not "wry".
      app = await launchApp({ appPath: MINIBROWSER, args: ['--automation'], browserName: null, waitForLoad: false });
      await app.session.navigateTo(`data:text/html;charset=utf-8,${encodeURIComponent(PAGE)}`);
    },
    { timeout: 120_000 },
  );

  after(async () => {
    await app?.close();
  });

  it('finds, types (multi-line), clicks, reads back and screenshots', { timeout: 60_000 }, async (t) => {
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      assert.equal(
        app.env.GATEHOUSE_DATA_DIR,
        app.dataDir,
        'the app must get its isolated data dir through GATEHOUSE_DATA_DIR',
      );
      const ta = await app.waitForElement('[data-testid="ta"]');
      await s.sendKeys(ta, `/abs/path/index.js${Keys.ENTER}stdio`);
      assert.equal(
        await s.getProperty(ta, 'value'),
        '/abs/path/index.js\nstdio',
        'Enter in a textarea must produce a newline: server args are entered one per line',
      );
      const cb = await s.findElement('[data-testid="cb"]');
      assert.equal(await s.isSelected(cb), false);
      await s.click(cb);
      assert.equal(await s.isSelected(cb), true, 'clicking a checkbox must toggle it');
      await s.click(await s.findElement('[data-testid="go"]'));
      const out = await s.findElement('#out');
      await waitFor(async () => (await s.getText(out)) === '/abs/path/index.js|stdio', {
        timeout: 5_000,
        message: 'the click handler to update the page',
      });
      assert.equal(await s.getAttribute(out, 'data-state'), 'idle');
      assert.equal(await s.getAttribute(out, 'data-missing'), null);
      assert.deepEqual(await s.executeScript('return [arguments[0].id, 6 * 7]', [out]), ['out', 42]);
      assert.equal((await s.findElements('p')).length, 1);
      const shot = await app.screenshot('harness-selftest');
      assert.ok(statSync(shot).size > 1_000, 'screenshots must be real images for failure triage');
    });
  });
});

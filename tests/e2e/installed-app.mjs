// The app as the .deb installed it, started under Xvfb to its first page: the Servers page's
// heading shows, served from the UI built into the binary (Tauri's custom protocol, no dev
// server), with a screenshot. Not a `*.test.mjs`, so `npm test` leaves it out: it runs only in
// scripts/package-check.sh (`make package-check`), after `dpkg -i`, as
//
//   GATEHOUSE_APP=/usr/bin/gatehouse-app node --test installed-app.mjs

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';

import { launchApp, resolveAppPath } from './harness.mjs';

describe('the installed package (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;

  after(async () => {
    await app?.close();
  });

  it('starts the installed app to the Servers page', { timeout: 180_000 }, async (t) => {
    assert.ok(process.env.GATEHOUSE_APP, 'set GATEHOUSE_APP to the installed app (/usr/bin/gatehouse-app)');
    const appPath = resolveAppPath();
    app = await launchApp({ appPath });

    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const heading = await app.waitForElement('#servers-heading', {
        timeout: 30_000,
        message: 'the Servers page heading (#servers-heading) of the installed app',
      });
      assert.match(await s.getText(heading), /^Servers/);
      // The page comes from the assets inside the binary, not from a dev server.
      const href = await s.executeScript('return location.href;');
      assert.match(href, /^(tauri:\/\/localhost|http:\/\/tauri\.localhost)([/#]|$)/, `the page's URL: ${href}`);
      await app.settle();
      const shot = await app.screenshot('installed-app-servers');
      assert.ok(statSync(shot).size > 0, `screenshot ${shot} is empty`);
    });
  });
});

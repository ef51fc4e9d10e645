// Real-window e2e: the Servers list with 100 servers (added in a shuffled order by the CLI
// before the app starts, disabled so nothing runs). The list is in natural order (e2 before
// e10), virtualised (far fewer rows in the page than servers), scrolls to the last one, and
// its search narrows it (`e10` finds e10 and e100) and says when nothing matches.
//
//   cd tests/e2e && node --test hundred-servers.test.mjs
//
// Prerequisites: scripts/install-test-deps.sh, and a debug build of the app and the CLI.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';

import { launchApp, waitFor } from './harness.mjs';
import { runCli } from './cli.mjs';
import { fillField } from './servers-page.mjs';

const COUNT = 100;

/** e1..e100 in a fixed shuffled order (a linear congruential walk), so insertion order is not the list's. */
function shuffledNames() {
  const names = Array.from({ length: COUNT }, (_, i) => `e${i + 1}`);
  let seed = 7;
  for (let i = names.length - 1; i > 0; i -= 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [names[i], names[j]] = [names[j], names[i]];
  }
  return names;
}

/** The names of the rows the list renders now, in their on-screen order. */
async function shownNames(s) {
  return s.executeScript(`
    return [...document.querySelectorAll('[data-testid="server-row"]')]
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
      .map((row) => row.dataset.serverName);`);
}

describe('A hundred servers (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  after(async () => {
    await app?.close();
  });

  it('lists them in natural order, virtualised, scrollable to the last, and searchable', { timeout: 300_000 }, async (t) => {
    app = await launchApp({
      beforeStart: async (starting) => {
        for (const name of shuffledNames()) {
          const added = await runCli(starting, ['server', 'add', name, '--command', 'true', '--disabled']).ended;
          assert.equal(added.code, 0, `gatehouse server add ${name}: ${added.stderr}`);
        }
      },
    });
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const list = await app.waitForElement('[data-testid="server-search"]', { timeout: 45_000, message: 'the Servers list with its search' });
      await waitFor(async () => (await s.executeScript(`return document.querySelector('ul.server-list')?.dataset.count;`)) === String(COUNT) || null, {
        timeout: 20_000,
        interval: 250,
        message: `all ${COUNT} servers in the list`,
      });

      // Natural order at the top, and only the rows in view (and a few more) are in the page.
      const top = await shownNames(s);
      assert.deepEqual(top.slice(0, 12), ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12']);
      assert.ok(top.length < COUNT / 2, `the list is virtualised: ${top.length} rows rendered of ${COUNT}`);
      await app.screenshot('hundred-servers-top');

      // Scrolled to the end: the last ones, still in order.
      await s.executeScript(`const el = document.querySelector('.server-list-scroll'); el.scrollTop = el.scrollHeight;`);
      const bottom = await waitFor(async () => {
        const names = await shownNames(s);
        return names.at(-1) === 'e100' ? names : null;
      }, { timeout: 10_000, interval: 200, message: 'e100 rendered at the end of the scrolled list' });
      assert.deepEqual(bottom.slice(-3), ['e98', 'e99', 'e100']);
      // Scrolled to the end means the last row is whole in view (the rows' estimated height is
      // their measured one, so the end does not move once they are measured).
      await waitFor(async () => s.executeScript(`
        const el = document.querySelector('.server-list-scroll');
        el.scrollTop = el.scrollHeight;
        const last = document.querySelector('[data-testid="server-row"][data-server-name="e100"]');
        return last !== null && last.getBoundingClientRect().bottom <= el.getBoundingClientRect().bottom + 1 ? true : null;`), {
        timeout: 10_000,
        interval: 200,
        message: 'the last row whole in view at the end of the list',
      });
      await app.screenshot('hundred-servers-bottom');

      // The search narrows the list; a search that matches nothing says so.
      await fillField(s, list, 'e10');
      await waitFor(async () => {
        const names = await shownNames(s);
        return names.length === 2 && names[0] === 'e10' && names[1] === 'e100' ? true : null;
      }, { timeout: 10_000, interval: 200, message: 'the search "e10" showing e10 and e100' });
      await app.screenshot('hundred-servers-search');
      await fillField(s, list, 'nothing-like-this');
      await app.waitForElement('[data-testid="server-search-empty"]', { message: 'the empty search result' });
    });
  });
});

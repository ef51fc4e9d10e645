// Real-window e2e: a server floods the engine and the window (5,000 stderr lines and 5,000
// log notifications a second for 10 s, tests/fixtures/faults/steady_flood.py) while its Logs tab
// is open. During the flood every interaction in the window (opening the Audit page, the Servers
// page, the server's detail and its Logs tab) completes within 2 s, the app's memory (PSS of the
// app and its WebKit processes) stays under MEMORY_BOUND_MB, and afterwards the Logs tab shows
// the flood's last line: the window kept up and nothing hung.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

import { launchApp, waitFor } from './harness.mjs';
import { FIXTURES_DIR } from './locations.mjs';
import { childrenOf, pidsRunning } from './processes.mjs';
import { addStdioServer, openCallForm, openPage, rowOf, selectServer, submitCall, waitForCallText, waitForConnected } from './servers-page.mjs';

const SERVER = 'flood';
const FLOOD_SECONDS = 10;
/** What an interaction may take while the server floods. */
const INTERACTION_MS = 2_000;
/** The app's memory bound during the flood: the debug build measured 374 MB at its peak here. */
const MEMORY_BOUND_MB = 600;

/** PSS in MB of the app process and its WebKit children. */
function appPssMb(app) {
  const exe = realpathSync(app.appPath);
  const appPids = pidsRunning(app.marker, '').filter((pid) => {
    try {
      return realpathSync(`/proc/${pid}/exe`) === exe;
    } catch {
      return false;
    }
  });
  const pids = appPids.flatMap((pid) => [pid, ...childrenOf(pid).filter((c) => c.comm.startsWith('WebKit')).map((c) => c.pid)]);
  let kb = 0;
  for (const pid of pids) {
    try {
      const line = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n').find((l) => l.startsWith('Pss:'));
      kb += Number(line?.split(/\s+/)[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}

/** Runs `step` and waits for `done` within INTERACTION_MS; returns how long it took. */
async function timed(app, what, step, done) {
  const started = Date.now();
  await step();
  await waitFor(done, { timeout: INTERACTION_MS, interval: 50, message: `${what} within ${INTERACTION_MS} ms during the flood` });
  return Date.now() - started;
}

describe('a flooding server (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;

  after(async () => {
    await app?.close();
  });

  it('keeps the window responsive and its memory bounded while a server floods', { timeout: 300_000 }, async (t) => {
    app = await launchApp();
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      const has = (selector) => async () => (await s.findElements(selector)).length > 0;
      await addStdioServer(app, SERVER, 'python3', [join(FIXTURES_DIR, 'faults', 'steady_flood.py')]);
      await waitForConnected(app, SERVER);
      await selectServer(app, SERVER);

      // Start the flood from the Call form, then follow it on the Logs tab.
      const panel = await openCallForm(app, 'flood');
      await submitCall(app, panel);
      await waitForCallText(app, panel, (text) => text.includes('flooding'), { message: 'the flood tool\'s answer' });
      const floodEnds = Date.now() + FLOOD_SECONDS * 1000;
      await s.click(await app.waitForElement('[data-testid="tab-logs"]', { message: 'the Logs tab' }));
      await app.waitForElement('[data-testid="log-line"]', { message: 'the first flood lines in the Logs tab' });

      const timings = [];
      let peakMb = appPssMb(app);
      while (Date.now() < floodEnds - INTERACTION_MS) {
        timings.push(await timed(app, 'the Audit page', () => openPage(app, 'audit'), has('[data-testid="audit-count"], [data-testid="audit-empty"]')));
        peakMb = Math.max(peakMb, appPssMb(app));
        timings.push(await timed(app, 'the Servers page', () => openPage(app, 'servers'), has(rowOf(SERVER))));
        timings.push(await timed(app, 'the server\'s detail', async () => s.click(await s.findElement(`${rowOf(SERVER)} .server-row-name`)), has('[data-testid="server-detail"] [data-testid="tab-logs"]')));
        timings.push(await timed(app, 'its Logs tab', async () => s.click(await s.findElement('[data-testid="tab-logs"]')), has('[data-testid="log-line"]')));
        peakMb = Math.max(peakMb, appPssMb(app));
      }
      t.diagnostic(`interactions during the flood (ms): ${timings.join(', ')}; peak PSS ${peakMb.toFixed(0)} MB`);
      assert.ok(timings.length >= 4, `at least one round of interactions ran during the flood (${timings.length})`);
      assert.ok(peakMb < MEMORY_BOUND_MB, `the app's PSS peaked at ${peakMb.toFixed(0)} MB during the flood (bound ${MEMORY_BOUND_MB} MB)`);

      // After the flood the Logs tab, following, shows its last line.
      await waitFor(
        async () => {
          for (const line of (await s.findElements('[data-testid="log-line"]')).slice(-5)) {
            if ((await s.getText(line)).includes('flood done after')) return true;
          }
          return false;
        },
        { timeout: 30_000, interval: 250, message: 'the flood\'s last stderr line ("flood done after N lines") in the Logs tab' },
      );
      await app.screenshot('flood-logs');
      peakMb = Math.max(peakMb, appPssMb(app));
      assert.ok(peakMb < MEMORY_BOUND_MB, `the app's PSS after the flood: ${peakMb.toFixed(0)} MB (bound ${MEMORY_BOUND_MB} MB)`);
    });
  });
});

// Real-window e2e: the Import step. A made-up home (the app's HOME) holds Cursor's
// ~/.cursor/mcp.json with server-everything and a plaintext API key; the Servers page's
// "Import" opens the dialog, the preview lists the server with the key masked and marked for
// the keyring (screenshot import-preview), the import adds it (screenshot import-done), it
// connects, and the key is nowhere in the data directory (database, WAL, logs).
//
//   node --test tests/e2e/import.test.mjs

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { waitForConnected } from './servers-page.mjs';

const SECRET = 'sk-e2eImportSecret0123456789abcdefXYZ';
const SERVER = 'everything-imported';

function assertImage(file) {
  assert.ok(statSync(file).size > 1_000, `screenshot ${file} must be a real image`);
}

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir, needle) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesHolding(path, needle));
    else if (entry.isFile() && readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

describe('Import from an agent (real window)', () => {
  /** @type {import('./harness.mjs').App} */
  let app;
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-home-'));

  after(async () => {
    await app?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('previews an agent\'s servers with the secret masked, imports them and connects', { timeout: 240_000 }, async (t) => {
    mkdirSync(join(home, '.cursor'));
    writeFileSync(
      join(home, '.cursor', 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          [SERVER]: { command: 'node', args: [SERVER_EVERYTHING_ENTRY, 'stdio'], env: { OPENAI_API_KEY: SECRET } },
        },
      }, null, 2),
    );
    app = await launchApp({ env: { HOME: home } });
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await s.click(await app.waitForElement('[data-testid="empty-state-import-button"]', { message: 'the empty Servers page offers an import' }));
      const select = await app.waitForElement('[data-testid="import-agent-select"]', { message: 'the agents found are offered' });
      assert.match(await s.getText(select), /Cursor: 1 server/);
      await s.click(await app.waitForElement('[data-testid="import-preview-button"]', { message: 'the Preview button' }));
      const item = await app.waitForElement(`[data-testid="import-server-${SERVER}"]`, { timeout: 30_000, message: 'the previewed server' });
      const text = await s.getText(item);
      assert.match(text, /OPENAI_API_KEY=sk-…\(37 characters\)/, text);
      assert.match(text, /to the keyring/, text);
      const page = await s.getPageSource();
      assert.ok(!page.includes(SECRET), 'the window never holds the secret');
      assertImage(await app.screenshot('import-preview'));

      await s.click(await app.waitForElement('[data-testid="import-confirm-button"]', { message: 'the Import button' }));
      const done = await app.waitForElement('[data-testid="import-done"]', { timeout: 30_000, message: 'the import is done' });
      assert.match(await s.getText(done), /1 server imported from Cursor/);
      assertImage(await app.screenshot('import-done'));
      await s.click(await app.waitForElement('[data-testid="import-dialog"] .button-primary', { message: 'the Done button' }));

      await waitForConnected(app, SERVER);
      assert.deepEqual(filesHolding(app.dataDir, SECRET), [], 'the secret is in no file of the data directory');
    });
  });
});

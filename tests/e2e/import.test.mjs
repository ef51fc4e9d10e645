// Real-window e2e: the Import and Connect steps. A made-up home (the app's HOME) holds Cursor's
// ~/.cursor/mcp.json with server-everything and a plaintext API key; the Servers page's
// "Import" opens the dialog, the preview lists the server with the key masked and marked for
// the keyring (screenshot import-preview), the import adds it (screenshot import-done), it
// connects, and the key is nowhere in the data directory (database, WAL, logs). Then the
// Clients page's "Connect an agent" previews the diff of Cursor's file (screenshot
// connect-diff), writes it (the imported entry out, a `gatehouse` entry in, the key gone from
// the file), and "Undo last connect" puts the file back byte for byte.
//
//   node --test tests/e2e/import.test.mjs

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchApp, SERVER_EVERYTHING_ENTRY } from './harness.mjs';
import { openPage, waitForConnected } from './servers-page.mjs';

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

  it('connects the agent after showing the diff, and undoes it', { timeout: 120_000 }, async (t) => {
    assert.ok(app, 'the app runs (the import test launched it)');
    const file = join(home, '.cursor', 'mcp.json');
    const original = readFileSync(file);
    await app.withFailureCapture(t.name, async () => {
      const s = app.session;
      await openPage(app, 'clients');
      await s.click(await app.waitForElement('[data-testid="connect-agent-button"]', { message: 'the Connect button' }));
      await app.waitForElement('[data-testid="connect-agent-select"]', { message: 'the agents found are offered' });
      await s.click(await app.waitForElement('[data-testid="connect-preview-button"]', { message: 'the Preview button' }));
      const diff = await app.waitForElement('[data-testid="connect-diff"]', { timeout: 30_000, message: 'the diff of the file' });
      const shown = await s.getText(diff);
      assert.match(shown, /^-.*"everything-imported"/m, shown);
      assert.match(shown, /^\+.*"gatehouse"/m, shown);
      assert.ok(!shown.includes(SECRET), 'the diff masks the key');
      assertImage(await app.screenshot('connect-diff'));

      await s.click(await app.waitForElement('[data-testid="connect-write-button"]', { message: 'the Write button' }));
      const done = await app.waitForElement('[data-testid="connect-done"]', { timeout: 30_000, message: 'the connect is done' });
      assert.match(await s.getText(done), /as the client cursor/);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      const entry = written.mcpServers.gatehouse;
      assert.ok(entry, `the gatehouse entry is written: ${JSON.stringify(written)}`);
      assert.deepEqual(entry.args.slice(-3), ['mcp', '--client', 'cursor']);
      assert.ok(!(SERVER in written.mcpServers), 'the imported entry left the file');
      assert.ok(!readFileSync(file, 'utf8').includes(SECRET), 'the key left the file');

      await s.click(await app.waitForElement('[data-testid="connect-undo-button"]', { message: 'the Undo button' }));
      await app.waitForElement('[data-testid="connect-undone"]', { timeout: 30_000, message: 'the undo is done' });
      assert.ok(readFileSync(file).equals(original), 'the file is back byte for byte');
    });
  });
});

// The `gatehouse` CLI built beside the app, run on the app's data directory (as a person at a
// terminal next to the window would), for e2e steps that check what the window did.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The CLI binary beside the app's. */
export function cliPath(app) {
  const cli = join(dirname(app.appPath), 'gatehouse');
  assert.ok(existsSync(cli), `the CLI binary beside the app: ${cli}`);
  return cli;
}

/** Runs the CLI on the app's data directory; `ended` resolves with its exit and output. */
export function runCli(app, args) {
  const child = spawn(cliPath(app), ['--data-dir', app.dataDir, ...args], {
    env: app.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const ended = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, ...output }));
  });
  return { child, output, ended };
}

/** Runs the CLI with `--json` and returns what it printed, failing the step on a non-zero exit. */
export async function cliJson(app, args) {
  const { code, stdout, stderr } = await runCli(app, [...args, '--json']).ended;
  assert.equal(code, 0, `gatehouse ${args.join(' ')} --json: ${stderr}`);
  return JSON.parse(stdout);
}

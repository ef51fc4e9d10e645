// Where the e2e harness finds things: the repository and artifact paths, the
// server-everything and TypeScript SDK v2 fixtures, the Gatehouse app binary, and system commands on
// PATH (with the Debian package to install when one is missing).
//
//   GATEHOUSE_APP  app binary (default: $CARGO_TARGET_DIR or <repo>/target, + /debug/gatehouse-app)

import { existsSync, statSync, accessSync, constants as fsConstants } from 'node:fs';
import { dirname, join, resolve, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(E2E_DIR, '..', '..');
export const ARTIFACTS_DIR = join(E2E_DIR, 'artifacts');
export const FIXTURES_DIR = join(REPO_ROOT, 'tests', 'fixtures');
export const SERVER_EVERYTHING_ENTRY = join(
  FIXTURES_DIR,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

// The TypeScript SDK v2 server that offers only prompts or only resources, and no tools
// (`node partial.mjs prompts|resources`); it runs on the SDK installed in tests/fixtures.
export const PARTIAL_SERVER_ENTRY = join(FIXTURES_DIR, 'ts-sdk-v2', 'partial.mjs');
export const TS_SDK_V2_PACKAGE = join(FIXTURES_DIR, 'node_modules', '@modelcontextprotocol', 'server', 'package.json');

/** Absolute path of the executable `cmd` on PATH, or null. */
export function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, fsConstants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      /* keep looking */
    }
  }
  return null;
}

/** Like `which`, but throws naming the Debian package `pkg` when `cmd` is missing. */
export function requireCommand(cmd, pkg) {
  const p = which(cmd);
  if (!p) throw new Error(`${cmd} not found on PATH (Debian package: ${pkg}). Run scripts/install-test-deps.sh.`);
  return p;
}

/** Absolute path of the app binary, or throws with instructions. */
export function resolveAppPath() {
  let app = process.env.GATEHOUSE_APP;
  let how = 'GATEHOUSE_APP';
  if (!app) {
    const targetDir = process.env.CARGO_TARGET_DIR
      ? resolve(REPO_ROOT, process.env.CARGO_TARGET_DIR)
      : join(REPO_ROOT, 'target');
    app = join(targetDir, 'debug', 'gatehouse-app');
    how = process.env.CARGO_TARGET_DIR ? '$CARGO_TARGET_DIR/debug/gatehouse-app' : '<repo>/target/debug/gatehouse-app';
  }
  app = resolve(REPO_ROOT, app);
  if (!existsSync(app)) {
    throw new Error(
      `Gatehouse app binary not found at ${app} (from ${how}). ` +
        'Build it first (a debug build of the Tauri app, e.g. `cargo build -p gatehouse-app`) ' +
        'or point GATEHOUSE_APP at the binary.',
    );
  }
  try {
    accessSync(app, fsConstants.X_OK);
  } catch {
    throw new Error(`Gatehouse app binary at ${app} is not executable.`);
  }
  return app;
}

// The per-run scratch directory of the e2e harness.
//
// Each launch gets a fresh temp dir holding the app's data dir, XDG dirs,
// the Xvfb framebuffer dir and the private D-Bus dir, plus the environment
// that points the app (and everything it starts) at them and marks its
// processes with GATEHOUSE_E2E_RUN=<run id>. Removal also lazily unmounts
// anything mounted under it.
//
//   GATEHOUSE_E2E_KEEP_TMP=1  keep the temp dir after the run

import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, mkdir, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { which } from './locations.mjs';
import { log } from './log.mjs';

const keepTmp = () => process.env.GATEHOUSE_E2E_KEEP_TMP === '1';

/**
 * Creates the run's temp dir tree. Resolves to `{ root, dataDir, fbDir,
 * dbusDir, env }`, where `env` is the environment for tauri-driver →
 * WebKitWebDriver → the app → MCP servers (`extraEnv` overrides it).
 */
export async function createRunDir(runId, extraEnv = {}) {
  const root = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-'));
  try {
    const dataDir = join(root, 'data');
    const fbDir = join(root, 'fb');
    const dbusDir = join(root, 'dbus');
    const xdg = {
      XDG_CONFIG_HOME: join(root, 'xdg', 'config'),
      XDG_DATA_HOME: join(root, 'xdg', 'data'),
      XDG_CACHE_HOME: join(root, 'xdg', 'cache'),
      XDG_STATE_HOME: join(root, 'xdg', 'state'),
      XDG_RUNTIME_DIR: join(root, 'xdg', 'runtime'),
    };
    for (const d of [dataDir, ...Object.values(xdg), fbDir, dbusDir]) {
      await mkdir(d, { recursive: true });
    }
    await chmod(xdg.XDG_RUNTIME_DIR, 0o700);

    const env = {
      ...process.env,
      ...xdg,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_E2E_RUN: runId, // marker used to sweep stray processes on close
      NO_AT_BRIDGE: '1', // no accessibility bus warnings/delays
      GTK_A11Y: 'none',
      ...extraEnv,
    };
    return { root, dataDir, fbDir, dbusDir, env };
  } catch (err) {
    await removeRunDir(root);
    throw err;
  }
}

/** Removes the run dir (unless GATEHOUSE_E2E_KEEP_TMP=1). Never throws. */
export async function removeRunDir(root) {
  if (!root) return;
  if (keepTmp()) {
    log(`kept temp dir ${root}`);
    return;
  }
  unmountUnder(root);
  await rm(root, { recursive: true, force: true }).catch((err) => log(`could not remove ${root}: ${err.message}`));
}

/** Synchronous `removeRunDir`, for process exit and signal handlers. Never throws. */
export function removeRunDirSync(root) {
  if (!root || keepTmp()) return;
  try {
    unmountUnder(root);
    rmSync(root, { recursive: true, force: true });
  } catch {
    /* best effort */
  }
}

/** Lazily unmounts anything mounted under `dir` (e.g. a document-portal FUSE mount). */
function unmountUnder(dir) {
  let mounts = '';
  try {
    mounts = readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return;
  }
  const points = mounts
    .split('\n')
    .map((l) => l.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((m) => m && (m === dir || m.startsWith(dir + '/')))
    .sort((a, b) => b.length - a.length);
  for (const m of points) {
    const ok = ['fusermount3', 'fusermount'].some(
      (cmd) => which(cmd) && spawnSync(cmd, ['-u', '-z', m], { timeout: 5_000 }).status === 0,
    );
    if (!ok) spawnSync('umount', ['-l', m], { timeout: 5_000 });
  }
}

// Real-window e2e harness for Gatehouse.
//
// Starts (as needed) Xvfb, a private D-Bus session bus with an unlocked
// gnome-keyring, and tauri-driver (which starts WebKitWebDriver, which starts
// the app), then opens a W3C WebDriver session on the app.
// Everything is torn down by `app.close()`, which is safe to call twice and
// after a partial start.
//
// Environment:
//   GATEHOUSE_APP            app binary (default: $CARGO_TARGET_DIR or <repo>/target, + /debug/gatehouse-app)
//   TAURI_DRIVER             tauri-driver binary (default: PATH, then $CARGO_HOME/bin, ~/.cargo/bin)
//   GATEHOUSE_E2E_XVFB=1     start a private Xvfb even when DISPLAY is set
//   GATEHOUSE_E2E_HOST_DBUS=1  use the caller's D-Bus session (and keyring) instead of a private one
//   GATEHOUSE_E2E_KEEP_TMP=1 keep the temp dir (app data dir, XDG dirs) after the run
//   GATEHOUSE_E2E_SCREENSHOT=webdriver  screenshots via WebDriver even when the harness owns Xvfb
//   GATEHOUSE_E2E_DEBUG=1    echo tauri-driver / WebKitWebDriver / app output to stderr live

import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  accessSync,
  constants as fsConstants,
} from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile, appendFile, chmod } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, homedir } from 'node:os';
import { dirname, join, resolve, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';

import { WebDriverSession } from './webdriver.mjs';

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

const DEBUG = process.env.GATEHOUSE_E2E_DEBUG === '1';
// How long the app process may be absent while the WebDriver session is being created.
const APP_GONE_MS = 8_000;

// ---------------------------------------------------------------------------
// small utilities

/**
 * Polls `fn` until it returns a truthy value (which is returned). Exceptions
 * thrown by `fn` count as "not yet" (e.g. stale elements while React
 * re-renders) and are reported if the wait times out; throw `fatal(msg)` to
 * stop waiting at once. `message` may be a function (evaluated on timeout).
 */
export async function waitFor(fn, { timeout = 10_000, interval = 250, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  let lastValue;
  for (;;) {
    try {
      lastValue = await fn();
      if (lastValue) return lastValue;
      lastError = undefined;
    } catch (err) {
      if (err?.fatal) throw err; // fn can abort the wait early
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
  }
  const detail = lastError
    ? `last error: ${lastError.message ?? lastError}`
    : `last value: ${JSON.stringify(lastValue)}`;
  const what = typeof message === 'function' ? message() : message;
  throw new Error(`Timed out after ${timeout} ms waiting for ${what} (${detail})`);
}

/** An error that makes waitFor stop immediately instead of retrying. */
export function fatal(message) {
  const err = new Error(message);
  err.fatal = true;
  return err;
}

function log(...args) {
  console.error('[e2e]', ...args);
}

function which(cmd) {
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

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

async function distinctFreePorts(n) {
  const ports = new Set();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** Keeps the last `max` chars of a stream's output, optionally also appending to a file. */
class OutputTail {
  constructor(max = 20_000, file) {
    this.max = max;
    this.text = '';
    this.file = file;
    this.pending = Promise.resolve();
  }
  attach(stream, label) {
    if (!stream) return;
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      this.text = (this.text + chunk).slice(-this.max);
      if (this.file) this.pending = this.pending.then(() => appendFile(this.file, chunk)).catch(() => {});
      if (DEBUG) process.stderr.write(`[${label}] ${chunk}`);
    });
  }
  toString() {
    return this.text;
  }
}

/** Spawns in a new process group so the whole tree can be signalled. */
function spawnGroup(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { ...opts, detached: true });
  child.exited = once(child, 'exit').catch(() => {});
  child.on('error', () => {}); // reported via exitCode / spawn checks
  return child;
}

function isRunning(child) {
  return child && child.exitCode === null && child.signalCode === null;
}

function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** SIGTERM the child's process group, then SIGKILL after `graceMs`. */
async function stopGroup(child, graceMs = 5_000) {
  if (!child?.pid) return;
  if (isRunning(child)) {
    killGroup(child.pid, 'SIGTERM');
    await Promise.race([child.exited, sleep(graceMs)]);
  }
  // Always sweep the group: grandchildren may outlive the leader.
  killGroup(child.pid, 'SIGKILL');
}

/** PIDs of processes whose environment contains `marker` (exact "KEY=VALUE" entry). */
function pidsWithEnv(marker) {
  const pids = [];
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids; // not Linux
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (env.split('\0').includes(marker)) pids.push(Number(name));
    } catch {
      /* gone or not ours */
    }
  }
  return pids;
}

/** Whether a live (non-zombie) process runs `exe` with `marker` in its environment. */
function processAlive(exe, marker) {
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // cannot tell: assume alive
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/exe`) !== exe) continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(marker)) return true;
    } catch {
      /* gone, zombie, or not readable */
    }
  }
  return false;
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

// ---------------------------------------------------------------------------
// locating binaries

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

export function resolveTauriDriver() {
  const fromEnv = process.env.TAURI_DRIVER;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`TAURI_DRIVER=${fromEnv} does not exist.`);
    return fromEnv;
  }
  const candidates = [
    which('tauri-driver'),
    process.env.CARGO_HOME && join(process.env.CARGO_HOME, 'bin', 'tauri-driver'),
    join(homedir(), '.cargo', 'bin', 'tauri-driver'),
  ].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'tauri-driver not found (PATH, $CARGO_HOME/bin, ~/.cargo/bin). Run scripts/install-test-deps.sh ' +
        "or `cargo install tauri-driver --version '^2' --locked`.",
    );
  }
  return found;
}

function requireCommand(cmd, pkg) {
  const p = which(cmd);
  if (!p) throw new Error(`${cmd} not found on PATH (Debian package: ${pkg}). Run scripts/install-test-deps.sh.`);
  return p;
}

// ---------------------------------------------------------------------------
// Xvfb

/**
 * Starts Xvfb on a free display. Uses -displayfd, so Xvfb picks the display
 * and reports it only once it is ready to accept connections.
 */
export async function startXvfb({ fbdir, timeoutMs = 15_000 } = {}) {
  requireCommand('Xvfb', 'xvfb');
  const args = ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'];
  if (fbdir) args.push('-fbdir', fbdir);
  const child = spawnGroup('Xvfb', args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const out = new OutputTail(8_000);
  out.attach(child.stdout, 'Xvfb');
  out.attach(child.stderr, 'Xvfb');
  let fdText = '';
  child.stdio[3].setEncoding('utf8');
  child.stdio[3].on('data', (d) => (fdText += d));
  try {
    const display = await waitFor(
      () => {
        if (!isRunning(child)) throw fatal(`Xvfb exited early (code ${child.exitCode}): ${out}`);
        const m = /^(\d+)\n/.exec(fdText);
        return m ? `:${m[1]}` : null;
      },
      { timeout: timeoutMs, interval: 50, message: 'Xvfb to report its display number' },
    );
    return { child, display, framebuffer: fbdir ? join(fbdir, 'Xvfb_screen0') : null, output: out };
  } catch (err) {
    await stopGroup(child, 1_000);
    throw err;
  }
}

// ---------------------------------------------------------------------------
// D-Bus session bus + gnome-keyring (the app may store secrets via the Secret Service)

/**
 * A private session bus WITHOUT service activation: nothing is auto-started
 * (no portals with FUSE mounts, no a11y bus, no second keyring), so every
 * process on it is one the harness started and can stop.
 */
async function startDbus(dir, env, timeoutMs = 10_000) {
  requireCommand('dbus-daemon', 'dbus');
  const socket = join(dir, 'bus');
  const config = join(dir, 'session.conf');
  await writeFile(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
  );
  const child = spawnGroup('dbus-daemon', [`--config-file=${config}`, '--nofork', '--nopidfile', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const out = new OutputTail(8_000);
  let printed = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (printed += d));
  out.attach(child.stderr, 'dbus');
  try {
    const addr = await waitFor(
      () => {
        if (!isRunning(child)) throw fatal(`dbus-daemon exited early (code ${child.exitCode}): ${out}`);
        const line = printed.split('\n')[0];
        return printed.includes('\n') && line ? line.trim() : null;
      },
      { timeout: timeoutMs, interval: 50, message: 'dbus-daemon to print its address' },
    );
    return { child, address: addr };
  } catch (err) {
    await stopGroup(child, 1_000);
    throw err;
  }
}

function dbusSend(args, env) {
  return spawnSync('dbus-send', ['--session', '--print-reply', ...args], { env, encoding: 'utf8', timeout: 5_000 });
}

/** Unique-name owner's PID of a well-known bus name, or null if unowned. Never auto-starts the service. */
function dbusNameOwnerPid(name, env) {
  const has = dbusSend(
    ['--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
    env,
  );
  if (!(has.status === 0 && /boolean true/.test(has.stdout))) return null;
  const r = dbusSend(
    [
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.GetConnectionUnixProcessID',
      `string:${name}`,
    ],
    env,
  );
  const m = r.status === 0 && /uint32 (\d+)/.exec(r.stdout);
  return m ? Number(m[1]) : null;
}

/** Object path of the Secret Service "default" collection, or null ("/" = no default yet). */
function secretServiceDefaultCollection(env) {
  const r = dbusSend(
    ['--dest=org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service.ReadAlias', 'string:default'],
    env,
  );
  const m = r.status === 0 && /object path "([^"]+)"/.exec(r.stdout);
  return m && m[1] !== '/' ? m[1] : null;
}

// Any non-empty password: with an empty one gnome-keyring does not create the
// "login" collection, and the Secret Service then has no default collection.
const KEYRING_PASSWORD = 'gatehouse-e2e';

/**
 * Starts gnome-keyring-daemon (secrets component) on the private bus, with a
 * fresh, unlocked "login" keyring (under $XDG_DATA_HOME) as the default collection.
 */
async function startKeyring(env, timeoutMs = 15_000) {
  if (!which('gnome-keyring-daemon')) {
    log('gnome-keyring-daemon not found: the app will have no Secret Service (apt: gnome-keyring)');
    return null;
  }
  requireCommand('dbus-send', 'dbus');
  const child = spawnGroup(
    'gnome-keyring-daemon',
    ['--foreground', '--components=secrets', '--unlock'],
    { stdio: ['pipe', 'pipe', 'pipe'], env },
  );
  const out = new OutputTail(8_000);
  out.attach(child.stdout, 'keyring');
  out.attach(child.stderr, 'keyring');
  child.stdin.end(KEYRING_PASSWORD); // --unlock reads the login keyring password from stdin
  try {
    const collection = await waitFor(
      () => {
        if (!isRunning(child)) throw fatal(`gnome-keyring-daemon exited early (code ${child.exitCode}): ${out}`);
        // Only talk to org.freedesktop.secrets once our daemon owns it: a call to
        // an unowned name makes dbus-daemon auto-start a second, locked keyring.
        const owner = dbusNameOwnerPid('org.freedesktop.secrets', env);
        if (owner === null) return null;
        if (owner !== child.pid) {
          throw fatal(`org.freedesktop.secrets is owned by pid ${owner}, not our gnome-keyring-daemon (${child.pid})`);
        }
        return secretServiceDefaultCollection(env);
      },
      { timeout: timeoutMs, interval: 200, message: 'gnome-keyring to serve a default Secret Service collection' },
    );
    return { child, collection, output: out };
  } catch (err) {
    await stopGroup(child, 1_000);
    throw err;
  }
}

// ---------------------------------------------------------------------------
// tauri-driver

async function startTauriDriver(tauriDriver, env, logFile, timeoutMs = 30_000) {
  requireCommand('WebKitWebDriver', 'webkit2gtk-driver');
  const [port, nativePort] = await distinctFreePorts(2);
  const child = spawnGroup(tauriDriver, ['--port', String(port), '--native-port', String(nativePort)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  // stderr carries WebKitWebDriver's and the app's stderr too (inherited).
  const out = new OutputTail(40_000, logFile);
  out.attach(child.stdout, 'tauri-driver');
  out.attach(child.stderr, 'tauri-driver');
  const url = `http://127.0.0.1:${port}`;
  try {
    const status = await waitFor(
      async () => {
        if (!isRunning(child)) throw fatal(`tauri-driver exited early (code ${child.exitCode}): ${out}`);
        return await WebDriverSession.status(url);
      },
      { timeout: timeoutMs, interval: 200, message: `tauri-driver to answer GET ${url}/status` },
    );
    return { child, url, port, nativePort, status, output: out };
  } catch (err) {
    await stopGroup(child, 2_000);
    throw err;
  }
}

// ---------------------------------------------------------------------------
// Xvfb framebuffer → PNG (fallback screenshot when WebDriver can't take one)

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function maskShift(mask) {
  let s = 0;
  while (mask && !(mask & 1)) {
    mask >>>= 1;
    s++;
  }
  return s;
}

/** Converts an XWD (ZPixmap, 32 bpp) image, as written by `Xvfb -fbdir`, to PNG. */
export function xwdToPng(xwd) {
  const h = (i) => xwd.readUInt32BE(i * 4);
  const headerSize = h(0);
  const [format, width, height, byteOrder, bpp, bytesPerLine] = [h(2), h(4), h(5), h(7), h(11), h(12)];
  const [rMask, gMask, bMask] = [h(14), h(15), h(16)];
  const ncolors = h(19);
  if (format !== 2 || bpp !== 32) throw new Error(`unsupported XWD (format ${format}, ${bpp} bpp)`);
  const data = headerSize + ncolors * 12;
  const [rs, gs, bs] = [maskShift(rMask), maskShift(gMask), maskShift(bMask)];
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const off = data + y * bytesPerLine + x * 4;
      const px = byteOrder === 0 ? xwd.readUInt32LE(off) : xwd.readUInt32BE(off);
      const o = row + 1 + x * 3;
      raw[o] = (px & rMask) >>> rs;
      raw[o + 1] = (px & gMask) >>> gs;
      raw[o + 2] = (px & bMask) >>> bs;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------
// the app

/**
 * Launches the Gatehouse app under WebDriver. Resolves to an `App` handle.
 * Call `app.close()` in `after` (it is also safe if launch failed half-way:
 * launchApp cleans up itself before rejecting).
 */
export async function launchApp({ sessionTimeoutMs = 90_000, env: extraEnv = {}, args = [], appPath, browserName = 'wry', waitForLoad = true } = {}) {
  const app = new App();
  try {
    await app.start({ sessionTimeoutMs, extraEnv, args, appPath, browserName, waitForLoad });
    return app;
  } catch (err) {
    await app.screenshot('launch-failure').catch(() => {});
    await app.close();
    const tail = app.driver ? `\n--- tauri-driver/WebKitWebDriver/app output (tail) ---\n${app.driver.output}` : '';
    err.message += tail;
    throw err;
  }
}

const liveApps = new Set();
function killAllSync() {
  for (const app of liveApps) app.killSync();
}
process.once('exit', killAllSync);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    killAllSync();
    process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig] ?? 0));
  });
}

export class App {
  constructor() {
    this.runId = randomUUID();
    this.marker = `GATEHOUSE_E2E_RUN=${this.runId}`;
    this.closed = false;
    liveApps.add(this);
  }

  async start({ sessionTimeoutMs, extraEnv, args, appPath, browserName, waitForLoad }) {
    this.appPath = appPath ?? resolveAppPath();
    const tauriDriver = resolveTauriDriver();
    await mkdir(ARTIFACTS_DIR, { recursive: true });

    this.tmp = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-'));
    this.dataDir = join(this.tmp, 'data');
    const xdg = {
      XDG_CONFIG_HOME: join(this.tmp, 'xdg', 'config'),
      XDG_DATA_HOME: join(this.tmp, 'xdg', 'data'),
      XDG_CACHE_HOME: join(this.tmp, 'xdg', 'cache'),
      XDG_STATE_HOME: join(this.tmp, 'xdg', 'state'),
      XDG_RUNTIME_DIR: join(this.tmp, 'xdg', 'runtime'),
    };
    for (const d of [this.dataDir, ...Object.values(xdg), join(this.tmp, 'fb'), join(this.tmp, 'dbus')]) {
      await mkdir(d, { recursive: true });
    }
    await chmod(xdg.XDG_RUNTIME_DIR, 0o700);

    // Environment inherited by tauri-driver → WebKitWebDriver → the app → MCP servers.
    const env = {
      ...process.env,
      ...xdg,
      GATEHOUSE_DATA_DIR: this.dataDir,
      GATEHOUSE_E2E_RUN: this.runId, // marker used to sweep stray processes on close
      NO_AT_BRIDGE: '1', // no accessibility bus warnings/delays
      GTK_A11Y: 'none',
      ...extraEnv,
    };

    if (!process.env.DISPLAY || process.env.GATEHOUSE_E2E_XVFB === '1') {
      this.xvfb = await startXvfb({ fbdir: join(this.tmp, 'fb') });
      env.DISPLAY = this.xvfb.display;
      delete env.WAYLAND_DISPLAY;
      env.GDK_BACKEND = 'x11';
      log(`Xvfb started on ${this.xvfb.display}`);
    }

    if (process.env.GATEHOUSE_E2E_HOST_DBUS !== '1') {
      this.dbus = await startDbus(join(this.tmp, 'dbus'), env);
      env.DBUS_SESSION_BUS_ADDRESS = this.dbus.address;
      this.keyring = await startKeyring(env);
      log(`private D-Bus session; Secret Service default collection: ${this.keyring?.collection ?? 'none'}`);
    }

    this.env = env;
    this.driverLog = join(ARTIFACTS_DIR, 'tauri-driver.log');
    await writeFile(this.driverLog, `# ${new Date().toISOString()} app=${this.appPath}\n`);
    this.driver = await startTauriDriver(tauriDriver, env, this.driverLog);
    log(`tauri-driver on ${this.driver.url} (native ${this.driver.nativePort})`);

    // tauri-driver 2.x turns tauri:options {application, args} into
    // webkitgtk:browserOptions {binary, args} for WebKitWebDriver, which
    // launches the app. WebKitWebDriver waits for the app's automation
    // connection indefinitely, so watch the app process and give up early
    // when it is not running (crashed at startup) instead of waiting for the
    // full session timeout.
    const appExe = realpathSync(this.appPath);
    const abort = new AbortController();
    const started = Date.now();
    let lastAlive = started;
    const watchdog = setInterval(() => {
      if (processAlive(appExe, this.marker)) lastAlive = Date.now();
      else if (Date.now() - lastAlive > APP_GONE_MS) {
        abort.abort(
          new Error(
            `the app (${this.appPath}) is not running ${Math.round((Date.now() - started) / 1000)} s after ` +
              `the session request: it exited or crashed during startup (its output is in ${this.driverLog})`,
          ),
        );
      }
    }, 250);
    try {
      this.session = await WebDriverSession.create(
        this.driver.url,
        {
          capabilities: {
            alwaysMatch: {
              ...(browserName ? { browserName } : {}),
              'tauri:options': { application: this.appPath, args },
            },
          },
        },
        { timeoutMs: sessionTimeoutMs, signal: abort.signal },
      );
    } finally {
      clearInterval(watchdog);
    }
    log(`WebDriver session ${this.session.sessionId}`);

    if (!waitForLoad) return;
    await waitFor(
      async () => {
        const state = await this.session.executeScript(
          'return document.readyState === "complete" && !!document.body && document.body.childElementCount > 0;',
        );
        return state === true;
      },
      { timeout: 30_000, interval: 250, message: 'the app webview to finish loading' },
    );
  }

  /** Polls for the first element matching `css` and returns it. */
  waitForElement(css, { timeout = 15_000, interval = 250, message } = {}) {
    return waitFor(
      async () => {
        const els = await this.session.findElements(css);
        return els.length ? els[0] : null;
      },
      { timeout, interval, message: message ?? `element ${css}` },
    );
  }

  /** Lets the webview paint the latest DOM state (two animation frames + a short pause). */
  async settle() {
    if (this.session) {
      await this.session
        .executeAsyncScript(
          'const done = arguments[arguments.length - 1];' +
            'requestAnimationFrame(() => requestAnimationFrame(() => done(true)));',
          [],
          { timeoutMs: 3_000 },
        )
        .catch(() => {});
    }
    await sleep(300);
  }

  /**
   * Saves a screenshot into tests/e2e/artifacts/<name>.png and resolves to its path.
   *
   * When the harness owns the Xvfb server the picture is the X framebuffer
   * (the whole screen: the real window as a person would see it), because
   * WebKitWebDriver's own screenshot under Xvfb was seen to lag behind the DOM
   * (blank, or missing the last click), and to hang when
   * WEBKIT_DISABLE_DMABUF_RENDERER / WEBKIT_DISABLE_COMPOSITING_MODE is set
   * (WebKitGTK 2.50). Otherwise (DISPLAY given, or
   * GATEHOUSE_E2E_SCREENSHOT=webdriver) it is the WebDriver screenshot of the
   * webview, with the framebuffer as fallback.
   */
  async screenshot(name) {
    const file = join(ARTIFACTS_DIR, `${name}.png`);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    const fb = this.xvfb?.framebuffer;
    const preferWebDriver = !fb || process.env.GATEHOUSE_E2E_SCREENSHOT === 'webdriver';
    await this.settle();
    if (this.session && preferWebDriver) {
      try {
        await this.session.saveScreenshot(file);
        return file;
      } catch (err) {
        log(`WebDriver screenshot failed (${err.message}); falling back to the Xvfb framebuffer`);
      }
    }
    if (fb && existsSync(fb)) {
      await writeFile(file, xwdToPng(readFileSync(fb)));
      return file;
    }
    if (this.session && !preferWebDriver) {
      await this.session.saveScreenshot(file);
      return file;
    }
    throw new Error(`could not take screenshot ${name}: no WebDriver session and no Xvfb framebuffer`);
  }

  /** Best-effort failure evidence: screenshot + page source. Never throws. */
  async captureFailure(name) {
    const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 80);
    const saved = [];
    try {
      saved.push(await this.screenshot(`failure-${safe}`));
    } catch (err) {
      log(`failure screenshot failed: ${err.message}`);
    }
    if (this.session) {
      try {
        const html = await this.session.getPageSource();
        const file = join(ARTIFACTS_DIR, `failure-${safe}.html`);
        await writeFile(file, html);
        saved.push(file);
      } catch (err) {
        log(`page source capture failed: ${err.message}`);
      }
    }
    if (saved.length) log(`failure artifacts: ${saved.join(', ')}`);
    return saved;
  }

  /** Runs `fn`; if it throws, captures failure artifacts named after `name`, then rethrows. */
  async withFailureCapture(name, fn) {
    try {
      return await fn();
    } catch (err) {
      await this.captureFailure(name);
      throw err;
    }
  }

  /** Tears everything down. Idempotent; never throws. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    if (this.session) {
      await this.session.delete().catch((err) => log(`delete session: ${err.message}`));
      this.session = null;
    }
    await stopGroup(this.driver?.child, 5_000);
    await this.driver?.output?.pending;
    // The app or its MCP servers may have left the process group: sweep by env marker.
    for (const pid of pidsWithEnv(this.marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await stopGroup(this.keyring?.child, 2_000);
    await stopGroup(this.dbus?.child, 2_000);
    await stopGroup(this.xvfb?.child, 2_000);
    if (this.tmp && process.env.GATEHOUSE_E2E_KEEP_TMP !== '1') {
      unmountUnder(this.tmp);
      await rm(this.tmp, { recursive: true, force: true }).catch((err) => log(`could not remove ${this.tmp}: ${err.message}`));
    } else if (this.tmp) {
      log(`kept temp dir ${this.tmp}`);
    }
    liveApps.delete(this);
  }

  /** Synchronous last-resort cleanup (process exit / signals). */
  killSync() {
    if (this.closed && !liveApps.has(this)) return;
    for (const c of [this.driver?.child, this.keyring?.child, this.dbus?.child, this.xvfb?.child]) {
      if (c?.pid) killGroup(c.pid, 'SIGKILL');
    }
    for (const pid of pidsWithEnv(this.marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    if (this.tmp && process.env.GATEHOUSE_E2E_KEEP_TMP !== '1') {
      try {
        unmountUnder(this.tmp);
        rmSync(this.tmp, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    }
  }
}


// An agent's `gatehouse mcp` with no engine running, on a desktop where the person has
// Gatehouse start at login: it starts the app hidden in the tray (not `gatehouse serve`), waits
// for it, and the agent gets the person's servers' tools through it. The app runs with no window
// (no WebKit process) until the person opens it. Runs the real app and CLI under Xvfb with a
// private session bus; no WebDriver: there is no window to drive.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { resolveAppPath, SERVER_EVERYTHING_ENTRY } from './locations.mjs';
import { childrenOf, killPidsWithEnv, spawnGroup, stopGroup } from './processes.mjs';
import { createRunDir, removeRunDir } from './run-dir.mjs';
import { startDbus, startKeyring } from './session-bus.mjs';
import { waitFor } from './wait-for.mjs';
import { startXvfb } from './xvfb.mjs';

/** Runs the CLI to its end with `env`; resolves with its exit code and output. */
function cli(gatehouse, env, args) {
  const child = spawnGroup(gatehouse, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const webkitChildren = (pid) => childrenOf(pid).filter((c) => c.comm.startsWith('WebKit'));

describe('An agent starting Gatehouse (real app, no window)', () => {
  const started = [];
  let run;
  const marker = randomUUID();

  after(async () => {
    for (const child of started.reverse()) await stopGroup(child, 5_000).catch(() => {});
    killPidsWithEnv(`GATEHOUSE_E2E_RUN=${marker}`);
    if (run) await removeRunDir(run.root);
  });

  it('starts the app hidden in the tray for `gatehouse mcp` when the person has it start at login', { timeout: 120_000 }, async () => {
    assert.ok(existsSync(SERVER_EVERYTHING_ENTRY), `server-everything fixture missing at ${SERVER_EVERYTHING_ENTRY}`);
    const appPath = resolveAppPath();
    const gatehouse = join(dirname(appPath), 'gatehouse');
    run = await createRunDir(marker, { GATEHOUSE_APP: appPath });
    const env = run.env;
    const xvfb = await startXvfb({ fbdir: run.fbDir });
    started.push(xvfb.child);
    env.DISPLAY = xvfb.display;
    delete env.WAYLAND_DISPLAY;
    env.GDK_BACKEND = 'x11';
    const dbus = await startDbus(run.dbusDir, env);
    started.push(dbus.child);
    env.DBUS_SESSION_BUS_ADDRESS = dbus.address;
    const keyring = await startKeyring(env);
    if (keyring?.child) started.push(keyring.child);

    const added = await cli(gatehouse, env, ['server', 'add', 'everything', '--command', 'node', '--arg', SERVER_EVERYTHING_ENTRY, '--arg', 'stdio']);
    assert.equal(added.code, 0, `server add: ${added.stderr}`);
    const on = await cli(gatehouse, env, ['autostart', 'on']);
    assert.equal(on.code, 0, `autostart on: ${on.stderr}`);

    // The agent starts `gatehouse mcp`; nothing runs yet.
    const agent = spawnGroup(gatehouse, ['mcp', '--client', 'agent'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    started.push(agent);
    let replies = '';
    agent.stdout.setEncoding('utf8');
    agent.stdout.on('data', (d) => (replies += d));
    const send = (message) => agent.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const reply = (id) =>
      replies
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
        .find((m) => m.id === id);
    await waitFor(async () => reply(1) ?? null, { timeout: 60_000, interval: 100, message: 'the initialize result through the engine it started' });

    const status = await cli(gatehouse, env, ['status', '--json']);
    assert.equal(status.code, 0, `status: ${status.stderr}`);
    const engine = JSON.parse(status.stdout);
    assert.equal(engine.kind, 'app', `the engine started for the agent is the app: ${status.stdout}`);
    assert.deepEqual(webkitChildren(engine.pid), [], 'the app runs hidden: no window, no WebKit process');

    let next = 2;
    await waitFor(
      async () => {
        const id = next++;
        send({ jsonrpc: '2.0', id, method: 'tools/list' });
        const tools = await waitFor(async () => reply(id) ?? null, { timeout: 10_000, interval: 50, message: 'the tools/list result' });
        return tools.result?.tools?.some((t) => t.name === 'everything__echo') ? tools : null;
      },
      { timeout: 30_000, interval: 200, message: "the server's tools reaching the agent" },
    );

    // The agent goes; the app stays in the tray (the person quits it there).
    agent.stdin.end();
    await waitFor(async () => agent.exitCode !== null, { timeout: 15_000, interval: 100, message: '`gatehouse mcp` to end with its stdin' });
    assert.ok(existsSync(`/proc/${engine.pid}`), 'the app keeps running in the tray');
    process.kill(engine.pid, 'SIGTERM');
    await waitFor(async () => !existsSync(`/proc/${engine.pid}`) || readFileSync(`/proc/${engine.pid}/stat`, 'utf8').includes(') Z'), {
      timeout: 20_000,
      interval: 100,
      message: 'the app to quit on SIGTERM',
    });
  });
});

// The private D-Bus session bus of the e2e harness, with gnome-keyring on it.
//
// The app may store secrets through the Secret Service. Giving it a private
// bus and a fresh, unlocked keyring keeps those calls away from the caller's
// own keyring and stops them blocking on an unlock prompt.
// (GATEHOUSE_E2E_HOST_DBUS=1 skips all this; see launch-app.mjs.)

import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { which, requireCommand } from './locations.mjs';
import { log, OutputTail } from './log.mjs';
import { spawnGroup, waitUntilReady } from './processes.mjs';
import { fatal } from './wait-for.mjs';

/**
 * A private session bus WITHOUT service activation: nothing is auto-started
 * (no portals with FUSE mounts, no a11y bus, no second keyring), so every
 * process on it is one the harness started and can stop.
 */
export async function startDbus(dir, env, timeoutMs = 10_000) {
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
  const address = await waitUntilReady(child, {
    name: 'dbus-daemon',
    output: out,
    probe: () => {
      const line = printed.split('\n')[0];
      return printed.includes('\n') && line ? line.trim() : null;
    },
    timeout: timeoutMs,
    interval: 50,
    message: 'dbus-daemon to print its address',
  });
  return { child, address };
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
 * Resolves to null (the app then has no Secret Service) when it is not installed.
 */
export async function startKeyring(env, timeoutMs = 15_000) {
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
  const collection = await waitUntilReady(child, {
    name: 'gnome-keyring-daemon',
    output: out,
    probe: () => {
      // Only talk to org.freedesktop.secrets once our daemon owns it: a call to
      // an unowned name makes dbus-daemon auto-start a second, locked keyring.
      const owner = dbusNameOwnerPid('org.freedesktop.secrets', env);
      if (owner === null) return null;
      if (owner !== child.pid) {
        throw fatal(`org.freedesktop.secrets is owned by pid ${owner}, not our gnome-keyring-daemon (${child.pid})`);
      }
      return secretServiceDefaultCollection(env);
    },
    timeout: timeoutMs,
    interval: 200,
    message: 'gnome-keyring to serve a default Secret Service collection',
  });
  return { child, collection, output: out };
}

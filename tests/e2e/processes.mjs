// Child processes of the e2e harness.
//
// Every process the harness starts gets its own process group, so the whole
// tree below it can be signalled. `waitUntilReady` waits for a started
// daemon to be usable (and stops it if it dies or never gets there);
// `stopGroup` stops a group politely, then by force. Processes that left
// their group (the app, its MCP servers) are found through /proc by the
// run's environment marker, "GATEHOUSE_E2E_RUN=<uuid>".

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import { waitFor, fatal } from './wait-for.mjs';

/** Spawns in a new process group so the whole tree can be signalled. */
export function spawnGroup(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { ...opts, detached: true });
  child.exited = once(child, 'exit').catch(() => {});
  child.on('error', () => {}); // reported via exitCode / spawn checks
  return child;
}

export function isRunning(child) {
  return child && child.exitCode === null && child.signalCode === null;
}

/** Signals the process group led by `pid` (or, failing that, the process alone). */
export function killGroup(pid, signal) {
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
export async function stopGroup(child, graceMs = 5_000) {
  if (!child?.pid) return;
  if (isRunning(child)) {
    killGroup(child.pid, 'SIGTERM');
    await Promise.race([child.exited, sleep(graceMs)]);
  }
  // Always sweep the group: grandchildren may outlive the leader.
  killGroup(child.pid, 'SIGKILL');
}

/**
 * Polls `probe` until it returns a truthy value (which is returned), failing
 * at once if `child` exits first (the error carries `output`, the child's
 * OutputTail). On any failure the child's group is stopped before rethrowing.
 */
export async function waitUntilReady(child, { name, output, probe, timeout, interval, message, graceMs = 1_000 }) {
  try {
    return await waitFor(
      async () => {
        if (!isRunning(child)) throw fatal(`${name} exited early (code ${child.exitCode}): ${output}`);
        return await probe();
      },
      { timeout, interval, message },
    );
  } catch (err) {
    await stopGroup(child, graceMs);
    throw err;
  }
}

/** PIDs of all processes, or null when /proc cannot be read (not Linux). */
function allPids() {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return null;
  }
}

/** Whether process `pid`'s environment contains `marker` (exact "KEY=VALUE" entry). Throws if unreadable. */
function hasEnvEntry(pid, marker) {
  return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker);
}

/** PIDs of processes (other than this one) whose environment contains `marker`. */
function pidsWithEnv(marker) {
  const pids = [];
  for (const pid of allPids() ?? []) {
    if (pid === process.pid) continue;
    try {
      if (hasEnvEntry(pid, marker)) pids.push(pid);
    } catch {
      /* gone or not ours */
    }
  }
  return pids;
}

/** SIGKILLs every process whose environment contains `marker`, wherever it is in the process tree. */
export function killPidsWithEnv(marker) {
  for (const pid of pidsWithEnv(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** PIDs of live (non-zombie) processes with `marker` in their environment whose command line contains `needle`. */
export function pidsRunning(marker, needle) {
  return pidsWithEnv(marker).filter((pid) => {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ').at(-1)?.[0];
      return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(needle);
    } catch {
      return false; // gone
    }
  });
}

/** Whether a live (non-zombie) process runs `exe` with `marker` in its environment. */
export function processAlive(exe, marker) {
  const pids = allPids();
  if (!pids) return true; // cannot tell: assume alive
  for (const pid of pids) {
    try {
      if (readlinkSync(`/proc/${pid}/exe`) !== exe) continue;
      if (hasEnvEntry(pid, marker)) return true;
    } catch {
      /* gone, zombie, or not readable */
    }
  }
  return false;
}

/** The children of `pid`: `{ pid, comm }` from /proc. */
export function childrenOf(pid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    if (ppid === pid) out.push({ pid: Number(entry), comm });
  }
  return out;
}

// The official TypeScript MCP SDK client, timed the same way gatehouse-bench times the others:
// connect with `Client` + `StdioClientTransport` to the echo server, make `warmup` untimed calls,
// then `calls` sequential `tools/call` requests (one in flight at a time), each timed with
// `process.hrtime.bigint()`, with the process's CPU time (`process.cpuUsage()`, user + system)
// over the timed loop. With <pipelined> and <window>, it then makes at least <pipelined> calls in
// windows of <window> calls in flight at once on the same connection (`Promise.all`), after
// <warmup> untimed calls in windows too, timed as a whole. Prints one JSON line on stdout:
//   {"sdk": "<version>", "samples_ns": [..], "elapsed_ns": N, "cpu_us": N,
//    "pipelined": {"calls": N, "elapsed_ns": N, "cpu_us": N} | null}
// and exits non-zero with a message on stderr if anything fails.
//
// Usage: node bench.mjs <echo-binary-path> <calls> <warmup> [<pipelined> <window>]
//
// Instead of the echo binary, the client can connect as the gateway benchmark needs
// (benches/src/gateway_bench.rs), set in the environment (a token never on the command line):
//   BENCH_COMMAND  JSON `{"command": "...", "args": [...]}`: a stdio server started that way;
//   BENCH_URL      a Streamable HTTP endpoint, with BENCH_TOKEN as its bearer token if set;
//   BENCH_TOOL     the echo tool's name there (default `echo`);
//   BENCH_WATCH_PIDS  comma-separated pids of other processes whose CPU to count;
//   BENCH_KEEP_IN_FLIGHT  `1`: the pipelined run keeps <window> calls in flight, starting one as
//                     one ends, instead of windows awaited together.
// The report then also has "peer_ticks": the stdio server process's CPU clock ticks (utime +
// stime from /proc/PID/stat) over the timed sequential loop, "watched_ticks" those of the
// watched processes together over the same loop, and the pipelined run its absolute
// "started_ms" and "ended_ms" (performance.timeOrigin + performance.now()) and, with
// BENCH_KEEP_IN_FLIGHT, each call's end, "done_ms", so that runs of several clients at once can
// be put on one time line.

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function fail(message) {
  process.stderr.write(`bench.mjs: ${message}\n`);
  process.exit(1);
}

function count(text, name) {
  const n = Number.parseInt(text ?? "", 10);
  if (!Number.isInteger(n) || n < 0) fail(`${name} must be a non-negative integer, got ${text}`);
  return n;
}

function sdkVersion() {
  try {
    const url = new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url);
    return JSON.parse(readFileSync(url, "utf8")).version;
  } catch {
    return "unknown";
  }
}

const [echo, callsArg, warmupArg, pipelinedArg, windowArg] = process.argv.slice(2);
if (!echo) fail("usage: node bench.mjs <echo-binary-path> <calls> <warmup> [<pipelined> <window>]");
const calls = count(callsArg, "calls");
const warmup = count(warmupArg, "warmup");
const pipelined = pipelinedArg === undefined ? 0 : count(pipelinedArg, "pipelined");
const window = windowArg === undefined ? 64 : Math.max(1, count(windowArg, "window"));

function cpuSince(start) {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

function transportFromEnv() {
  const url = process.env.BENCH_URL;
  if (url) {
    const token = process.env.BENCH_TOKEN;
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  }
  let spawn = { command: echo, args: [] };
  if (process.env.BENCH_COMMAND) {
    try {
      spawn = JSON.parse(process.env.BENCH_COMMAND);
    } catch (e) {
      fail(`BENCH_COMMAND is not JSON: ${e.message}`);
    }
  }
  return new StdioClientTransport({ command: spawn.command, args: spawn.args ?? [], stderr: "inherit" });
}

// The stdio server process's CPU clock ticks so far (Linux), or null.
function peerTicks() {
  return transport.pid ? ticksOf(transport.pid) : null;
}

const watched = (process.env.BENCH_WATCH_PIDS ?? "").split(",").filter((p) => p !== "");

// The watched processes' CPU clock ticks so far, or null when one cannot be read.
function watchedTicks() {
  let sum = 0;
  for (const pid of watched) {
    const ticks = ticksOf(pid);
    if (ticks === null) return null;
    sum += ticks;
  }
  return watched.length === 0 ? null : sum;
}

function ticksOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function now() {
  return performance.timeOrigin + performance.now();
}

const client = new Client({ name: "gatehouse-bench-ts", version: "0.0.0" });
const transport = transportFromEnv();
await client.connect(transport);
await client.listTools();

const request = { name: process.env.BENCH_TOOL || "echo", arguments: { message: "hello" } };
async function call() {
  const result = await client.callTool(request);
  if (result.content?.[0]?.text !== "hello") fail(`unexpected result: ${JSON.stringify(result)}`);
}

for (let i = 0; i < warmup; i++) await call();

const samples = new Array(calls);
const ticksStart = peerTicks();
const watchedStart = watchedTicks();
const cpuStart = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < calls; i++) {
  const t0 = process.hrtime.bigint();
  await call();
  samples[i] = Number(process.hrtime.bigint() - t0);
}
const elapsed = Number(process.hrtime.bigint() - started);
const cpu = cpuSince(cpuStart);
const ticksEnd = peerTicks();
const watchedEnd = watchedTicks();

const keepInFlight = process.env.BENCH_KEEP_IN_FLIGHT === "1";

// Makes at least `n` calls (a whole number of windows) with `window` in flight, noting when each
// ends in `done` if given.
async function windows(n, done) {
  const total = Math.ceil(n / window) * window;
  const timed = async () => {
    await call();
    if (done) done.push(Math.round(now() * 100) / 100);
  };
  if (keepInFlight) {
    let started = 0;
    const lane = async () => {
      while (started < total) {
        started++;
        await timed();
      }
    };
    await Promise.all(Array.from({ length: window }, lane));
  } else {
    for (let r = 0; r < total / window; r++) {
      await Promise.all(Array.from({ length: window }, timed));
    }
  }
  return total;
}

let inFlight = null;
if (pipelined > 0) {
  await windows(warmup);
  const pipeCpu = process.cpuUsage();
  const startedMs = now();
  const pipeStarted = process.hrtime.bigint();
  // Each call's end only where runs of several clients are lined up (BENCH_KEEP_IN_FLIGHT):
  // the pipelined comparison with crates/mcp pays for no extra work per call.
  const done = keepInFlight ? [] : null;
  const made = await windows(pipelined, done);
  inFlight = {
    calls: made,
    elapsed_ns: Number(process.hrtime.bigint() - pipeStarted),
    cpu_us: cpuSince(pipeCpu),
    started_ms: startedMs,
    ended_ms: now(),
    done_ms: done ?? [],
  };
}

await client.close();
const report = {
  sdk: sdkVersion(),
  samples_ns: samples,
  elapsed_ns: elapsed,
  cpu_us: cpu,
  pipelined: inFlight,
  peer_ticks: ticksStart === null || ticksEnd === null ? null : ticksEnd - ticksStart,
  watched_ticks: watchedStart === null || watchedEnd === null ? null : watchedEnd - watchedStart,
};
process.stdout.write(`${JSON.stringify(report)}\n`);

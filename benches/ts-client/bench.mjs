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

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

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

const client = new Client({ name: "gatehouse-bench-ts", version: "0.0.0" });
const transport = new StdioClientTransport({ command: echo, args: [], stderr: "inherit" });
await client.connect(transport);
await client.listTools();

const request = { name: "echo", arguments: { message: "hello" } };
async function call() {
  const result = await client.callTool(request);
  if (result.content?.[0]?.text !== "hello") fail(`unexpected result: ${JSON.stringify(result)}`);
}

for (let i = 0; i < warmup; i++) await call();

const samples = new Array(calls);
const cpuStart = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < calls; i++) {
  const t0 = process.hrtime.bigint();
  await call();
  samples[i] = Number(process.hrtime.bigint() - t0);
}
const elapsed = Number(process.hrtime.bigint() - started);
const cpu = cpuSince(cpuStart);

async function windows(n) {
  const rounds = Math.ceil(n / window);
  for (let r = 0; r < rounds; r++) {
    await Promise.all(Array.from({ length: window }, call));
  }
  return rounds * window;
}

let inFlight = null;
if (pipelined > 0) {
  await windows(warmup);
  const pipeCpu = process.cpuUsage();
  const pipeStarted = process.hrtime.bigint();
  const made = await windows(pipelined);
  inFlight = {
    calls: made,
    elapsed_ns: Number(process.hrtime.bigint() - pipeStarted),
    cpu_us: cpuSince(pipeCpu),
  };
}

await client.close();
const report = {
  sdk: sdkVersion(),
  samples_ns: samples,
  elapsed_ns: elapsed,
  cpu_us: cpu,
  pipelined: inFlight,
};
process.stdout.write(`${JSON.stringify(report)}\n`);

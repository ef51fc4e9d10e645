#!/usr/bin/env bash
# Run server scenarios of the official MCP conformance suite, twice each:
#   direct   against the fixture server (tests/fixtures/conformance-server/server.mjs) on its own
#            Streamable HTTP endpoint;
#   gateway  against Gatehouse's HTTP endpoint, with that fixture registered in Gatehouse as a
#            stdio server (`fixture`, which speaks 2025-era MCP there) and seen by a client
#            `conformance` (no name prefix, every request allowed) whose token is in the
#            endpoint's path (the runner sends no custom headers). A row marked `http` in
#            server-scenarios.txt goes instead to a client `conformance26` that sees only
#            `fixture26`: another copy of the fixture registered over Streamable HTTP, where
#            Gatehouse speaks 2026-07-28 with it (its input requests, tasks and headers).
#
#   tests/conformance/server-run.sh                  # the scenarios listed in server-scenarios.txt
#   tests/conformance/server-run.sh tools-list ping  # just these
#   tests/conformance/server-run.sh tools-list@2026-07-28  # this one at that protocol revision
#   tests/conformance/server-run.sh --all            # every server scenario the suite lists
#   tests/conformance/server-run.sh --check          # CI: exit 1 only when a scenario that
#                                                    # server-scenarios.txt says passes fails
# Options (before the scenario names): --direct or --gateway runs one phase only.
#
# Each run's output lands in tests/conformance/results/server/<phase>/<scenario>/ (checks.json,
# runner.log), the client's token replaced by <token>.
#
# Environment:
#   GATEHOUSE_BIN             the gatehouse binary (default: $CARGO_TARGET_DIR or <repo>/target,
#                             + /debug/gatehouse)
#   CONFORMANCE_TIMEOUT_MS    per-scenario timeout (default 15000; a passing one takes a few seconds)
#   VERBOSE=1                 print the suite's console output after each scenario
#
# The script runs itself under scripts/with-keyring.sh: the gateway phase keeps the client's
# token in a private keyring that ends with the run.
#
# Prints one PASS/FAIL/SKIP line per scenario and phase (the checks' counts and how long it took),
# then the counts per phase. Exits 1 if a scenario failed (with --check: if a scenario expected to
# pass failed), 2 on a setup error.
set -uo pipefail

INVOKED_FROM=$PWD
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RESULTS="$HERE/results/server"
NODE="$HERE/node_modules/.bin/node"
SUITE="$HERE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
FIXTURE="$REPO/tests/fixtures/conformance-server/server.mjs"
EXPECTED="$HERE/server-scenarios.txt"
TIMEOUT_MS=${CONFORMANCE_TIMEOUT_MS:-15000}

die() { echo "server-run.sh: $*" >&2; exit 2; }
usage() { sed -n '2,31p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

# The client's token goes to a private keyring, never the person's own.
if [ -z "${GATEHOUSE_SERVER_RUN_KEYRING:-}" ] && [[ " $* " != *" --help "* && " $* " != *" -h "* ]]; then
  GATEHOUSE_SERVER_RUN_KEYRING=1 exec "$REPO/scripts/with-keyring.sh" "${BASH_SOURCE[0]}" "$@"
fi

[ -x "$NODE" ] && [ -f "$SUITE" ] || die "the suite is not installed: cd tests/conformance && npm ci"
node_version=$("$NODE" --version 2>/dev/null) || die "cannot run $NODE"
case "$node_version" in v22.*) ;; *) die "expected node 22 from the 'node' package, got $node_version" ;; esac
command -v node >/dev/null || die "node (for the fixture server) is not on PATH"
command -v curl >/dev/null || die "curl is needed"

target_dir=${CARGO_TARGET_DIR:-$REPO/target}
case "$target_dir" in /*) ;; *) target_dir="$INVOKED_FROM/$target_dir" ;; esac
GATEHOUSE_BIN=${GATEHOUSE_BIN:-$target_dir/debug/gatehouse}

# ---------------------------------------------------------------- arguments
phases=(direct gateway) check="" all="" scenarios=()
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --direct) phases=(direct) ;;
    --gateway) phases=(gateway) ;;
    --check) check=1 ;;
    --all) all=1 ;;
    -*) die "unknown option $arg (see --help)" ;;
    *) scenarios+=("$arg") ;;
  esac
done

# server-scenarios.txt: "NAME[@REVISION] DIRECT GATEWAY", each pass, fail or skip (the suite
# skips every check of it); '#' starts a comment.
declare -A expect_direct expect_gateway upstream
listed=()
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%%#*}
  read -r name d g up _ <<<"$line"
  [ -n "${name:-}" ] || continue
  for want in "$d" "$g"; do
    case "$want" in pass|fail|skip) ;; *) die "$EXPECTED: bad line: $line" ;; esac
  done
  case "${up:-}" in ""|http) ;; *) die "$EXPECTED: bad upstream '$up' (only 'http'): $line" ;; esac
  expect_direct[$name]=$d expect_gateway[$name]=$g upstream[$name]=${up:-}
  listed+=("$name")
done < "$EXPECTED"
if [ -n "$all" ]; then
  while IFS= read -r s; do scenarios+=("$s"); done < <(
    "$NODE" "$SUITE" list --server | sed -n 's/^  - \([^ ]*\).*/\1/p')
elif [ ${#scenarios[@]} -eq 0 ]; then
  scenarios=("${listed[@]}")
fi
[ ${#scenarios[@]} -gt 0 ] || die "no scenarios to run"

free_port() {
  "$NODE" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Waits (at most $2 tenths of a second) until "$1" answers on HTTP at all.
wait_http() {
  for _ in $(seq "$2"); do
    curl -s -o /dev/null --max-time 1 "$1" && return 0
    sleep 0.1
  done
  return 1
}

pids=() tmp_dirs=() secret="" secret26=""
cleanup() {
  for p in "${pids[@]+"${pids[@]}"}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" 2>/dev/null; done
  for d in "${tmp_dirs[@]+"${tmp_dirs[@]}"}"; do rm -rf "$d"; done
}
trap cleanup EXIT

# Hides the client's token in what is printed or kept.
hide() {
  if [ -n "$secret" ]; then sed -e "s/$secret/<token>/g" -e "s/${secret26:-$secret}/<token>/g"; else cat; fi
}

summarise() {
  "$NODE" -e '
    const fs = require("fs");
    let checks = [];
    try { checks = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
    const n = (s) => checks.filter((c) => c.status === s).length;
    const bad = [...new Set(checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING")
      .map((c) => (c.status === "WARNING" ? "warn:" : "") + c.id))];
    console.log([n("SUCCESS"), n("FAILURE"), n("WARNING"), n("SKIPPED"), bad.join(",") || "-"].join(" "));
  ' "$1"
}

declare -A verdict
# run_phase PHASE URL: runs every scenario against URL, one at a time.
run_phase() {
  local phase=$1 passed=0 failed=0 skipped=0
  for name in "${scenarios[@]}"; do
    local url=$2
    [ "$phase" = gateway ] && [ "${upstream[$name]:-}" = http ] && url=$3
    local dir="$RESULTS/$phase/$name"
    rm -rf "$dir" && mkdir -p "$dir"
    local tmp
    tmp=$(mktemp -d "$RESULTS/.run.XXXXXX")
    tmp_dirs+=("$tmp")
    # NAME@REVISION runs NAME at that protocol revision (the suite's --spec-version); plain NAME
    # at the suite's default for it (2025-11-25, or 2026-07-28 for what that revision introduced).
    local started=$EPOCHREALTIME spec=()
    [[ "$name" == *@* ]] && spec=(--spec-version "${name#*@}")
    "$NODE" "$SUITE" server --url "$url" --scenario "${name%@*}" "${spec[@]}" --timeout "$TIMEOUT_MS" -o "$tmp" 2>&1 |
      hide >"$dir/runner.log"
    local rc=${PIPESTATUS[0]}
    local took
    took=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }')
    local produced
    produced=$(find "$tmp" -name checks.json -print -quit)
    [ -n "$produced" ] && hide <"$produced" >"$dir/checks.json"
    rm -rf "$tmp"
    [ -n "${VERBOSE:-}" ] && cat "$dir/runner.log"

    if grep -q "^SKIPPED: scenario" "$dir/runner.log"; then
      skipped=$((skipped + 1)) verdict[$phase/$name]=skip
      printf 'SKIP %-8s %-45s %s\n' "$phase" "$name" "$(grep -m1 '^SKIPPED:' "$dir/runner.log" | sed 's/^SKIPPED: //')"
      continue
    fi
    local ok bad warn skip ids
    read -r ok bad warn skip ids < <(summarise "$dir/checks.json")
    local counts="$ok ok, $bad failed, $warn warnings"
    [ "$skip" -gt 0 ] && counts="$counts, $skip skipped"
    counts="$counts; $took"
    # The suite ran the scenario and skipped its every check: nothing passed or failed.
    if [ "$rc" -eq 0 ] && [ "$skip" -gt 0 ] && [ "$ok" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$warn" -eq 0 ]; then
      skipped=$((skipped + 1)) verdict[$phase/$name]=skip
      printf 'SKIP %-8s %-45s (%s: the suite skipped its every check)\n' "$phase" "$name" "$counts"
      continue
    fi
    if [ "$rc" -eq 0 ] && [ "$ok" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$warn" -eq 0 ]; then
      passed=$((passed + 1)) verdict[$phase/$name]=pass
      printf 'PASS %-8s %-45s (%s)\n' "$phase" "$name" "$counts"
    else
      failed=$((failed + 1)) verdict[$phase/$name]=fail
      local detail="($counts)"
      [ "$ids" != "-" ] && detail="$detail $ids"
      [ ! -s "$dir/checks.json" ] && detail="$detail; suite error (see runner.log)"
      printf 'FAIL %-8s %-45s %s -> %s\n' "$phase" "$name" "$detail" "${dir#"$REPO"/}"
    fi
  done
  local summary="$phase: $passed passed, $failed failed"
  [ "$skipped" -gt 0 ] && summary="$summary, $skipped skipped"
  summaries+=("$summary")
}

# ---------------------------------------------------------------- phase: direct
start_direct() {
  local port
  port=$(free_port) || die "no free port"
  node "$FIXTURE" --port "$port" 2>"$RESULTS/direct-fixture.log" &
  pids+=($!)
  wait_http "http://127.0.0.1:$port/mcp" 100 || die "the fixture did not listen on $port"
  direct_url="http://127.0.0.1:$port/mcp"
}

# ---------------------------------------------------------------- phase: gateway
start_gateway() {
  [ -x "$GATEHOUSE_BIN" ] || die "gatehouse not found: $GATEHOUSE_BIN (cargo build -p gatehouse-cli)"
  local data port
  data=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-conformance.XXXXXX")
  tmp_dirs+=("$data")
  gh() { "$GATEHOUSE_BIN" --data-dir "$data" "$@"; }
  port=$(free_port) || die "no free port"
  local fixture_port
  fixture_port=$(free_port) || die "no free port"
  node "$FIXTURE" --port "$fixture_port" 2>"$RESULTS/gateway-fixture26.log" &
  pids+=($!)
  wait_http "http://127.0.0.1:$fixture_port/mcp" 100 || die "the fixture did not listen on $fixture_port"
  gh server add fixture --command node --arg "$FIXTURE" --arg --stdio >/dev/null || die "server add failed"
  gh server add fixture26 --url "http://127.0.0.1:$fixture_port/mcp" >/dev/null || die "server add fixture26 failed"
  gh clients add conformance >/dev/null || die "clients add failed"
  gh clients add conformance26 >/dev/null || die "clients add conformance26 failed"
  gh clients profile conformance --prefix off --server fixture26 off >/dev/null || die "clients profile conformance failed"
  gh clients profile conformance26 --prefix off --server fixture off --ask-person off >/dev/null || die "clients profile conformance26 failed"
  secret=$(gh clients token create conformance 2>/dev/null | grep -o 'ghc_[A-Za-z0-9_-]*' | head -n1)
  [ -n "$secret" ] || die "no token for client conformance"
  secret26=$(gh clients token create conformance26 2>/dev/null | grep -o 'ghc_[A-Za-z0-9_-]*' | head -n1)
  [ -n "$secret26" ] || die "no token for client conformance26"
  gh policy set fixture --source gateway allow >/dev/null || die "policy set failed"
  gh policy set fixture26 --source gateway allow >/dev/null || die "policy set fixture26 failed"
  gh gateway http on --port "$port" >/dev/null || die "gateway http on failed"
  # Nobody is at a window here: what needs the person (a server's elicitation the agent did not
  # declare it can answer) is declined after 2 s instead of the default 5 minutes.
  env -u GATEHOUSE_DATA_DIR GATEHOUSE_APPROVAL_TIMEOUT=2 "$GATEHOUSE_BIN" --data-dir "$data" serve >"$RESULTS/gateway-serve.log" 2>&1 &
  pids+=($!)
  wait_http "http://127.0.0.1:$port/mcp" 300 || die "the gateway did not listen on $port (see ${RESULTS#"$REPO"/}/gateway-serve.log)"
  local connected=""
  for _ in $(seq 300); do
    if [ "$(gh status --json 2>/dev/null | grep -c '"state": *"connected"')" -ge 2 ]; then connected=1; break; fi
    sleep 0.1
  done
  [ -n "$connected" ] || die "the fixtures did not connect in Gatehouse (see gatehouse status)"
  gateway_url="http://127.0.0.1:$port/mcp/c/$secret"
  gateway26_url="http://127.0.0.1:$port/mcp/c/$secret26"
}

mkdir -p "$RESULTS"
summaries=()
echo "==> ${#scenarios[@]} server scenarios x (${phases[*]}): conformance $("$NODE" "$SUITE" --version) on node $node_version"
for phase in "${phases[@]}"; do
  case "$phase" in
    direct) start_direct; run_phase direct "$direct_url" ;;
    gateway) start_gateway; run_phase gateway "$gateway_url" "$gateway26_url" ;;
  esac
done
printf '%s\n' "${summaries[@]}"

# ---------------------------------------------------------------- verdict
status=0 regressions=() news=()
for phase in "${phases[@]}"; do
  for name in "${scenarios[@]}"; do
    got=${verdict[$phase/$name]:-fail}
    if [ "$phase" = direct ]; then want=${expect_direct[$name]:-}; else want=${expect_gateway[$name]:-}; fi
    [ "$got" = pass ] || [ -n "$check" ] || status=1
    # A `pass` that did not pass, or a `skip` the suite now runs and that fails.
    if { [ "$want" = pass ] && [ "$got" != pass ]; } || { [ "$want" = skip ] && [ "$got" = fail ]; }; then
      regressions+=("$phase/$name") status=1
    fi
    if [ "$want" != pass ] && [ "$got" = pass ]; then news+=("$phase/$name"); fi
  done
done
[ ${#regressions[@]} -gt 0 ] && echo "not as server-scenarios.txt expects: ${regressions[*]}"
[ ${#news[@]} -gt 0 ] && echo "now passing (mark them pass in server-scenarios.txt): ${news[*]}"
exit "$status"

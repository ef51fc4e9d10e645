#!/usr/bin/env bash
# Run client scenarios of the official MCP conformance suite against Gatehouse.
#
#   tests/conformance/run.sh                      # the scenarios listed in scenarios.txt
#   tests/conformance/run.sh tools_call sse-retry # just these (name or name@SPEC-VERSION)
#   tests/conformance/run.sh --all                # every client scenario the suite lists
#
# Scenarios run ONE AT A TIME (sse-retry measures reconnect timing, and the suite's own
# --suite mode runs in parallel). Each scenario's output lands in
# tests/conformance/results/<scenario>[@<version>]/:
#   checks.json   the suite's verdicts        stdout.txt / stderr.txt  the client's output
#   runner.log    the suite's console output
#
# Environment:
#   GATEHOUSE_BIN             client binary (default: $CARGO_TARGET_DIR or <repo>/target, + /debug/gatehouse)
#   CONFORMANCE_CLIENT_CMD    whole client command (default: "<GATEHOUSE_BIN> conformance-client");
#                             the suite appends the server URL as the last argument
#   CONFORMANCE_TIMEOUT_MS    per-scenario client timeout (default 30000)
#   CONFORMANCE_FORCE=1       pass --force: run name@VERSION even where the suite says it does not apply
#   CONFORMANCE_ALLOW_EMPTY=1 count a run with no SUCCESS check as PASS (the suite itself does;
#                             by default run.sh does not, see SCENARIOS.md "Sanity run")
#   VERBOSE=1                 print the suite's console output after each scenario
#
# Prints one PASS/FAIL/SKIP line per scenario, then "N passed, N failed" (", N skipped" when
# any were skipped). Exits 1 if any scenario failed, 2 on a setup error.
set -uo pipefail

INVOKED_FROM=$PWD
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RESULTS="$HERE/results"
NODE="$HERE/node_modules/.bin/node"
SUITE="$HERE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
TIMEOUT_MS=${CONFORMANCE_TIMEOUT_MS:-30000}

die() { echo "run.sh: $*" >&2; exit 2; }

usage() { sed -n '2,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

# ---------------------------------------------------------------- install (node 22 + suite)
install_needed() {
  [ -x "$NODE" ] && [ -f "$SUITE" ] || return 0
  # lockfile changed since the last install
  [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.package-lock.json" ] && return 0
  return 1
}
if install_needed; then
  command -v npm >/dev/null || die "npm is needed to install the suite (npm ci in $HERE)"
  echo "==> npm ci (tests/conformance)" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund >&2) || die "npm ci failed in $HERE"
fi
[ -x "$NODE" ] || die "node_modules/.bin/node missing after npm ci"
node_version=$("$NODE" --version 2>/dev/null) || die "cannot run $NODE"
case "$node_version" in v22.*) ;; *) die "expected node 22 from the 'node' package, got $node_version" ;; esac

# ---------------------------------------------------------------- client command
sh_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
if [ -n "${CONFORMANCE_CLIENT_CMD:-}" ]; then
  CLIENT_CMD=$CONFORMANCE_CLIENT_CMD
else
  target_dir=${CARGO_TARGET_DIR:-$REPO/target}
  case "$target_dir" in /*) ;; *) target_dir="$INVOKED_FROM/$target_dir" ;; esac
  GATEHOUSE_BIN=${GATEHOUSE_BIN:-$target_dir/debug/gatehouse}
  # The suite runs `sh -c "<command> <url>"`, so a quoted path survives.
  CLIENT_CMD="$(sh_quote "$GATEHOUSE_BIN") conformance-client"
fi

# ---------------------------------------------------------------- which scenarios
scenarios=()
if [ $# -gt 0 ]; then
  for arg in "$@"; do
    case "$arg" in
      -h|--help) usage; exit 0 ;;
      --all)
        while IFS= read -r s; do scenarios+=("$s"); done < <(
          "$NODE" "$SUITE" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p') ;;
      -*) die "unknown option $arg (see --help)" ;;
      *) scenarios+=("$arg") ;;
    esac
  done
else
  [ -f "$HERE/scenarios.txt" ] || die "no scenarios given and no $HERE/scenarios.txt"
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=$(printf '%s' "$line" | tr -d '[:space:]')
    [ -n "$line" ] && scenarios+=("$line")
  done < "$HERE/scenarios.txt"
fi
[ ${#scenarios[@]} -gt 0 ] || die "no scenarios to run"

if [ -z "${CONFORMANCE_CLIENT_CMD:-}" ] && [ ! -x "$GATEHOUSE_BIN" ]; then
  echo "run.sh: client binary not found: $GATEHOUSE_BIN (build it with: cargo build -p gatehouse-cli)" >&2
  echo "0 passed, ${#scenarios[@]} failed"
  exit 1
fi

# ---------------------------------------------------------------- run
mkdir -p "$RESULTS"
tmp_dirs=()
cleanup() { for d in "${tmp_dirs[@]+"${tmp_dirs[@]}"}"; do rm -rf "$d"; done; }
trap cleanup EXIT

# Summarise a checks.json as "SUCCESS FAILURE WARNING SKIPPED bad-ids".
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

passed=0 failed=0 skipped=0
echo "==> ${#scenarios[@]} conformance scenario runs: conformance $("$NODE" "$SUITE" --version) on node $node_version; client: $CLIENT_CMD <url>"
for entry in "${scenarios[@]}"; do
  name=$entry version=""
  case "$entry" in *@*) name=${entry%%@*} version=${entry#*@} ;; esac
  dir="$RESULTS/$entry"
  rm -rf "$dir" && mkdir -p "$dir"
  tmp=$(mktemp -d "$RESULTS/.run.XXXXXX")
  tmp_dirs+=("$tmp")

  args=(client --command "$CLIENT_CMD" --scenario "$name" --timeout "$TIMEOUT_MS" -o "$tmp")
  [ -n "$version" ] && args+=(--spec-version "$version")
  [ -n "${CONFORMANCE_FORCE:-}" ] && args+=(--force)
  "$NODE" "$SUITE" "${args[@]}" >"$dir/runner.log" 2>&1
  rc=$?

  # The suite writes into <out>/<scenario>-<timestamp>/; flatten that into $dir.
  produced=$(find "$tmp" -name checks.json -print -quit)
  if [ -n "$produced" ]; then
    mv "$(dirname "$produced")"/* "$dir"/ 2>/dev/null
  fi
  rm -rf "$tmp"

  [ -n "${VERBOSE:-}" ] && cat "$dir/runner.log"

  if grep -q "^SKIPPED: scenario" "$dir/runner.log"; then
    skipped=$((skipped + 1))
    printf 'SKIP %-50s %s\n' "$entry" "$(grep -m1 '^SKIPPED:' "$dir/runner.log" | sed 's/^SKIPPED: //')"
    continue
  fi

  read -r ok bad warn skip ids < <(summarise "$dir/checks.json")
  reason=""
  if [ "$rc" -ne 0 ]; then
    if grep -q "CLIENT TIMED OUT" "$dir/runner.log"; then reason="client timed out"
    elif code=$(grep -o "CLIENT EXITED WITH ERROR (code [-0-9]*)" "$dir/runner.log"); then
      reason="client exit code ${code##*code }"; reason=${reason%)}
    elif [ ! -s "$dir/checks.json" ]; then reason="suite error (see runner.log)"
    fi
  elif [ "$ok" -eq 0 ] && [ -z "${CONFORMANCE_ALLOW_EMPTY:-}" ]; then
    rc=1 reason="no SUCCESS check (client did nothing the scenario verifies)"
  fi
  counts="$ok ok, $bad failed, $warn warnings"
  [ "$skip" -gt 0 ] && counts="$counts, $skip skipped"
  if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$warn" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'PASS %-50s (%s)\n' "$entry" "$counts"
  else
    failed=$((failed + 1))
    detail="($counts)"
    [ "$ids" != "-" ] && detail="$detail $ids"
    [ -n "$reason" ] && detail="$detail; $reason"
    printf 'FAIL %-50s %s -> %s\n' "$entry" "$detail" "${dir#"$REPO"/}"
  fi
done

summary="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ "$failed" -eq 0 ]

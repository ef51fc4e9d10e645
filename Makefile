# Gatehouse: the two commands a new user needs are `make run` and `make test`.
# Everything else here is a step of those two, runnable on its own.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
export PATH := $(HOME)/.cargo/bin:$(PATH)

CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
APP := $(TARGET_DIR)/debug/gatehouse-app

.PHONY: run test deps test-deps ui-deps bindings bindings-check ui-build ui-check app \
        fmt-check clippy rust-test ui-test e2e lint conformance conformance-server bench spec-matrix app-memory-check \
        structure architecture-map licences package package-debug package-check

## run: install what is missing, build the UI and the app, and open the window.
run: deps ui-build app
	$(APP)

## test: install test prerequisites, run every lint gate and every test.
test: deps test-deps lint rust-test ui-test app package-check app-memory-check conformance conformance-server e2e
	@echo "==> all checks and tests passed"

deps:
	scripts/install-system-deps.sh

test-deps:
	scripts/install-test-deps.sh

ui-deps:
	@if [ ! -f ui/node_modules/.package-lock.json ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then \
		echo "==> npm ci (ui)"; cd ui && npm ci --no-audit --no-fund; \
	else echo "==> ui/node_modules up to date"; fi

## bindings: regenerate ui/src/bindings/index.ts from the Rust IPC contract.
bindings:
	$(CARGO) run -q -p gatehouse-app --bin gatehouse-bindings

bindings-check:
	@echo "==> IPC bindings drift check"
	$(CARGO) run -q -p gatehouse-app --bin gatehouse-bindings -- --check

ui-build: ui-deps
	@echo "==> UI build"
	cd ui && npm run build

ui-check: ui-deps
	@echo "==> tsc --noEmit and the UI linter"
	cd ui && npm run typecheck && npm run lint

app: ui-build
	@echo "==> app build"
	$(CARGO) build -p gatehouse-app -p gatehouse-cli

fmt-check:
	@echo "==> cargo fmt --check"
	$(CARGO) fmt --all -- --check

## clippy needs the built UI: the app embeds it at compile time.
clippy: ui-build
	@echo "==> cargo clippy"
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## spec-matrix: every test docs/spec-compliance.md and docs/security.md cite must exist (the check first proves itself).
spec-matrix:
	@echo "==> spec compliance matrix"
	python3 scripts/check-spec-matrix.py --self-test && python3 scripts/check-spec-matrix.py

## structure: no import circles between a crate's files, no source file over 500 lines.
structure:
	@echo "==> structure: import circles and long files"
	python3 scripts/check-structure.py --self-test && python3 scripts/check-structure.py

## architecture-map: every path and module docs/ARCHITECTURE.md names exists, and every folder is on it.
architecture-map:
	@echo "==> the map in docs/ARCHITECTURE.md"
	python3 scripts/check-architecture-map.py --self-test && python3 scripts/check-architecture-map.py

## licences: the bundled libraries' licences (About) match Cargo.lock and ui/package-lock.json.
licences:
	@echo "==> the bundled libraries' licences"
	python3 scripts/licences.py --check

lint: fmt-check bindings-check ui-check clippy spec-matrix structure architecture-map licences

## Rust tests run with a private D-Bus session and a fresh gnome-keyring (the real Secret Service),
## whose coming back after a crash is checked first.
rust-test: ui-build
	@echo "==> the test keyring comes back after a crash"
	scripts/with-keyring.sh scripts/check-keyring-restart.sh
	@echo "==> Rust unit and integration tests"
	scripts/with-keyring.sh $(CARGO) test --workspace

ui-test: ui-deps
	@echo "==> UI unit tests"
	cd ui && npm test

## package: the release .deb and .rpm for people (Tauri's bundler; see README, "Install from a
## package"). Prints their paths, under $(TARGET_DIR)/release/bundle/.
package: deps ui-build
	@echo "==> release build of the app and the CLI"
	$(CARGO) build --release -p gatehouse-app -p gatehouse-cli
	scripts/bundle.sh release

## package-debug: the same packages from the debug build `make app` made (for package-check).
package-debug: app
	scripts/bundle.sh debug

## package-check: install the debug .deb, check its files, desktop entry, icons, licence, the CLI
## on PATH and the app's first page under Xvfb, list the .rpm, and remove the package again.
package-check: package-debug test-deps
	scripts/package-check.sh

## app-memory-check: the benchmark's app-memory section on the debug app with 2 servers, to show
## it works (the figures in docs/performance.md come from `make bench`, on a release build).
app-memory-check: app
	@echo "==> the app-memory benchmark section, on the debug app"
	$(CARGO) build -p gatehouse-bench --bins
	$(TARGET_DIR)/debug/gatehouse-bench --section app-memory --app $(APP) --app-servers 2 --app-idle 1

## conformance: the official MCP conformance suite's client scenarios (tests/conformance/scenarios.txt).
conformance: app
	@echo "==> MCP conformance suite (client scenarios)"
	GATEHOUSE_BIN=$(TARGET_DIR)/debug/gatehouse tests/conformance/run.sh

## conformance-server: the suite's server scenarios against the fixture server, directly and
## through the gateway's HTTP endpoint; fails when one tests/conformance/server-scenarios.txt
## says passes does not.
conformance-server: app
	@echo "==> MCP conformance suite (server scenarios, direct and through the gateway)"
	GATEHOUSE_BIN=$(TARGET_DIR)/debug/gatehouse tests/conformance/server-run.sh --check

## bench: the benchmark (docs/performance.md); not part of `make test`. BENCH_ARGS passes options,
## e.g. `make bench BENCH_ARGS="--audit-rows 20000"` for a quick run.
BENCH_ARGS ?=
bench: ui-build
	@if [ ! -f benches/ts-client/node_modules/.package-lock.json ] || [ benches/ts-client/package-lock.json -nt benches/ts-client/node_modules/.package-lock.json ]; then \
		echo "==> npm ci (benches/ts-client)"; cd benches/ts-client && npm ci --no-audit --no-fund; \
	else echo "==> benches/ts-client/node_modules up to date"; fi
	@echo "==> release build of gatehouse-bench, its echo server and relay, the CLI and the app"
	$(CARGO) build --release -p gatehouse-bench --bins -p gatehouse-cli
	$(CARGO) build --release -p gatehouse-app --bin gatehouse-app
	$(TARGET_DIR)/release/gatehouse-bench $(BENCH_ARGS)

## e2e: the real window under Xvfb, driven by tauri-driver + WebKitWebDriver.
e2e: app
	@echo "==> end-to-end tests (real window)"
	cd tests/e2e && GATEHOUSE_APP=$(APP) npm test

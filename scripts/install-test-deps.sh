#!/usr/bin/env bash
# Installs test-only prerequisites for Gatehouse's real-window e2e tests:
#   - apt: Xvfb, WebKitWebDriver, a private D-Bus session + gnome-keyring (secret storage),
#     sqlite3 (the audit log's tamper tests edit the database with it), desktop-file-utils and
#     rpm (`make package-check` validates the package's desktop entry and lists the .rpm)
#   - tauri-driver 2.x (cargo install, pinned to ^2, --locked)
#   - npm ci in tests/fixtures (real MCP servers), tests/e2e and benches/ts-client (the TS SDK
#     client and supergateway, for the benchmark's gateway section in its smoke test)
# Idempotent and fast when everything is already present.
# Run scripts/install-system-deps.sh first (build/runtime deps of the app itself).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/apt-ensure.sh
. "$here/apt-ensure.sh"

TEST_PACKAGES=(
  xvfb
  xauth
  webkit2gtk-driver
  dbus
  dbus-x11
  gnome-keyring
  libsecret-1-dev
  python3
  python3-venv
  sqlite3
  dunst
  python3-xlib
  desktop-file-utils
  rpm
)

echo "==> [1/4] test system packages (Xvfb, WebKitWebDriver, D-Bus, gnome-keyring, sqlite3, a notification daemon, python3-xlib, desktop-file-utils, rpm)"
apt_ensure "Gatehouse e2e tests" "${TEST_PACKAGES[@]}"

echo "==> [2/4] tauri-driver 2.x"
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo not found; install Rust via rustup (https://rustup.rs) first" >&2
  exit 1
fi
cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
tauri_driver_version() {
  # tauri-driver 2.1 has no --version flag (it rejects unknown args), so ask it
  # first (for future versions) and fall back to cargo's install registry.
  local v=""
  if command -v tauri-driver >/dev/null 2>&1 || [ -x "$cargo_bin/tauri-driver" ]; then
    v="$(PATH="$PATH:$cargo_bin" tauri-driver --version 2>/dev/null | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+' | head -n1 || true)"
    if [ -z "$v" ]; then
      v="$(cargo install --list 2>/dev/null | sed -n 's/^tauri-driver v\([0-9][^:]*\):$/\1/p' | head -n1 || true)"
    fi
  fi
  printf '%s' "$v"
}
td_version="$(tauri_driver_version)"
case "$td_version" in
  2.*)
    echo "    tauri-driver $td_version already installed"
    ;;
  *)
    if [ -n "$td_version" ]; then
      echo "    found tauri-driver $td_version, need 2.x: reinstalling"
    fi
    echo "    cargo install tauri-driver --version '^2' --locked (takes a few minutes)"
    cargo install tauri-driver --version '^2' --locked --force
    td_version="$(tauri_driver_version)"
    echo "    installed tauri-driver $td_version"
    ;;
esac
if ! command -v tauri-driver >/dev/null 2>&1; then
  echo "    note: $cargo_bin is not on PATH; the e2e harness also looks there (or set TAURI_DRIVER=/path/to/tauri-driver)"
fi

echo "==> [3/4] npm ci (tests/fixtures, tests/e2e, benches/ts-client)"
if ! command -v npm >/dev/null 2>&1; then
  echo "error: npm not found; install Node.js 20+ first" >&2
  exit 1
fi
for dir in tests/fixtures tests/e2e benches/ts-client; do
  pkgdir="$repo/$dir"
  stamp="$pkgdir/node_modules/.package-lock.json"
  # npm ci always wipes node_modules; skip it when the installed tree is
  # already newer than package-lock.json (npm writes that hidden lockfile).
  if [ -f "$stamp" ] && [ "$stamp" -nt "$pkgdir/package-lock.json" ]; then
    echo "    $dir: node_modules up to date"
  elif [ -f "$pkgdir/package-lock.json" ] && ! grep -q '"node_modules/' "$pkgdir/package-lock.json"; then
    echo "    $dir: no dependencies"
  else
    echo "    $dir: npm ci"
    (cd "$pkgdir" && npm ci --no-audit --no-fund)
  fi
done

echo "==> [4/4] Python MCP SDK fixture venv (tests/fixtures/python)"
pydir="$repo/tests/fixtures/python"
stamp="$pydir/.venv/.installed-requirements"
if [ -f "$stamp" ] && cmp -s "$stamp" "$pydir/requirements.txt"; then
  echo "    venv up to date"
else
  rm -rf "$pydir/.venv"
  python3 -m venv "$pydir/.venv"
  "$pydir/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$pydir/requirements.txt"
  cp "$pydir/requirements.txt" "$stamp"
  echo "    installed $(cat "$pydir/requirements.txt")"
fi

echo "==> test dependencies OK"

#!/usr/bin/env bash
# Installs what is needed to BUILD and RUN Gatehouse (Tauri 2) on Debian/Ubuntu.
# Idempotent: does nothing (and does not call apt) when everything is present.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/apt-ensure.sh
. "$here/apt-ensure.sh"

SYSTEM_PACKAGES=(
  libwebkit2gtk-4.1-dev
  build-essential
  curl
  wget
  file
  libssl-dev
  libayatana-appindicator3-dev
  librsvg2-dev
  pkg-config
)

echo "==> [1/2] system packages (Tauri 2 build/runtime prerequisites)"
apt_ensure "building and running Gatehouse" "${SYSTEM_PACKAGES[@]}"

echo "==> [2/2] toolchains"
fail=0
if command -v cargo >/dev/null 2>&1; then
  echo "    cargo: $(cargo --version)"
else
  echo "error: cargo not found. Install Rust via rustup (https://rustup.rs):" >&2
  echo "    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y && . \"\$HOME/.cargo/env\"" >&2
  fail=1
fi
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  echo "    node: $(node --version)  npm: $(npm --version 2>/dev/null)"
else
  echo "error: node and/or npm not found. Install Node.js 20 LTS or newer (https://nodejs.org/ or" >&2
  echo "    'apt-get install nodejs npm' on recent Debian/Ubuntu, or via nvm/NodeSource)." >&2
  fail=1
fi
if [ "$fail" -ne 0 ]; then
  exit 1
fi
echo "==> system dependencies OK"

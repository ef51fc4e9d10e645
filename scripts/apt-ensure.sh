#!/usr/bin/env bash
# Shared apt helper. Source it, then call:  apt_ensure "<purpose>" pkg1 pkg2 ...
#
# - installs only the packages that are not already installed (dpkg-query);
#   when everything is present it returns immediately without touching apt;
# - runs `apt-get update` at most once per shell (APT_ENSURE_UPDATED guard);
# - uses sudo when not running as root;
# - on a system without apt-get it prints the package list and exits 1.

# shellcheck disable=SC2034
APT_ENSURE_UPDATED="${APT_ENSURE_UPDATED:-0}"

apt_ensure_log() { printf '==> %s\n' "$*"; }

apt_ensure_sudo() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "error: need root to run '$*' and sudo is not available" >&2
    return 1
  fi
}

# apt_ensure_missing pkg... -> prints the packages that are not installed
apt_ensure_missing() {
  local pkg status
  for pkg in "$@"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    if [ "$status" != "install ok installed" ]; then
      printf '%s\n' "$pkg"
    fi
  done
}

apt_ensure() {
  local purpose="$1"; shift
  if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
    echo "error: apt-get not found: this script only automates Debian/Ubuntu." >&2
    echo "Install the equivalents of these Debian packages ($purpose) with your OS package manager:" >&2
    printf '    %s\n' "$@" >&2
    echo "See https://v2.tauri.app/start/prerequisites/ for the package names on other distributions." >&2
    exit 1
  fi

  local missing
  missing="$(apt_ensure_missing "$@" | tr '\n' ' ')"
  missing="${missing% }"
  if [ -z "$missing" ]; then
    apt_ensure_log "apt: all $# packages for $purpose already installed"
    return 0
  fi

  apt_ensure_log "apt: installing for $purpose: $missing"
  export DEBIAN_FRONTEND=noninteractive
  if [ "$APT_ENSURE_UPDATED" != "1" ]; then
    apt_ensure_log "apt-get update"
    apt_ensure_sudo env DEBIAN_FRONTEND=noninteractive apt-get update
    APT_ENSURE_UPDATED=1
    export APT_ENSURE_UPDATED
  fi
  # shellcheck disable=SC2086
  apt_ensure_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $missing

  missing="$(apt_ensure_missing "$@" | tr '\n' ' ')"
  if [ -n "${missing% }" ]; then
    echo "error: still not installed after apt-get install: $missing" >&2
    return 1
  fi
  apt_ensure_log "apt: done ($purpose)"
}

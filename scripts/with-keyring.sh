#!/usr/bin/env bash
# Runs a command with a private D-Bus session bus and a fresh, unlocked gnome-keyring on it, so
# tests use the real Secret Service without touching (or prompting on) the user's own keyring.
#   scripts/with-keyring.sh cargo test --workspace
# The bus has no service activation: nothing starts on it that this script did not start.
set -euo pipefail

for tool in dbus-daemon dbus-send gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found: run scripts/install-test-deps.sh" >&2; exit 1; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-keyring.XXXXXX")"
chmod 700 "$tmp"
mkdir -p "$tmp/data" "$tmp/run" "$tmp/config"
chmod 700 "$tmp/run"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

cat > "$tmp/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$tmp/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF

dbus-daemon --config-file="$tmp/session.conf" --nofork --nopidfile --print-address=1 >"$tmp/address" 2>"$tmp/dbus.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/address" ] && break; sleep 0.05; done
[ -s "$tmp/address" ] || { echo "error: dbus-daemon did not start: $(cat "$tmp/dbus.log")" >&2; exit 1; }
export DBUS_SESSION_BUS_ADDRESS="$(head -n1 "$tmp/address")"
export XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run" XDG_CONFIG_HOME="$tmp/config"

bus() { dbus-send --session --print-reply "$@" 2>/dev/null; }
# A non-empty password: with an empty one gnome-keyring creates no default collection.
printf 'gatehouse-test' | gnome-keyring-daemon --foreground --components=secrets --unlock >"$tmp/keyring.log" 2>&1 &
pids+=($!)
ready=0
for _ in $(seq 150); do
  # Ask for the default collection only once the name is owned: a call to an unowned name
  # would make the bus try to start a second keyring.
  if bus --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \
       string:org.freedesktop.secrets | grep -q 'boolean true' &&
     bus --dest=org.freedesktop.secrets /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias \
       string:default | grep -q 'object path "/org/freedesktop/secrets/collection/'; then
    ready=1
    break
  fi
  sleep 0.1
done
[ "$ready" = 1 ] || { echo "error: gnome-keyring did not serve a default collection: $(cat "$tmp/keyring.log")" >&2; exit 1; }

"$@"

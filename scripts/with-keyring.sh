#!/usr/bin/env bash
# Runs a command with a private D-Bus session bus and a fresh, unlocked gnome-keyring on it, so
# tests use the real Secret Service without touching (or prompting on) the user's own keyring.
#   scripts/with-keyring.sh cargo test --workspace
# The bus activates one service, the keyring, as a desktop session's bus does: gnome-keyring 42
# can crash when a client vanishes in the middle of a call (an upstream bug the tests' killed
# processes reach now and then), and the next call then starts it again on the same files
# instead of failing every later test with "the OS keyring is not available".
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
  # Each start of the keyring is a line in its log: more than one means it crashed and was
  # started again; say so, with what it printed, so a failure near then is read as the keyring's.
  starts=$(grep -c '^== keyring started' "$tmp/keyring.log" 2>/dev/null || true)
  if [ "${starts:-0}" -gt 1 ]; then
    echo "warning: gnome-keyring-daemon crashed and was started again $((starts - 1)) time(s) during the run; its log:" >&2
    tail -n 60 "$tmp/keyring.log" >&2 || true
  fi
  for pid in "${pids[@]}" $(cat "$tmp/keyring.pids" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# The session's environment, for the command and for the keyring (the bus starts services with
# its own environment).
cat > "$tmp/session.env" <<ENV
export DBUS_SESSION_BUS_ADDRESS="\$(head -n1 "$tmp/address")"
export XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run" XDG_CONFIG_HOME="$tmp/config"
ENV

# The keyring, started by this script first and by the bus whenever it is gone.
mkdir -p "$tmp/services"
cat > "$tmp/keyring.sh" <<KEYRING
#!/usr/bin/env bash
. "$tmp/session.env"
echo "== keyring started \$(date -u +%H:%M:%S.%N)" >>"$tmp/keyring.log"
# A non-empty password: with an empty one gnome-keyring creates no default collection.
printf 'gatehouse-test' | gnome-keyring-daemon --foreground --components=secrets --unlock >>"$tmp/keyring.log" 2>&1 &
echo \$! >>"$tmp/keyring.pids"
wait
KEYRING
chmod 700 "$tmp/keyring.sh"
cat > "$tmp/services/org.freedesktop.secrets.service" <<SERVICE
[D-BUS Service]
Name=org.freedesktop.secrets
Exec=$tmp/keyring.sh
SERVICE

cat > "$tmp/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$tmp/bus</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$tmp/services</servicedir>
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
. "$tmp/session.env"

bus() { dbus-send --session --print-reply "$@" 2>/dev/null; }
"$tmp/keyring.sh" &
pids+=($!)
ready=0
for _ in $(seq 150); do
  # Ask for the default collection only once the name is owned: a call to an unowned name
  # would make the bus start a second keyring.
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

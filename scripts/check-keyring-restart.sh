#!/usr/bin/env bash
# Proves that the keyring of scripts/with-keyring.sh comes back after a crash: kills it as
# gnome-keyring 42's crash does (SIGTRAP), then asks for the default collection, which the bus
# answers by starting the keyring again, unlocked, on the same files. Run under the script:
#   scripts/with-keyring.sh scripts/check-keyring-restart.sh
set -euo pipefail

fail() { echo "keyring restart check failed: $*" >&2; exit 1; }
[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || fail "no session bus: run it under scripts/with-keyring.sh"
owner() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null |
    awk '/uint32/ { print $2 }'
}
secrets() { dbus-send --session --print-reply --dest=org.freedesktop.secrets "$@"; }

first=$(owner)
[ -n "$first" ] || fail "no keyring owns org.freedesktop.secrets"
kill -TRAP "$first"
# Bounded: the name is released when the process is gone.
for _ in $(seq 100); do
  [ -z "$(owner)" ] && break
  sleep 0.05
done
[ -z "$(owner)" ] || fail "the keyring (pid $first) did not end on SIGTRAP within 5 s"

collection=$(secrets /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias \
  string:default | awk -F'"' '/object path/ { print $2 }' || true)
[ "$collection" = /org/freedesktop/secrets/collection/login ] ||
  fail "after the crash the default collection is '$collection', not the login collection"
second=$(owner)
[ -n "$second" ] && [ "$second" != "$first" ] ||
  fail "the keyring was not started again (owner before: $first, after: '${second}')"
secrets "$collection" org.freedesktop.DBus.Properties.Get \
  string:org.freedesktop.Secret.Collection string:Locked | grep -q 'boolean false' ||
  fail "the keyring started again with its collection locked"
echo "keyring restart check: ok (killed with SIGTRAP, started again by the bus, unlocked)"

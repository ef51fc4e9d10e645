#!/usr/bin/env bash
# `make package-check` (part of `make test`): installs the debug .deb that scripts/bundle.sh made
# from the tests' own debug build, checks what a person gets, and removes it again:
#   - the files (`dpkg -L`): both programs in /usr/bin (and nothing else there), the desktop
#     entry, the icons in their hicolor sizes, the licence; the programs are the ones cargo built;
#   - the package's dependencies (runtime libraries only);
#   - the desktop entry passes `desktop-file-validate`;
#   - `gatehouse --version` works from PATH;
#   - the installed app starts under Xvfb to its Servers page (tests/e2e/installed-app.mjs, a
#     screenshot in tests/e2e/artifacts/installed-app-servers.png);
#   - the .rpm lists the same files (`rpm -qlp`; its licence under /usr/share/licenses) and
#     requires the same libraries.
# The package is purged on every exit, a failed check or an interrupt included, and the check
# refuses to run when a gatehouse package or /usr/bin/gatehouse* it did not install is present,
# so the machine is left as it was. Needs root (or sudo). Every wait is bounded (the e2e
# harness's, with the step named); nothing sleeps.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target_dir="$(cd "$repo" && realpath -m "${CARGO_TARGET_DIR:-target}")"
out="$target_dir/debug"
pkg=gatehouse
bins=(gatehouse gatehouse-app)
# The sizes in icons/ that the bundler installs (hicolor/<size>/apps/gatehouse-app.png).
icon_sizes=(32x32 64x64 128x128 256x256 512x512)
std_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Left in the target dir while the package is installed: a later run may then remove a package
# an interrupted run left behind (and only such a one).
marker="$target_dir/package-check.installed"

step() { printf '==> package-check: %s\n' "$*"; }
fail() {
  echo "package-check: FAILED: $*" >&2
  exit 1
}
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
# True when dpkg knows the package in any state but "not installed".
pkg_present() {
  local status
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" || return 1
  [ -n "$status" ] && [ "${status##* }" != "not-installed" ]
}
one_file() { # one_file DESCRIPTION GLOB...: the one existing match
  local what="$1"
  shift
  local found=()
  for f in "$@"; do [ -f "$f" ] && found+=("$f"); done
  [ "${#found[@]}" -eq 1 ] || fail "expected one $what, found ${#found[@]}: run scripts/bundle.sh debug first"
  printf '%s' "${found[0]}"
}

command -v dpkg >/dev/null || fail "dpkg not found: this check installs the .deb (Debian or Ubuntu)"
for tool in desktop-file-validate rpm; do
  command -v "$tool" >/dev/null || fail "$tool not found: run scripts/install-test-deps.sh"
done
deb="$(one_file ".deb in $out/bundle/deb" "$out"/bundle/deb/*.deb)"
rpmfile="$(one_file ".rpm in $out/bundle/rpm" "$out"/bundle/rpm/*.rpm)"
version="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$repo/src-tauri/tauri.conf.json")"

step "the machine before: no $pkg package, no /usr/bin/gatehouse*"
if pkg_present; then
  if [ -f "$marker" ]; then
    echo "    a run that was interrupted left $pkg installed: purging it"
    as_root dpkg --purge "$pkg"
  else
    fail "a $pkg package is installed on this machine and this check did not install it; it installs and removes its own, so remove yours first (dpkg -r $pkg)"
  fi
fi
rm -f "$marker"
for b in "${bins[@]}"; do
  [ ! -e "/usr/bin/$b" ] || fail "/usr/bin/$b exists and belongs to no $pkg package; the check would replace and then remove it"
done

work="$(mktemp -d)"
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  if pkg_present; then
    step "dpkg --purge $pkg (the machine as before)"
    as_root dpkg --purge "$pkg" || rc=1
  fi
  rm -f "$marker"
  for b in "${bins[@]}"; do
    if [ -e "/usr/bin/$b" ]; then
      echo "package-check: FAILED: /usr/bin/$b is still there after the purge" >&2
      rc=1
    fi
  done
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

step "dpkg -i $(basename "$deb")"
echo "    Depends: $(dpkg-deb -f "$deb" Depends)"
for dep in libwebkit2gtk-4.1-0 libgtk-3-0 libayatana-appindicator3-1; do
  dpkg-deb -f "$deb" Depends | tr ',' '\n' | grep -qx " *$dep" || fail "the .deb does not depend on $dep"
done
touch "$marker"
as_root dpkg -i "$deb"

step "the installed files (dpkg -L $pkg)"
dpkg -L "$pkg" | sort >"$work/deb-all"
sed 's/^/    /' "$work/deb-all"
while read -r p; do [ -f "$p" ] && echo "$p"; done <"$work/deb-all" >"$work/deb-files"
desktop=/usr/share/applications/Gatehouse.desktop
copyright=/usr/share/doc/$pkg/copyright
expected=(/usr/bin/gatehouse /usr/bin/gatehouse-app "$desktop" "$copyright")
for size in "${icon_sizes[@]}"; do expected+=("/usr/share/icons/hicolor/$size/apps/gatehouse-app.png"); done
for f in "${expected[@]}"; do
  grep -qx "$f" "$work/deb-files" || fail "$f is not in the package"
done
in_bin="$(grep '^/usr/bin/' "$work/deb-files" | tr '\n' ' ')"
[ "$in_bin" = "/usr/bin/gatehouse /usr/bin/gatehouse-app " ] || fail "the package's /usr/bin holds $in_bin (expected gatehouse and gatehouse-app only)"
for b in "${bins[@]}"; do
  cmp -s "/usr/bin/$b" "$out/$b" || fail "/usr/bin/$b is not the $out/$b cargo built"
done
echo "    /usr/bin/gatehouse and /usr/bin/gatehouse-app are the debug build's binaries"

step "icons in their hicolor sizes"
for size in "${icon_sizes[@]}"; do
  icon="/usr/share/icons/hicolor/$size/apps/gatehouse-app.png"
  got="$(python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(24)
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
print("%dx%d" % struct.unpack(">II", d[16:24]))' "$icon")" || fail "$icon is not a PNG"
  [ "$got" = "$size" ] || fail "$icon is $got, not $size"
  echo "    $icon: $got"
done

step "desktop entry (desktop-file-validate)"
desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $desktop"
grep -qx 'Exec=gatehouse-app' "$desktop" || fail "$desktop does not run gatehouse-app"
grep -qx 'Icon=gatehouse-app' "$desktop" || fail "$desktop does not name the gatehouse-app icon"
sed 's/^/    /' "$desktop"

step "licence"
grep -q 'Apache License' "$copyright" && grep -q 'Version 2.0' "$copyright" ||
  fail "$copyright is not the Apache License 2.0"
echo "    $copyright: $(grep -m1 -o 'Apache License' "$copyright"), Version 2.0"

step "gatehouse --version from PATH"
found="$(PATH="$std_path" command -v gatehouse)" || fail "gatehouse is not on PATH ($std_path)"
[ "$found" = /usr/bin/gatehouse ] || fail "gatehouse on PATH is $found, not /usr/bin/gatehouse"
said="$(PATH="$std_path" gatehouse --version)" || fail "gatehouse --version failed"
echo "    $found --version: $said"
[ "$said" = "gatehouse $version" ] || fail "gatehouse --version says '$said', expected 'gatehouse $version'"
PATH="$std_path" command -v gatehouse-app >/dev/null || fail "gatehouse-app is not on PATH"

step "the installed app starts to its Servers page (tests/e2e/installed-app.mjs, under Xvfb)"
(cd "$repo/tests/e2e" && GATEHOUSE_APP=/usr/bin/gatehouse-app node --test installed-app.mjs)

step "the .rpm: $(basename "$rpmfile") (rpm -qlp)"
rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpmfile" >"$work/rpm-all"
sed 's/^/    /' "$work/rpm-all"
awk '$1 ~ /^-/ { print $2 }' "$work/rpm-all" | sort >"$work/rpm-files"
# The same files, but the licence where each family keeps it.
sed "s|^$copyright\$|/usr/share/licenses/$pkg/LICENSE|" "$work/deb-files" | sort >"$work/deb-as-rpm"
if ! diff -u "$work/deb-as-rpm" "$work/rpm-files"; then
  fail "the .rpm's files differ from the .deb's (diff above: - the .deb, + the .rpm)"
fi
requires="$(rpm -qp --requires "$rpmfile")"
for lib in 'libwebkit2gtk-4.1.so.0()(64bit)' 'libgtk-3.so.0()(64bit)' 'libayatana-appindicator3.so.1()(64bit)'; do
  grep -qxF "$lib" <<<"$requires" || fail "the .rpm does not require $lib"
done
echo "    requires: $(tr '\n' ' ' <<<"$requires")"

step "all package checks passed; removing the package"

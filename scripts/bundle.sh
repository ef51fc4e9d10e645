#!/usr/bin/env bash
# Builds the .deb and .rpm of Gatehouse with the Tauri bundler, from binaries cargo already built:
#   scripts/bundle.sh release   (`make package`: what people install)
#   scripts/bundle.sh debug     (`make package-check`: the debug build `make test` already made)
# The bundler (`tauri bundle`, from @tauri-apps/cli in ui/node_modules) packs
# $CARGO_TARGET_DIR/<profile>/gatehouse-app as /usr/bin/gatehouse-app with the desktop entry,
# the icons and the licence (src-tauri/tauri.conf.json, `bundle`); the CLI is added here as
# /usr/bin/gatehouse, from the same profile, by a config merged on the command line, so no
# copy of it is staged in the repository and a package never picks up another build's CLI.
# Other bundles (AppImage, .dmg, .msi) need tools of their own: `BUNDLES=appimage` etc. on a
# machine that has them. Prints the paths of the packages it made.
set -euo pipefail

profile="${1:-release}"
case "$profile" in
  release) debug_flag=() ;;
  debug) debug_flag=(--debug) ;;
  *) echo "usage: $0 release|debug" >&2; exit 2 ;;
esac
bundles="${BUNDLES:-deb,rpm}"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target_dir="$(cd "$repo" && realpath -m "${CARGO_TARGET_DIR:-target}")"
out="$target_dir/$profile"
tauri="$repo/ui/node_modules/.bin/tauri"

if [ ! -x "$tauri" ]; then
  echo "error: $tauri not found: run \`npm ci\` in ui (make ui-deps) first" >&2
  exit 1
fi
for bin in gatehouse-app gatehouse; do
  if [ ! -x "$out/$bin" ]; then
    echo "error: $out/$bin not built: run \`cargo build$([ "$profile" = release ] && echo ' --release') -p gatehouse-app -p gatehouse-cli\` first" >&2
    exit 1
  fi
done

# Only this run's packages in the bundle folders, so whoever reads them finds one of each.
for kind in ${bundles//,/ }; do
  rm -rf "${out:?}/bundle/$kind"
done

cli_files="$(python3 -c 'import json, sys; f = {"/usr/bin/gatehouse": sys.argv[1]}; print(json.dumps({"bundle": {"linux": {"deb": {"files": f}, "rpm": {"files": f}, "appimage": {"files": f}}}}))' "$out/gatehouse")"

echo "==> tauri bundle ($profile): $bundles from $out"
# --no-binary-patching: the bundler would otherwise rewrite cargo's gatehouse-app in place (a
# marker for Tauri's updater, which Gatehouse does not use); the tests run that very file.
cd "$repo"
CARGO_TARGET_DIR="$target_dir" "$tauri" bundle "${debug_flag[@]}" --bundles "$bundles" \
  --config "$cli_files" --no-sign --no-binary-patching --ci

for kind in ${bundles//,/ }; do
  find "$out/bundle/$kind" -maxdepth 1 -type f \( -name '*.deb' -o -name '*.rpm' -o -name '*.AppImage' \) -print
done

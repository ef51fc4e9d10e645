#!/usr/bin/env python3
"""The licences of the libraries bundled in the app, for its About section.

Writes src-tauri/licences.json from `cargo metadata` (the Rust crates the app and the CLI link,
their normal dependencies only) and ui/package-lock.json (the npm packages that are not
development-only). With --check, fails when the file differs from what it would write (the drift
check `make lint` can run after a dependency changes)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src-tauri" / "licences.json"
ROOTS = ("gatehouse-app", "gatehouse-cli")


def cargo_crates():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked",
             "--filter-platform", "x86_64-unknown-linux-gnu"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    members = set(meta["workspace_members"])
    todo = [i for i in members if packages[i]["name"] in ROOTS]
    seen = set()
    while todo:
        node = nodes[todo.pop()]
        for dep in node["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]) and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                todo.append(dep["pkg"])
    crates = []
    for pid in seen - members:
        p = packages[pid]
        crates.append({"name": p["name"], "version": p["version"],
                       "licence": p.get("license") or "see its repository", "kind": "crate"})
    return crates


def npm_packages():
    lock = json.loads((ROOT / "ui" / "package-lock.json").read_text())
    found = []
    for path, entry in lock.get("packages", {}).items():
        if not path or entry.get("dev") or entry.get("devOptional"):
            continue
        name = path.rsplit("node_modules/", 1)[-1]
        found.append({"name": name, "version": entry.get("version", ""),
                      "licence": entry.get("license") or "see its repository", "kind": "npm"})
    return found


def render():
    items = cargo_crates() + npm_packages()
    unique = {(i["kind"], i["name"], i["version"]): i for i in items}
    ordered = sorted(unique.values(), key=lambda i: (i["kind"], i["name"].lower(), i["version"]))
    return json.dumps(ordered, indent=1) + "\n"


def main():
    text = render()
    if "--check" in sys.argv[1:]:
        if not OUT.is_file() or OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run python3 scripts/licences.py")
            return 1
        print(f"{OUT.relative_to(ROOT)}: the bundled libraries' licences are current")
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

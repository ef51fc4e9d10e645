#!/usr/bin/env python3
"""docs/ARCHITECTURE.md stays a true map (part of `make lint`).

1. Every path the map names in backticks (`crates/host/src/gate/`, `src-tauri/src/lib.rs`,
   `docs/security.md`, ...) exists, and every relative Markdown link points at a file.
2. Every module path it names in backticks (`gate::standing`, `peer::route::Inbound`,
   `transport::streamable_http`) names a module of the workspace: its lowercase segments end a
   real module's path (in any crate, under any folder), and a segment after the module (an item)
   is written in that module's file.
   Under a heading that names a source tree (`### crates/host/src`), a path without a prefix
   (`gate/`, `lib.rs`, `oversight/gate/admission.rs`) is read relative to that tree.
3. Every folder of a crate's source tree and every file directly in a crate's `src` is on the map,
   so the map stays whole as the code grows.

`--self-test` first proves the check finds each kind of fault in a made-up tree.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = "docs/ARCHITECTURE.md"
SOURCE_TREES = ["crates/mcp/src", "crates/host/src", "crates/cli/src", "src-tauri/src", "ui/src"]
PATH_PREFIXES = ("crates/", "src-tauri/", "ui/", "docs/", "scripts/", "tests/", "migrations/", "benches/", "icons/", ".ci/")
TICKED = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
MODULE_PATH = re.compile(r"^[a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+$")
EXTERNAL = {"std", "core", "alloc", "tokio", "tauri", "tauri_build", "tauri_plugin_opener", "gtk", "serde",
            "serde_json", "reqwest", "rusqlite", "sqlx", "keyring", "keyring_core", "oauth2", "specta",
            "clap", "webkit2gtk", "notify", "thiserror", "hyper", "axum", "futures", "regex"}
OWN_CRATES = {"gatehouse_mcp", "gatehouse_host", "gatehouse_cli", "gatehouse_app", "mcp", "host", "cli", "app"}
RUST_CRATES = ["crates/mcp/src", "crates/host/src", "crates/cli/src", "src-tauri/src"]


def module_files(root: Path) -> dict[tuple[str, ...], Path]:
    """Every Rust file of the workspace's crates by its module path's segments (any prefix)."""
    files = {}
    for crate in RUST_CRATES:
        src = root / crate
        if not src.exists():
            continue
        for path in src.rglob("*.rs"):
            parts = path.relative_to(src).with_suffix("").parts
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts:
                files.setdefault(parts, path)
    return files


def resolve_module(files: dict, segments: list[str]) -> tuple[Path | None, list[str]]:
    """The file whose module path ends with the longest prefix of `segments`, and what is left."""
    for cut in range(len(segments), 0, -1):
        wanted = tuple(segments[:cut])
        for parts, path in files.items():
            if parts[-cut:] == wanted:
                return path, segments[cut:]
    return None, segments


def check(root: Path) -> list[str]:
    text = (root / MAP).read_text()
    problems = []
    files = module_files(root)
    named: set[str] = set()
    base = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            trees = [t for t in TICKED.findall(line) + line.split() if t.strip("`/") in SOURCE_TREES]
            base = trees[0].strip("`/") if trees else None
        for token in TICKED.findall(line):
            token = token.strip()
            relative_path = re.fullmatch(r"[\w.-]+(/[\w.-]+)*/?", token) and ("/" in token or token.endswith((".rs", ".ts", ".tsx")))
            if base and relative_path and not token.startswith(PATH_PREFIXES):
                token = f"{base}/{token}"
            # `ui/open-link` is a method of MCP Apps, not a path: ui/ paths are ui/src/... or files.
            method_like = token.startswith("ui/") and not (token.startswith("ui/src") or "." in token or token.endswith("/"))
            if token.startswith(PATH_PREFIXES) and " " not in token and not method_like:
                path = token.split("::")[0].split(":")[0]
                named.add(path.rstrip("/"))
                if not (root / path).exists():
                    problems.append(f"{MAP}:{number}: `{token}` names a path that does not exist")
            elif MODULE_PATH.match(token) and token.split("::")[0] not in EXTERNAL:
                segments = token.split("::")
                if segments[0] in OWN_CRATES:
                    segments = segments[1:]
                path, rest = resolve_module(files, segments)
                if path is None:
                    problems.append(f"{MAP}:{number}: `{token}` names no module of the workspace")
                elif rest and rest[0] not in ("*",) and not re.search(rf"\b{re.escape(rest[0])}\b", path.read_text()):
                    problems.append(f"{MAP}:{number}: `{token}`: {rest[0]} is not in {path.relative_to(root)}")
        for target in LINK.findall(line):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (root / MAP).parent.joinpath(target).exists():
                problems.append(f"{MAP}:{number}: the link to {target} points at nothing")
    for tree in SOURCE_TREES:
        src = root / tree
        if not src.exists():
            continue
        wanted = [p for p in src.iterdir() if p.suffix in (".rs", ".ts", ".tsx") or p.is_dir()]
        wanted += [p for p in src.rglob("*") if p.is_dir()]
        for path in sorted(set(wanted)):
            relative = str(path.relative_to(root))
            parts = path.relative_to(src).parts
            if any(part in ("tests", "test", "bindings") for part in parts) or path.name.endswith(
                (".test.ts", ".test.tsx", "tests.rs", ".d.ts")
            ):
                continue
            if relative not in named:
                problems.append(f"{MAP}: `{relative}{'/' if path.is_dir() else ''}` is not on the map")
    return problems


def self_test() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        (root / "crates/host/src/oversight/gate").mkdir(parents=True)
        (root / "crates/host/src/lib.rs").write_text("pub mod oversight;\n")
        (root / "crates/host/src/oversight/gate/mod.rs").write_text("pub struct GateRequest;\n")
        (root / "crates/host/src/oversight/gate/standing.rs").write_text("pub fn covers() {}\n")
        (root / "crates/host/src/oversight/mod.rs").write_text("pub mod gate;\n")
        (root / "docs/security.md").write_text("x")
        good = (
            "# Map\nSee [security](security.md).\n- `crates/host/src/lib.rs`\n- `crates/host/src/oversight/`\n"
            "- `crates/host/src/oversight/gate/`: `gate::GateRequest`, `gate::standing::covers`\n"
            "## crates/host/src\n- `oversight/gate/standing.rs`, `lib.rs`\n"
        )
        (root / MAP).write_text(good)
        assert check(root) == [], check(root)
        (root / MAP).write_text(good + "- `supervisor/`\n- `gate::nowhere`\n- `supervisor::run`\n- `ui/open-link`, `tokio::spawn`, `host::gate::GateRequest`\n- `gate::standing::Missing`\n[x](nothing.md)\n")
        found = "\n".join(check(root))
        for fault in ("supervisor/` names a path that does not exist", "`gate::nowhere`: nowhere is not in", "`supervisor::run` names no module",
                      "Missing is not in", "the link to nothing.md"):
            assert fault in found, (fault, found)
        (root / "crates/host/src/audit").mkdir()
        (root / MAP).write_text(good)
        assert any("crates/host/src/audit/` is not on the map" in p for p in check(root)), check(root)
    print("check-architecture-map self-test passed")


def main() -> int:
    if "--self-test" in sys.argv:
        self_test()
        return 0
    problems = check(ROOT)
    for problem in problems:
        print(problem)
    if problems:
        print(f"\n{len(problems)} fault(s) in the map: fix {MAP} or the code")
        return 1
    print(f"{MAP}: every path and module it names exists, and every folder is on it")
    return 0


if __name__ == "__main__":
    sys.exit(main())

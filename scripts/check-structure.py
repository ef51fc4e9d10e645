#!/usr/bin/env python3
"""The house's structure check (part of `make lint`).

Two rules from the project's standards, checked on every Rust crate of the workspace:

1. No import circles between the files of a crate. A file depends on another when it names an
   item defined there: through `use`, a path in code (`crate::a::B`, `super::C`, `self::d::E`),
   or a re-export (`pub use b::C` makes the re-exporting file depend on b). A name re-exported by
   a module resolves to the file that defines it, so `use crate::gate::Source` depends on the file
   where `Source` is written, not on `gate/mod.rs` when that only passes it on. `mod x;` is not a
   dependency. Test code (`tests.rs`, `*_tests.rs`, `#[cfg(test)]` modules) is left out.
2. No non-test source file over 500 lines (Rust in crates/*/src and src-tauri/src, TypeScript in
   ui/src).

3. In the crates listed in FOLDER_TIERS, no circle between sibling folders either: at every
   directory level the folders and files side by side (at a crate's root `running`, `oversight`,
   `store`, ...; inside `oversight` its `gate`, `policy`, `approvals`, `audit`) depend on each
   other in one direction only, so they stack as tiers. A folder and its same-named file
   (`host/` and `host.rs`) are one; the level's own `mod.rs`/`lib.rs` is left out.

Prints each circle with the lines that make it, then each long file, and exits 1 if any is
found. `--folders CRATE_SRC` prints the edges between sibling folders at every level of one
crate and the circles among them. `--self-test` first proves the check finds a circle, a folder
circle and a long file in a made-up crate.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500
CRATE_SRC = ["crates/mcp/src", "crates/host/src", "crates/cli/src", "src-tauri/src"]
# Crates whose folders must stack as tiers (rule 3).
FOLDER_TIERS = ["crates/mcp/src", "crates/host/src"]
UI_SRC = "ui/src"
DEFINITION = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?"
    r"(?:fn|struct|enum|trait|type|const|static|union|macro_rules!)\s+(\w+)",
    re.M,
)
# A path in code: from `crate`/`super`/`self`, or from a name (a child module, or something a
# `use` brought in, like `route::route(..)`); a name that is neither is another crate's.
PATH_IN_CODE = re.compile(r"(?<![\w:])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::\w+)+)")


def is_test_file(path: Path) -> bool:
    """Test code: `tests.rs`, `*_tests.rs`, `*.test.ts(x)`, and anything under a `tests/` or `test/` folder."""
    name = path.name
    return (
        name == "tests.rs"
        or name.endswith(("_tests.rs", ".test.ts", ".test.tsx"))
        or any(part in ("tests", "test") for part in path.parts[:-1])
    )


def strip_comments_and_strings(text: str) -> str:
    """Comments, strings and chars blanked, line breaks kept (so line numbers hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or text.startswith("'\\u{", i):
            j = text.find("'", i + 1 if text[i + 1] != "\\" else i + 3)
            out.append("' '")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def block_end(text: str, open_brace: int) -> int:
    depth = 0
    for j in range(open_brace, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


# `#[cfg(test)]`, and `#[cfg(all(test, unix))]` or any other `all(...)` that includes `test`.
TEST_CFG = r"#\[cfg\((?:test|all\([^\]]*\btest\b[^\]]*\))\)\]"


def strip_test_modules(text: str) -> str:
    """Inline `#[cfg(test)] mod x { ... }` blocks blanked (line breaks kept)."""
    for m in reversed(list(re.finditer(TEST_CFG + r"\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text))):
        end = block_end(text, m.end() - 1)
        text = text[: m.start()] + "\n" * text.count("\n", m.start(), end) + text[end:]
    return text


def expand_use_tree(tree: str) -> list[tuple[str, str]]:
    """`a::{b, c::{d as e, *}}` into [(a::b, b), (a::c::d, e), (a::c::*, *)]."""
    tree = re.sub(r"\s+", "", tree)
    results: list[tuple[str, str]] = []

    def split_top(s: str) -> list[str]:
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        return parts

    def walk(prefix: str, s: str) -> None:
        brace = s.find("{")
        if brace >= 0 and s.endswith("}"):
            head = s[:brace].rstrip(":")
            new_prefix = "::".join(p for p in (prefix, head) if p)
            for part in split_top(s[brace + 1 : -1]):
                walk(new_prefix, part)
            return
        full = "::".join(p for p in (prefix, s) if p)
        if full.endswith("::self"):
            full = full[: -len("::self")]
        last = full.rsplit("::", 1)[-1]
        results.append((full, last))

    walk("", tree)
    return results


USE = re.compile(r"(?<![\w:])(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);")


def uses_with_aliases(text: str) -> list[tuple[str, str, bool, int]]:
    """(path, bound name, is re-export, line) of every `use` in a stripped file."""
    out = []
    for m in USE.finditer(text):
        # ` as ` marked with `@` so that dropping whitespace keeps the alias apart.
        marked = re.sub(r"\s+as\s+", "@", m.group(2))
        line = text.count("\n", 0, m.start()) + 1
        for path, name in expand_use_tree(marked):
            if "@" in path:
                path, name = path.split("@", 1)
            out.append((path, name, m.group(1) is not None, line))
    return out


class Crate:
    def __init__(self, src: Path):
        self.src = src
        self.files: dict[tuple[str, ...], Path] = {}  # module path -> file
        self.text: dict[tuple[str, ...], str] = {}
        self.inline: dict[tuple[str, ...], tuple[str, ...]] = {}  # inline module -> owning file's module
        for root_name in ("lib.rs", "main.rs"):
            if (src / root_name).exists():
                self.load((), src / root_name)
        bin_dir = src / "bin"
        if bin_dir.is_dir():
            for bin_file in sorted(bin_dir.glob("*.rs")):
                self.load(("#bin", bin_file.stem), bin_file)
        self.defs = {m: set(DEFINITION.findall(t)) for m, t in self.text.items()}
        self.uses = {m: uses_with_aliases(t) for m, t in self.text.items()}

    def load(self, module: tuple[str, ...], path: Path) -> None:
        if is_test_file(path.relative_to(self.src)):
            return
        text = strip_test_modules(strip_comments_and_strings(path.read_text()))
        self.files[module] = path
        self.text[module] = text
        # A binary's children sit in a folder named after it, like any file module's.
        at_root = path.name in ("lib.rs", "main.rs", "mod.rs") and module[:1] != ("#bin",)
        directory = path.parent if at_root else path.with_suffix("")
        for m in re.finditer(r"(" + TEST_CFG + r"\s*)?(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text):
            if m.group(1):
                continue
            name = m.group(2)
            for candidate in (directory / f"{name}.rs", directory / name / "mod.rs"):
                if candidate.exists():
                    self.load(module + (name,), candidate)
                    break

    def resolve(self, here: tuple[str, ...], path: str, depth: int = 0) -> tuple[str, ...] | None:
        """The module (file) that defines what `path`, written in `here`, names."""
        if depth > 12:
            return None
        segs = path.split("::")
        if segs[0] == "crate":
            base, segs = (here[:2] if here[:1] == ("#bin",) else ()), segs[1:]
        elif segs[0] in ("self", "super"):
            base = here
            while segs and segs[0] in ("self", "super"):
                if segs[0] == "super":
                    base = base[:-1]
                segs = segs[1:]
        elif here + (segs[0],) in self.files:
            base = here
        else:
            # A name brought into `here` by a `use` (e.g. `use super::x;` then `x::y`).
            for upath, name, _, _ in self.uses.get(here, []):
                if name == segs[0] and upath != path and not upath.endswith("*"):
                    return self.resolve(here, "::".join([upath] + segs[1:]), depth + 1)
            return None  # another crate
        module = base
        while segs and module + (segs[0],) in self.files:
            module, segs = module + (segs[0],), segs[1:]
        if not segs or segs == ["*"]:
            return module
        name = segs[0]
        if name in self.defs.get(module, set()):
            return module
        for upath, bound, _, _ in self.uses.get(module, []):
            if bound == name and not upath.endswith("*"):
                return self.resolve(module, "::".join([upath] + segs[1:]), depth + 1) or module
        for upath, bound, _, _ in self.uses.get(module, []):
            if upath.endswith("::*"):
                target = self.resolve(module, upath[:-3], depth + 1)
                if target is not None and name in self.defs.get(target, set()):
                    return target
        return module

    def edges(self) -> dict[tuple[str, ...], dict[tuple[str, ...], tuple[int, str]]]:
        graph: dict[tuple[str, ...], dict[tuple[str, ...], tuple[int, str]]] = {m: {} for m in self.files}
        for module, text in self.text.items():
            found: list[tuple[str, int]] = [(p, line) for p, _, _, line in self.uses[module]]
            for m in PATH_IN_CODE.finditer(text):
                if re.search(r"\buse\s+[^;]*$", text[max(0, m.start() - 200) : m.start()]):
                    continue
                found.append((m.group(1), text.count("\n", 0, m.start()) + 1))
            for path, line in found:
                target = self.resolve(module, path)
                if target is None or target == module or target not in self.files:
                    continue
                # A parent's `mod child` plus the child's re-export is not a use of the child.
                graph[module].setdefault(target, (line, path))
        return graph

    def name(self, module: tuple[str, ...]) -> str:
        return str(self.files[module].relative_to(ROOT if self.src.is_relative_to(ROOT) else self.src.parent))


def circles(graph: dict) -> list[list]:
    """Strongly connected components with more than one file (Tarjan, iterative)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    result = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    result.append(component)
    return result


def shortest_cycle(graph: dict, component: list) -> list:
    members = set(component)
    best = None
    for start in sorted(component):
        previous = {start: None}
        queue = [start]
        found = None
        while queue and found is None:
            node = queue.pop(0)
            for child in sorted(graph[node]):
                if child not in members:
                    continue
                if child == start:
                    found = node
                    break
                if child not in previous:
                    previous[child] = node
                    queue.append(child)
        if found is None:
            continue
        path = [found]
        while previous[path[-1]] is not None:
            path.append(previous[path[-1]])
        path.reverse()
        if best is None or len(path) < len(best):
            best = path
    return best or sorted(component)


def check_crate(src: Path) -> list[str]:
    crate = Crate(src)
    graph = crate.edges()
    problems = []
    for component in sorted(circles(graph), key=lambda c: sorted(crate.name(m) for m in c)):
        cycle = shortest_cycle(graph, component)
        lines = [f"import circle of {len(component)} files in {src.relative_to(ROOT) if src.is_relative_to(ROOT) else src}:"]
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            line, path = graph[a][b]
            lines.append(f"    {crate.name(a)}:{line} uses {path} ({crate.name(b)})")
        others = sorted(crate.name(m) for m in set(component) - set(cycle))
        if others:
            lines.append(f"    and in the same circle: {', '.join(others)}")
        problems.append("\n".join(lines))
    return problems


def folder_graphs(crate: Crate, graph: dict) -> dict:
    """For every directory level (a module path), the edges between its children: child name ->
    child name -> (file, line, path) of the first use that makes the edge."""
    levels: dict = {}
    for a, targets in graph.items():
        for b, (line, path) in targets.items():
            common = 0
            while common < min(len(a), len(b)) and a[common] == b[common]:
                common += 1
            level = a[:common]
            # The level's own file (its `mod.rs`) is not one of its children.
            if len(a) == common or len(b) == common or level[:1] == ("#bin",) and common < 2:
                continue
            edges = levels.setdefault(level, {})
            edges.setdefault(a[common], {}).setdefault(b[common], (crate.name(a), line, path))
    for level in levels:
        for targets in list(levels[level].values()):
            for b in targets:
                levels[level].setdefault(b, {})
    return levels


def folder_circles(src: Path) -> list[str]:
    crate = Crate(src)
    problems = []
    for level, edges in sorted(folder_graphs(crate, crate.edges()).items()):
        shown = "/".join((str(src.relative_to(ROOT) if src.is_relative_to(ROOT) else src),) + level)
        for component in sorted(circles(edges), key=sorted):
            cycle = shortest_cycle(edges, component)
            lines = [f"folder circle of {len(component)} in {shown}: {' -> '.join(cycle + cycle[:1])}"]
            for a, b in zip(cycle, cycle[1:] + cycle[:1]):
                file, line, path = edges[a][b]
                lines.append(f"    {a} -> {b}: {file}:{line} uses {path}")
            others = sorted(set(component) - set(cycle))
            if others:
                lines.append(f"    and in the same circle: {', '.join(others)}")
            problems.append("\n".join(lines))
    return problems


def print_folders(src: Path) -> int:
    crate = Crate(src)
    levels = folder_graphs(crate, crate.edges())
    for level, edges in sorted(levels.items()):
        print(f"{'/'.join((str(src),) + level)}:")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                file, line, path = edges[a][b]
                print(f"    {a} -> {b}    ({file}:{line} uses {path})")
    problems = folder_circles(src)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} folder circle(s)")
    return 1 if problems else 0


def long_files(roots: list[Path]) -> list[str]:
    problems = []
    for root in roots:
        if not root.exists():
            continue
        for path in sorted(p for ext in ("*.rs", "*.ts", "*.tsx") for p in root.rglob(ext)):
            relative = path.relative_to(root)
            if is_test_file(relative) or "bindings" in relative.parts:
                continue
            count = sum(1 for _ in path.open(encoding="utf-8"))
            if count > MAX_LINES:
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                problems.append(f"{shown}: {count} lines (split before {MAX_LINES})")
    return problems


def self_test() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        (src / "gate").mkdir(parents=True)
        (src / "lib.rs").write_text("//! x\npub mod gate;\nmod events;\n")
        (src / "gate" / "mod.rs").write_text(
            "//! gate\nmod admission;\npub use admission::admit;\n/// not `crate::events::X`\npub struct Source;\n"
        )
        (src / "gate" / "admission.rs").write_text(
            "use crate::events::Event;\npub fn admit() -> Event { Event }\n"
            "#[cfg(test)]\nmod tests { use crate::gate::Source; }\n"
            "#[cfg(all(test, unix))]\nmod unix_tests { use crate::gate::Source; }\n"
        )
        (src / "events.rs").write_text("pub struct Event(crate::gate::Source);\n" + "\n" * 501)
        found = check_crate(src)
        assert len(found) == 1, found
        assert "events.rs:1 uses crate::gate::Source" in found[0], found[0]
        assert "admission.rs:1 uses crate::events::Event" in found[0], found[0]
        assert "gate/mod.rs:3 uses admission::admit" in found[0], found[0]
        # Comments and test modules make no edges: without the real one there is no circle.
        (src / "events.rs").write_text("pub struct Event;\n")
        assert check_crate(src) == [], check_crate(src)
        # `use super::x;` then `x::Y` is resolved through the alias.
        (src / "events.rs").write_text("use crate::gate;\npub struct Event(gate::Source);\n" + "\n" * 501)
        assert len(check_crate(src)) == 1, check_crate(src)
        # A bare path through a child module (`admission::admit()`) is a use as well.
        (src / "events.rs").write_text("pub struct Event;\n" + "\n" * 501)
        (src / "gate" / "mod.rs").write_text("mod admission;\npub struct Source;\npub fn go() { admission::admit(); }\n")
        (src / "gate" / "admission.rs").write_text("pub fn admit() -> super::Source { super::Source }\n")
        assert len(check_crate(src)) == 1 and "gate/mod.rs:3 uses admission::admit" in check_crate(src)[0], check_crate(src)
        longs = long_files([src])
        assert len(longs) == 1 and "events.rs: 502 lines" in longs[0], longs
    with tempfile.TemporaryDirectory() as tmp:
        # Folders: no file circle, but `a/` and `b/` lean on each other through different files.
        src = Path(tmp) / "src"
        for folder in ("a", "b"):
            (src / folder).mkdir(parents=True)
        (src / "lib.rs").write_text("mod a;\nmod b;\nmod low;\n")
        (src / "low.rs").write_text("pub struct Word;\n")
        (src / "a" / "mod.rs").write_text("pub mod one;\npub mod two;\n")
        (src / "a" / "one.rs").write_text("pub struct One(crate::low::Word);\n")
        (src / "a" / "two.rs").write_text("pub struct Two(crate::b::Three);\n")
        (src / "b" / "mod.rs").write_text("mod three;\npub use three::Three;\n")
        (src / "b" / "three.rs").write_text("pub struct Three(crate::a::one::One);\n")
        assert check_crate(src) == [], check_crate(src)
        found = folder_circles(src)
        assert len(found) == 1 and "a -> b -> a" in found[0], found
        assert "two.rs:1 uses crate::b::Three" in found[0] and "three.rs:1 uses crate::a::one::One" in found[0], found
        levels = folder_graphs(Crate(src), Crate(src).edges())
        assert set(levels[()]["a"]) == {"b", "low"} and levels[()]["low"] == {}, levels
        assert ("a",) not in levels, levels  # one.rs and two.rs do not use each other
        # The back edge moved down into the low file: the folders stack.
        (src / "low.rs").write_text("pub struct Word;\npub struct One(pub Word);\n")
        (src / "a" / "one.rs").write_text("pub use crate::low::One;\n")
        (src / "b" / "three.rs").write_text("pub struct Three(crate::low::One);\n")
        assert folder_circles(src) == [], folder_circles(src)
    print("check-structure self-test passed")


def main() -> int:
    if "--self-test" in sys.argv:
        self_test()
        return 0
    if "--folders" in sys.argv:
        at = sys.argv.index("--folders")
        if at + 1 >= len(sys.argv):
            print("usage: check-structure.py --folders CRATE_SRC", file=sys.stderr)
            return 2
        return print_folders(Path(sys.argv[at + 1]).resolve())
    problems: list[str] = []
    for src in CRATE_SRC:
        problems += check_crate(ROOT / src)
    for src in FOLDER_TIERS:
        problems += folder_circles(ROOT / src)
    problems += long_files([ROOT / s for s in CRATE_SRC] + [ROOT / UI_SRC])
    for problem in problems:
        print(problem)
    if problems:
        print(f"\n{len(problems)} structure problem(s): no import circles between a crate's files (nor its folders in {', '.join(FOLDER_TIERS)}), no source file over {MAX_LINES} lines")
        return 1
    print(f"structure: no import circles in {', '.join(CRATE_SRC)}; no folder circles in {', '.join(FOLDER_TIERS)}; no source file over {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

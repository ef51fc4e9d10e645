#!/usr/bin/env python3
"""Checks docs/spec-compliance.md, the matrix of the MCP client requirements, against the repo.

Every test the matrix cites must exist, so that a row cannot claim a test that was renamed or
never written:

- `crates/x/tests/file.rs::fn_name` or `crates/x/src/file.rs::fn_name`: the file exists and
  defines `fn fn_name(`;
- `tests/e2e/file.test.mjs::"title"` or `ui/src/....test.tsx::"title"`: the file exists and holds
  the title as a quoted string;
- `conformance:scenario` or `conformance:scenario@version`: the line is in
  tests/conformance/scenarios.txt, not commented out.

A row whose status is `met` must cite at least one test; a row with any other status
(`met (untested)`, `deviation`, `open`) must give its reason in the Notes column. The totals
table at the end must match the rows. Each problem is printed on one line with the row's id,
and the exit status is 1; otherwise one summary line is printed.

    python3 scripts/check-spec-matrix.py              # check the matrix
    python3 scripts/check-spec-matrix.py --self-test  # prove the check catches bogus references

Paths are relative to the repository root, the parent of this script's directory. Standard
library only.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

MATRIX = Path("docs/spec-compliance.md")
SCENARIOS = Path("tests/conformance/scenarios.txt")
STATUSES = ("met", "met (untested)", "deviation", "open")
NODE_SUFFIXES = (".mjs", ".cjs", ".js", ".jsx", ".ts", ".tsx")

BACKTICKED = re.compile(r"`([^`]+)`")
RUST_REF = re.compile(r"^(?P<path>[\w./-]+\.rs)::(?P<name>[A-Za-z_][A-Za-z0-9_]*)$")
NODE_REF = re.compile(r'^(?P<path>[\w./-]+)::"(?P<title>[^"]+)"$')
CONFORMANCE_REF = re.compile(r"^conformance:(?P<scenario>[\w./@-]+)$")


def split_row(line: str) -> list[str]:
    """The cells of a Markdown table row; `\\|` stays inside its cell."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.replace("\\|", "|").strip() for cell in re.split(r"(?<!\\)\|", body)]


def tables(text: str):
    """Yields (line number, header cells, rows) for each table; rows are (line number, cells)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and re.match(
            r"^\s*\|?\s*:?-{2,}", lines[i + 1]
        ):
            header = [h.lower() for h in split_row(lines[i])]
            start = i + 1
            rows = []
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append((i + 1, split_row(lines[i])))
                i += 1
            yield start, header, rows
        else:
            i += 1


def scenario_lines(root: Path) -> set[str]:
    path = root / SCENARIOS
    if not path.is_file():
        return set()
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            found.add(line)
    return found


def check_reference(root: Path, reference: str, scenarios: set[str]) -> str | None:
    """Why `reference` does not name an existing test, or None if it does."""
    match = CONFORMANCE_REF.match(reference)
    if match:
        scenario = match["scenario"]
        if scenario not in scenarios:
            return f"conformance scenario `{scenario}` is not an active line of {SCENARIOS}"
        return None
    match = RUST_REF.match(reference)
    if match:
        path = root / match["path"]
        if not path.is_file():
            return f"no file {match['path']}"
        pattern = re.compile(r"\bfn\s+" + re.escape(match["name"]) + r"\s*(<[^>{]*>)?\s*\(")
        if not pattern.search(path.read_text(encoding="utf-8", errors="replace")):
            return f"{match['path']} has no `fn {match['name']}(`"
        return None
    match = NODE_REF.match(reference)
    if match and match["path"].endswith(NODE_SUFFIXES):
        path = root / match["path"]
        if not path.is_file():
            return f"no file {match['path']}"
        text = path.read_text(encoding="utf-8", errors="replace")
        title = match["title"]
        quoted = [f'"{title}"', "'" + title.replace("'", "\\'") + "'", f"`{title}`"]
        if not any(q in text for q in quoted):
            return f'{match["path"]} has no test titled "{title}"'
        return None
    return "not a test reference (expected path.rs::fn, path::\"title\" or conformance:name)"


def check(root: Path) -> tuple[int, int, list[str]]:
    """Checks the matrix under `root`: (rows, test references, problems)."""
    matrix = root / MATRIX
    if not matrix.is_file():
        return 0, 0, [f"{MATRIX}: missing"]
    text = matrix.read_text(encoding="utf-8")
    scenarios = scenario_lines(root)
    problems: list[str] = []
    statuses: Counter[str] = Counter()
    seen: dict[str, int] = {}
    references = 0
    totals: dict[str, tuple[int, int]] = {}

    for start, header, rows in tables(text):
        if header[:2] == ["status", "rows"]:
            for line, cells in rows:
                if len(cells) >= 2:
                    label = cells[0].strip("*` ").lower()
                    count = re.sub(r"[^\d]", "", cells[1])
                    if count:
                        totals[label] = (line, int(count))
            continue
        if not {"id", "tests", "status", "notes"} <= set(header):
            continue
        col = {name: header.index(name) for name in ("id", "tests", "status", "notes")}
        for line, cells in rows:
            row_id = cells[col["id"]] if len(cells) > col["id"] else ""
            label = row_id or f"line {line}"
            if len(cells) != len(header):
                problems.append(f"{label}: {len(cells)} cells, the table has {len(header)} columns")
                continue
            if not row_id:
                problems.append(f"{label}: the row has no id")
            elif row_id in seen:
                problems.append(f"{label}: the id is used again (first on line {seen[row_id]})")
            else:
                seen[row_id] = line
            status = cells[col["status"]].strip("` ").lower()
            if status not in STATUSES:
                problems.append(f"{label}: unknown status `{cells[col['status']]}`")
            statuses[status] += 1
            cited = BACKTICKED.findall(cells[col["tests"]])
            references += len(cited)
            for reference in cited:
                why = check_reference(root, reference.strip(), scenarios)
                if why:
                    problems.append(f"{label}: `{reference}`: {why}")
            notes = cells[col["notes"]].strip(" —-")
            if status == "met" and not cited:
                problems.append(f"{label}: status met, but no test is cited")
            elif status in STATUSES and status != "met" and not notes:
                problems.append(f"{label}: status {status} needs its reason in Notes")

    rows_total = sum(statuses.values())
    if rows_total == 0:
        problems.append(f"{MATRIX}: no requirement rows found")
    for label, (line, count) in totals.items():
        actual = rows_total if label == "all" else statuses.get(label, 0)
        if count != actual:
            problems.append(f"totals (line {line}): `{label}` says {count}, the rows give {actual}")
    for status in STATUSES:
        if statuses.get(status) and status not in totals:
            problems.append(f"totals: no line for `{status}` ({statuses[status]} rows)")
    return rows_total, references, problems


SELF_TEST_MATRIX = """\
# Matrix

| ID | Requirement | Tests | Status | Notes |
|----|-------------|-------|--------|-------|
| X-1 | rust | `crates/a/tests/t.rs::good_fn`<br>`crates/a/tests/t.rs::bogus_fn`<br>`crates/a/tests/nope.rs::good_fn` | met | |
| X-2 | node | `ui/src/a.test.tsx::"good title"`, `ui/src/a.test.tsx::"bogus title"`, `tests/e2e/none.test.mjs::"good title"` | met | |
| X-3 | conformance | `conformance:good_scenario`<br>`conformance:good_scenario@2026-07-28`<br>`conformance:commented_scenario`<br>`conformance:versioned@2025-06-18`<br>`conformance:unknown_scenario` | met | |
| X-4 | nothing cited | — | met | |
| X-5 | no reason | — | open | |
| X-6 | fine | — | met (untested) | implemented, no test yet |
| X-7 | odd status | `crates/a/src/lib.rs::unit_fn` | maybe | reason |
| X-8 | not a reference | `some words` | deviation | reason |
| X-1 | duplicate id | `conformance:good_scenario` | met | |

## Totals

| Status | Rows |
|--------|------|
| met | 6 |
| met (untested) | 1 |
| deviation | 1 |
| open | 1 |
| **all** | **9** |
"""

SELF_TEST_EXPECTED = {
    ("X-1", "crates/a/tests/t.rs::bogus_fn"),
    ("X-1", "crates/a/tests/nope.rs::good_fn"),
    ("X-2", 'ui/src/a.test.tsx::"bogus title"'),
    ("X-2", 'tests/e2e/none.test.mjs::"good title"'),
    ("X-3", "conformance:commented_scenario"),
    ("X-3", "conformance:versioned@2025-06-18"),
    ("X-3", "conformance:unknown_scenario"),
    ("X-4", "no test is cited"),
    ("X-5", "needs its reason"),
    ("X-7", "unknown status"),
    ("X-8", "`some words`"),
    ("X-1", "the id is used again"),
    ("totals", "`met` says 6, the rows give 5"),
}

SELF_TEST_FORBIDDEN = (
    "crates/a/tests/t.rs::good_fn`:",
    "crates/a/src/lib.rs::unit_fn",
    'ui/src/a.test.tsx::"good title"',
    "conformance:good_scenario`",
    "conformance:good_scenario@2026-07-28",
    "X-6",
)


def self_test() -> bool:
    """Builds a tiny repo with one good and one bogus reference of each kind and checks that
    exactly the bogus ones (and the broken rows) are reported."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = {
            "crates/a/tests/t.rs": "#[test]\nfn good_fn() {}\n// fn bogus_fn is only a comment\n",
            "crates/a/src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[tokio::test]\n    async fn unit_fn() {}\n}\n",
            "ui/src/a.test.tsx": 'it("good title", () => {});\n',
            "tests/conformance/scenarios.txt": (
                "good_scenario\ngood_scenario@2026-07-28\n# commented_scenario\nversioned@2026-07-28\n"
            ),
            str(MATRIX): SELF_TEST_MATRIX,
        }
        for name, content in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        rows, references, problems = check(root)
    failures = []
    for row_id, fragment in SELF_TEST_EXPECTED:
        if not any(p.startswith(f"{row_id}") and fragment in p for p in problems):
            failures.append(f"not reported: {row_id} {fragment}")
    for fragment in SELF_TEST_FORBIDDEN:
        wrongly = [p for p in problems if fragment in p]
        failures.extend(f"wrongly reported: {p}" for p in wrongly)
    if len(problems) != len(SELF_TEST_EXPECTED):
        failures.append(f"{len(problems)} problems reported, {len(SELF_TEST_EXPECTED)} expected")
    if (rows, references) != (9, 14):
        failures.append(f"counted {rows} rows and {references} references, expected 9 and 14")
    for failure in failures:
        print(f"spec matrix self-test: {failure}", file=sys.stderr)
    if failures:
        for problem in problems:
            print(f"  reported: {problem}", file=sys.stderr)
        return False
    print(f"spec matrix self-test: {len(problems)} planted problems reported, good references accepted")
    return True


THREAT_MODEL = Path("docs/security.md")
THREAT_REF = re.compile(r"`([\w./-]+\.(?:rs|tsx?|mjs)::(?:\"[^\"]+\"|\w+))`")


def check_threat_model(root: Path) -> list[str]:
    """Every test docs/security.md cites exists (the threat model names its tests too)."""
    text = (root / THREAT_MODEL).read_text(encoding="utf-8")
    problems = []
    for reference in THREAT_REF.findall(text):
        why = check_reference(root, reference, set())
        if why:
            problems.append(f"{THREAT_MODEL}: {reference}: {why}")
    return problems


def main(argv: list[str]) -> int:
    if argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    if argv[1:]:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check-spec-matrix.py [--self-test]", file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parent.parent
    rows, references, problems = check(root)
    problems += check_threat_model(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"spec matrix: {len(problems)} problems in {MATRIX} and {THREAT_MODEL}", file=sys.stderr)
        return 1
    print(f"spec matrix: {rows} rows, {references} test references, all found")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

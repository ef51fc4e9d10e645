#!/usr/bin/env python3
"""Step times of a `make test` run: passes its output through unchanged, notes the time of every
`==> step` line, and at the end prints how long each step took (until the next step began) and the
total, so the CI budget is visible in every run. Used by .ci/run: `make test 2>&1 | step-times.py`.
`--self-test` checks the summary on made-up input with a fake clock."""

import sys
import time


def summarise(marks, end):
    """marks: [(start seconds, step name)]; returns the summary's lines."""
    lines = ["", "==> step times"]
    for (start, name), following in zip(marks, marks[1:] + [(end, None)]):
        lines.append(f"{following[0] - start:8.1f} s  {name}")
    if marks:
        lines.append(f"{end - marks[0][0]:8.1f} s  total")
    return lines


def run(stream, out, clock):
    marks = []
    for line in stream:
        out.write(line)
        out.flush()
        if line.startswith("==> "):
            marks.append((clock(), line[4:].strip()))
    for line in summarise(marks, clock()):
        out.write(line + "\n")
    out.flush()


def self_test():
    import io

    ticks = iter([0.0, 2.5, 10.0, 12.0])
    out = io.StringIO()
    run(io.StringIO("==> lint\nok\n==> rust tests\nrunning\n==> e2e\n"), out, lambda: next(ticks))
    text = out.getvalue()
    assert text.startswith("==> lint\nok\n==> rust tests\nrunning\n==> e2e\n"), text
    assert "     2.5 s  lint\n" in text, text
    assert "     7.5 s  rust tests\n" in text, text
    assert "     2.0 s  e2e\n" in text, text
    assert "    12.0 s  total\n" in text, text
    print("step-times self-test passed")


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    else:
        run(sys.stdin, sys.stdout, time.monotonic)

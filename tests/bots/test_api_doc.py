"""docs/api.md: every Python example runs, and prints what the text says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_doc_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_api_example_runs(index: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"docs/api.md example {index + 1}", "exec"), {})
    # Where the doc promises an exact answer in a comment, check it.
    for line, printed in zip(
        [ln for ln in BLOCKS[index].splitlines() if ln.startswith("print(")], out.getvalue().splitlines()
    ):
        promise = re.search(r"#\s+(\S+?)(?::|$)", line)
        if promise and promise.group(1) in ("None", "77", "3"):
            assert printed == promise.group(1), f"{line!r} printed {printed!r}"

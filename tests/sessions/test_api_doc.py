"""docs/api.md, session part: every example runs and prints what its comments promise."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
SESSIONS = DOC.read_text(encoding="utf-8").split("# Bots", 1)[0]
BLOCKS = re.findall(r"```python\n(.*?)```", SESSIONS, flags=re.S)


def test_the_session_part_has_a_game_a_lesson_and_a_puzzle() -> None:
    text = "\n".join(BLOCKS)
    assert len(BLOCKS) >= 3
    assert "GameSession" in text and "LessonSession" in text and "PuzzleSession" in text


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_session_example_prints_what_it_promises(index: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"docs/api.md session example {index + 1}", "exec"), {})
    printing = [ln for ln in BLOCKS[index].splitlines() if ln.startswith("print(")]
    printed = out.getvalue().splitlines()
    assert len(printed) == len(printing)
    for line, shown in zip(printing, printed):
        promise = re.search(r"#\s+(.+?)\s*$", line)
        assert promise is not None, f"{line!r} promises nothing"
        assert shown == promise.group(1), f"{line!r} printed {shown!r}"

"""rich breaks no Russian grouped number at its no-break space (round 15, tutor/cli/nobreak.py).

rich wrapped «12 345» (U+00A0 between the groups) as «12» at a line's end and «345» at the next
line's start; at every width from 24 to 60 columns (the arena's table: 32, where its three columns
fit) each grouped number must come out on one line.
"""

from __future__ import annotations

import io
import re

from rich.console import Console

from tutor.bench.arena import ArenaResult
from tutor.cli.arena import render
from tutor.engine.rules import STANDARD
from tutor.i18n import number, set_language, t

GROUPED = re.compile(r"\d{1,3}(?:\u00a0\d{3})+")


def _printed(width: int, *things: object) -> str:
    console = Console(file=io.StringIO(), width=width, no_color=True, highlight=False)
    for thing in things:
        console.print(thing)
    out = console.file.getvalue()
    assert isinstance(out, str)
    return out


def _cut(numbers: list[str], out: str) -> list[str]:
    """The numbers not found whole on one line of ``out``."""
    return [n for n in numbers if not any(n in line for line in out.splitlines())]


def test_a_russian_sentence_keeps_its_grouped_numbers_on_one_line() -> None:
    set_language("ru")
    text = t("solve.stats", nodes=1_234_567, seconds=12.5, rate=98_765.0)
    numbers = GROUPED.findall(text)
    assert numbers == ["1\u00a0234\u00a0567", "98\u00a0765"], text
    cut = {width: _printed(width, text) for width in range(24, 61) if _cut(numbers, _printed(width, text))}
    assert not cut, next(iter(cut.items()))


def test_the_arena_table_keeps_its_grouped_numbers_whole_at_every_narrow_width() -> None:
    set_language("ru")
    result = ArenaResult(a="hard", b="easy", deals=12_000, games=24_000, bidding=False, wp=0.61,
                         wp_ci=(0.6, 0.62), adp=0.4, adp_ci=(0.3, 0.5), seconds=3600.0, games_per_second=1234.5,
                         decision_ms={"hard": (1520.25, 23456.0), "easy": (0.5, 2.0)}, rules=STANDARD)
    numbers = [number(1234.5, 1), number(23456.0, 0)]
    cut = {}
    for width in range(32, 61):  # narrower, the three columns do not fit: rich cuts every word («Показа…»)
        out = io.StringIO()
        render(result, Console(file=out, width=width, no_color=True, highlight=False))
        if _cut(numbers, out.getvalue()):
            cut[width] = out.getvalue()
    assert not cut, next(iter(cut.items()))

"""Plain sentences wrap between words at the terminal's width (round 14, tutor/cli/say.py).

`ddz puzzle mine` on a 40-column terminal was cut by the terminal inside words: click.echo does not
wrap (rich does, for what it prints).  Checked in both languages at COLUMNS=40, in-process.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.cli.say import terminal_width, wrapped

NBSP = "\u00a0"


def _words_whole(text: str, out: str) -> bool:
    """``out`` is ``text`` with some spaces turned into line breaks (no word cut, none lost)."""
    return " ".join(out.split()) == " ".join(text.split()) and "\n".join(out.split("\n")) == out


def test_wrapped_breaks_between_words_and_keeps_each_line_within_the_width() -> None:
    text = "No puzzles from your games yet: when the solver proves you missed a win late in a game, it is yours."
    out = wrapped(text, 40)
    assert all(len(line) <= 40 for line in out.split("\n")) and out.count("\n") >= 2
    assert _words_whole(text, out)
    assert wrapped(text, None) == text  # no terminal: one sentence a line


def test_wrapped_counts_a_wide_character_as_two_columns() -> None:
    # Round 17: textwrap counts characters, so a line holding 斗地主 (two columns each on a terminal) ran up to three
    # columns past the width; the widths are now the terminal's columns (tutor/cli/say.py's in_cells).
    from unicodedata import east_asian_width

    def columns(line: str) -> int:
        return sum(2 if east_asian_width(char) in ("W", "F") else 1 for char in line)

    text = "Dou Di Zhu (斗地主, Fight the Landlord) is played by three: one landlord against two farmers, 斗地主."
    for width in range(24, 61):
        out = wrapped(text, width)
        assert all(columns(line) <= width for line in out.split("\n")), (width, out)
        assert _words_whole(text, out), width


def test_wrapped_keeps_an_indent_a_long_word_and_a_no_break_space() -> None:
    indented = "  " + "word " * 12
    assert all(line.startswith("  ") for line in wrapped(indented.rstrip(), 20).split("\n"))
    long_word = "x" * 50
    assert wrapped(f"see {long_word} here", 20).split("\n") == ["see", long_word, "here"]
    number = f"за 0,16 с (154{NBSP}407/с)"
    assert f"(154{NBSP}407/с)" in wrapped(number, 8).split("\n")  # not «(154» / «407/с)»


def test_the_width_is_columns_else_a_terminals_else_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert terminal_width(io.StringIO()) == 40
    monkeypatch.setenv("COLUMNS", "5")  # too narrow to be a terminal
    assert terminal_width(io.StringIO()) is None
    monkeypatch.delenv("COLUMNS")
    assert terminal_width(io.StringIO()) is None  # piped: not wrapped


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_puzzle_mine_wraps_at_40_columns_between_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        lang: str) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.delenv("DDZ_LANG", raising=False)
    wide = CliRunner().invoke(main, ["puzzle", "mine", "--lang", lang], env={"COLUMNS": "200"})
    narrow = CliRunner().invoke(main, ["puzzle", "mine", "--lang", lang], env={"COLUMNS": "40"})
    assert wide.exit_code == narrow.exit_code == 0, narrow.output
    assert max(len(line) for line in wide.output.splitlines()) > 40  # the sentence is long…
    assert all(len(line) <= 40 for line in narrow.output.splitlines()), narrow.output  # …and wraps
    assert _words_whole(wide.output, narrow.output), narrow.output


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_solve_wraps_its_sentences_at_40_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    args = ["solve", "L:Q9988 F:JJ5544", "--lang", lang]
    narrow = CliRunner().invoke(main, args, env={"COLUMNS": "40"})
    piped = CliRunner().invoke(main, args, env={"COLUMNS": ""})
    assert narrow.exit_code == piped.exit_code == 0, narrow.output
    assert all(len(line) <= 40 for line in narrow.output.splitlines()), narrow.output
    assert len(piped.output.splitlines()) < len(narrow.output.splitlines())  # piped: a sentence a line
    said = " ".join(piped.output.splitlines()[:-1]).split()  # all but the figures line (its time varies)
    assert narrow.output.split()[: len(said)] == said  # the same words, none cut


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_play_help_is_one_line_a_paragraph_so_the_terminal_can_wrap_it(lang: str) -> None:
    """Its catalogue text broke lines at ~76 columns; at 40 rich wrapped each of them again: ragged lines."""
    from tutor.i18n import Phrase

    paragraphs = Phrase("play.help").render(lang).split("\n")
    assert len(paragraphs) == 3, paragraphs
    assert paragraphs[1].startswith(("Commands:", "Команды")) and paragraphs[2].startswith(("Bidding:", "Торг:"))


def test_reflowed_undoes_an_authors_wrapping_but_keeps_sentences_items_and_tables() -> None:
    from tutor.cli.say import reflowed

    text = ("Каждый получает 17 карт; последние 3 карты кладутся\nрубашкой вверх — это ПРИКУП.\n"
            "Сначала ТОРГ:\n- пас\n- ставка\n  3 4 5 6 7\nT — десятка\n1. первое\nтрио   QQQ\nпара   55")
    assert reflowed(text) == ("Каждый получает 17 карт; последние 3 карты кладутся рубашкой вверх — это ПРИКУП.\n"
                              "Сначала ТОРГ:\n- пас\n- ставка\n  3 4 5 6 7\nT — десятка\n1. первое\nтрио   QQQ\nпара   55")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_lesson_step_wraps_evenly_at_40_columns(tmp_path: Path, lang: str) -> None:
    """The lesson files wrap at ~80 columns; at 40 rich wrapped each line again: «кладутся» alone on a line."""
    result = CliRunner().invoke(main, ["learn", "1", "--lang", lang], input="q\n",
                                env={"COLUMNS": "40", "DDZ_HOME": str(tmp_path), "NO_COLOR": "1"})
    lines = result.output.splitlines()
    step = lines[lines.index(next(line for line in lines if line.startswith(("Шаг 1/", "Step 1/")))) + 1:]
    step = step[: step.index("")] if "" in step else step
    assert len(step) >= 10, result.output
    ragged = [(a, b) for a, b in zip(step, step[1:]) if len(a.rstrip()) < 24 and b[:1].islower()]
    assert not ragged, ragged


def test_a_columns_exported_by_the_shell_does_not_reach_a_test() -> None:
    """``COLUMNS=80 pytest tests/cli`` wrapped serve's one-line note (tests/conftest.py clears it for each test)."""
    assert "COLUMNS" not in os.environ and "LINES" not in os.environ
    assert terminal_width(io.StringIO()) is None  # what CliRunner's output is: no terminal, no width


def test_a_command_named_in_a_sentence_is_never_broken_by_say_or_rich() -> None:
    """Round 15: 40 columns left «Продолжить: ddz play» on one line and «--resume» on the next."""
    from rich.console import Console

    import tutor.cli.render  # noqa: F401  (rich told where not to break: tutor/cli/nobreak.py)
    from tutor.i18n import lookup

    for lang in ("en", "ru"):
        for key, command in (("play.quit_saved", "ddz play --resume"), ("play.stats_none", "ddz play.")):
            text = lookup(key, lang) or ""
            for width in range(20, 61):
                rich = io.StringIO()
                Console(file=rich, width=width, no_color=True).print(text)
                for out in (wrapped(text, width), rich.getvalue()):  # the full stop too stays with its command
                    assert any(command in line for line in out.splitlines()), (lang, width, out)
    assert wrapped("start with ddz puzzle mine --list to see them", 20).splitlines() == [
        "start with", "ddz puzzle mine --list", "to see them"]


def test_the_command_words_are_the_programs() -> None:
    import click

    from tutor.cli.main import COMMAND_MODULES
    from tutor.cli.main import main as group
    from tutor.cli.say import COMMAND_WORDS

    words = set()
    with click.Context(group) as ctx:
        for name in COMMAND_MODULES:
            words.add(name)
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                words.update(command.list_commands(ctx))
    assert words == COMMAND_WORDS

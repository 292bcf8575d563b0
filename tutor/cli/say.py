"""Plain sentences on the terminal, wrapped between words to its width.

rich wraps what it prints (the table, the panels), but ``click.echo`` of a long
sentence does not: on a 40-column terminal the terminal itself cut it inside a
word («…ваших сыгр» / «анных партиях»).  :func:`say` is ``click.echo`` that
wraps at word boundaries to the width of the terminal it writes to.

Only a terminal (or an explicit ``COLUMNS``, as rich honours it) sets a width:
piped output keeps one sentence a line, so ``ddz solve … | grep`` still finds a
whole sentence.  Error lines stay one line (the guide's rule): they never come here.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from typing import IO
from unicodedata import east_asian_width

import click

#: Narrower than this is not wrapped (a width this small is more likely a bad COLUMNS than a terminal).
MIN_WIDTH = 20


def terminal_width(stream: IO[str] | None = None) -> int | None:
    """The width to wrap at: ``COLUMNS`` when set, else the terminal's; None when ``stream`` is no terminal."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit():
        return int(columns) if int(columns) >= MIN_WIDTH else None
    stream = stream if stream is not None else sys.stdout
    try:
        if not stream.isatty():
            return None
        width = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):  # a stream without a file (a test's buffer), a closed one
        return None
    return width if width >= MIN_WIDTH else None


#: The words that follow ``ddz`` in a command line (its commands and subcommands; tests/cli/test_say.py checks
#: them against the program's): a command named in a sentence («ddz play --resume») stays whole on one line.
COMMAND_WORDS = frozenset({
    "add", "analyze", "arena", "bench", "classify", "coach", "deal", "export", "generate", "history", "import",
    "insights", "learn", "lessons", "list", "mine", "mistakes", "movegen", "moves", "passwd", "play", "puzzle",
    "puzzles", "random", "remove", "replay", "serve", "solve", "solver", "startup", "stats", "store", "streak", "unlock",
    "users", "validate", "worker"})
#: ``ddz`` and the words of its command line after it (an option, a command word, a placeholder, a number).
COMMAND = (r"\bddz(?: (?:--?[a-z][\w-]*|" + "|".join(sorted(COMMAND_WORDS, key=len, reverse=True))
           + r"|[A-ZА-ЯЁ]{2,}|\d+)(?![\w-]))+")
_COMMAND = re.compile(COMMAND)
#: Stands for a command's spaces while a line is wrapped (a private-use character: never in our text).
_GLUE = "\ue000"
#: A numbered item's head, `` 2. `` (its continuation lines hang under the text after it).
NUMBERED = re.compile(r" *\d+[.)] +")


#: Stands after each character a terminal draws two columns wide (the title's 斗地主) while a line is measured:
#: click and textwrap count characters, one column each, so a line holding the title ran up to three columns past
#: the width (``ddz --help`` at 42, 51 and 59 columns in English, at 40, 46, 47, 49 and 56 in Russian, round 16).
#: Taken out of the finished text.  A private-use character: never in our text (like :data:`_GLUE`).
WIDE_PAD = "\ue001"


def in_cells(text: str) -> str:
    """``text`` with :data:`WIDE_PAD` after each wide character (East Asian width W or F, as rich and the terminal
    count them): its length is then the columns it takes on a terminal."""
    if text.isascii():
        return text
    return "".join(char + WIDE_PAD if east_asian_width(char) in ("W", "F") else char for char in text)


def wrapped(text: str, width: int | None, hang: int | None = None) -> str:
    """``text`` with each of its lines wrapped between words to ``width`` (None: as it is).

    A line's continuation lines hang under its text: under its leading spaces, or after a numbered item's
    `` 2. `` (``ddz analyze``'s candidates had continued at one space, under the number), or at column
    ``hang`` when one is given (the last column of a row, its reason) and leaves at least :data:`MIN_WIDTH`
    columns to hang there.  A command named in a line («ddz play --resume», :data:`COMMAND_WORDS`) is not
    broken (40 columns had left «ddz play» at one line's end, «--resume» at the next one's start).  A word
    longer than the width (a card string, a path) is left whole rather than cut; a no-break space (a Russian
    «11 740») is not a place to break.  Widths are terminal columns: a wide character (斗) counts two
    (:func:`in_cells`; round 17, before it counted one).
    """
    if width is None:
        return text
    out: list[str] = []
    for line in in_cells(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        line = _COMMAND.sub(lambda command: command.group().replace(" ", _GLUE), line)
        head = NUMBERED.match(line)
        indent = " " * (hang if hang is not None and width - hang >= MIN_WIDTH
                        else head.end() if head is not None and width - head.end() >= MIN_WIDTH
                        else len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent,
                                 break_long_words=False, break_on_hyphens=False, drop_whitespace=True)
                   or [line])
    return "\n".join(out).replace(_GLUE, " ").replace(WIDE_PAD, "")


#: A line ending so ends a sentence or introduces a list: the line break after it is the author's.
_SENTENCE_END = (".", "!", "?", ":", "…")
#: A line starting so is an item of a list (or a hand, a diagram): it keeps its own line.
_ITEM_START = ("-", "•", "*", "–", "—", "→", "[")


def reflowed(text: str) -> str:
    """An author's hard-wrapped text (a lesson step, ~80 columns a line) with its wrapping undone.

    The lesson files break their lines at about 80 columns; on a 40-column terminal rich wrapped
    each of those lines again, leaving a short line after every one («кладутся» alone, then
    «рубашкой вверх — это ПРИКУП.»).  A line joins the next unless it is blank, ends a sentence
    (:data:`_SENTENCE_END`) or the next is indented or an item (:data:`_ITEM_START`, "1."): the
    breaks the author meant stay (an indented line or a row of aligned columns keeps its own), the
    terminal wraps the rest to its width.
    """
    out: list[str] = []
    for line in text.split("\n"):
        if out and out[-1].strip() and line.strip() and not _keeps_break(out[-1], line):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def _keeps_break(before: str, after: str) -> bool:
    head = after.lstrip()
    numbered = head[:1].isdigit() and head.split(" ", 1)[0].rstrip(".)").isdigit() and head.split(" ", 1)[0][-1:] in ".)"
    aligned = "   " in before.strip() or "   " in head.strip()  # a row of a little table, columns lined up
    return (before.rstrip().endswith(_SENTENCE_END) or before[:1].isspace() or after[:1].isspace()
            or head.startswith(_ITEM_START) or numbered or aligned)


def say(text: str, err: bool = False, hang: int | None = None) -> None:
    """``click.echo(text)``, wrapped between words to the terminal's width (see :func:`wrapped`)."""
    stream = sys.stderr if err else sys.stdout
    click.echo(wrapped(text, terminal_width(stream), hang), err=err)

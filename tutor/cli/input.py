"""Reading what the player types at the table: commands, bids, card selections.

One line of input is either a command (``pass``, ``hint``, ``undo``, ``counter``,
``help``, ``quit`` — with short forms and Russian words), a number (a bid, or
the choice between several readings), an empty line (confirm), or cards.
Keeping this a pure function of the text makes the play loop easy to test and
lets lessons and puzzles read input the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from rich.console import Console
from rich.text import Text

from tutor.coach.status import PlayStatus, pass_status, play_status
from tutor.engine.cards import Cards
from tutor.engine.auction import CALL, ROB
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules
from tutor.files import ascii_int


class Command(Enum):
    PASS = "pass"
    HINT = "hint"
    UNDO = "undo"
    COUNTER = "counter"
    HELP = "help"
    QUIT = "quit"
    CONFIRM = "confirm"
    NUMBER = "number"
    CARDS = "cards"
    #: The variants (RULES §12.1, §12.2): claim the landlord, rob it, show the hand.
    CALL = "call"
    ROB = "rob"
    OPEN = "open"


ALIASES: dict[str, Command] = {}
for _command, _words in {
    Command.PASS: ("pass", "p", "пас", "п"),
    Command.HINT: ("hint", "h", "подсказка"),
    Command.CALL: ("call", "заявить", "заявка", "беру"),
    Command.ROB: ("rob", "перехват", "перехватить"),
    Command.OPEN: ("open", "открыть", "открыть руку"),
    Command.UNDO: ("undo", "u", "отмена"),
    Command.COUNTER: ("counter", "c", "счётчик", "счетчик"),
    Command.HELP: ("help", "?", "помощь"),
    # Never "q": a lone Q is the queen.
    Command.QUIT: ("quit", "exit", "выход"),
    Command.CONFIRM: ("", "y", "yes", "play", "да", "ok"),
}.items():
    for _word in _words:
        ALIASES[_word] = _command


@dataclass(frozen=True, slots=True)
class Entry:
    """One parsed line: the command and, for NUMBER and CARDS, its text."""

    command: Command
    text: str = ""

    @property
    def number(self) -> int:
        return int(self.text)


def parse_entry(line: str) -> Entry:
    """Classify one line of input (case-insensitive; surrounding spaces ignored).

    ``p`` is pass and ``d``/``x`` are jokers, so single letters that are also
    card names (``d``, ``x``, ``t``…) are read as cards unless listed as commands.
    Digits 1–9 alone are numbers (a bid or a choice); ``10`` and longer digit
    strings are cards.  Any space is a space: the help's example «3 3 3 4 4» is written with no-break spaces
    (a narrow terminal must not split it over two lines), and pasted back it reads as the cards it shows.
    """
    text = " ".join(line.split())
    word = text.lower()
    if word in ALIASES:
        return Entry(ALIASES[word])
    if ascii_int(word, 1) is not None:
        return Entry(Command.NUMBER, word)
    return Entry(Command.CARDS, text)


def selection_status(hand: Cards, table: Combo | None, entry: Entry) -> PlayStatus:
    """The status line for a CARDS or PASS entry (see :mod:`tutor.coach.status`)."""
    if entry.command is Command.PASS:
        return pass_status(table)
    return play_status(hand, table, entry.text)


def parse_bid(line: str, legal: list[int], rules: Rules) -> int | None:
    """A bid from ``0``/``pass``/``1``/``2``/``3`` — in a rob auction ``call``/``rob``/``pass``
    (RULES §12.1) — as an auction code; None when it is not one of ``legal``."""
    entry = parse_entry(line)
    if entry.command is Command.PASS:
        amount = 0
    elif rules.robs:
        words = {Command.CALL: CALL, Command.ROB: ROB}
        if entry.command not in words:
            return None
        amount = words[entry.command]
    elif entry.command is Command.NUMBER or (entry.command is Command.CARDS and entry.text == "0"):
        amount = int(entry.text)
    else:
        return None
    return amount if amount in legal else None


#: Reads one line after showing a prompt; None at the end of input.
Reader = Callable[[str], "str | None"]


def stdin_reader(console: Console) -> Reader:
    """Print the prompt and read one line from stdin; None at end of input."""

    def read(prompt: str) -> str | None:
        console.print(Text(f"{prompt}: ", style="bold cyan"), end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            return None
        return line.rstrip("\n")

    return read

"""Reading a line at the table: commands, numbers, bids and cards."""

from __future__ import annotations

from tutor.cli.input import Command, parse_bid, parse_entry
from tutor.engine.rules import STANDARD


def test_commands_have_short_and_russian_forms() -> None:
    for text, command in [
        ("pass", Command.PASS), ("P", Command.PASS), ("пас", Command.PASS),
        ("hint", Command.HINT), ("h", Command.HINT), ("undo", Command.UNDO), ("u", Command.UNDO),
        ("counter", Command.COUNTER), ("help", Command.HELP), ("?", Command.HELP),
        ("quit", Command.QUIT), ("", Command.CONFIRM), ("  ", Command.CONFIRM),
        ("y", Command.CONFIRM), ("play", Command.CONFIRM),
    ]:
        assert parse_entry(text).command is command, text


def test_card_letters_stay_cards() -> None:
    for text in ("d", "x", "XD", "10", "33344", "3 3 3 4 4", "t"):
        entry = parse_entry(text)
        assert entry.command is Command.CARDS and entry.text == text.strip()


def test_a_lone_digit_is_a_number() -> None:
    entry = parse_entry("2")
    assert entry.command is Command.NUMBER and entry.number == 2


def test_bids_follow_rule_3() -> None:
    assert parse_bid("pass", [0, 1, 2, 3], STANDARD) == 0
    assert parse_bid("0", [0, 1, 2, 3], STANDARD) == 0
    assert parse_bid("2", [0, 3], STANDARD) is None  # must be higher than every earlier bid
    assert parse_bid("3", [0, 3], STANDARD) == 3
    assert parse_bid("hint", [0, 1], STANDARD) is None


def test_a_lone_q_is_the_queen_not_quit() -> None:
    entry = parse_entry("Q")
    assert entry.command is Command.CARDS

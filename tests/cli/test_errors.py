"""The pieces of one-line errors: shortening, bounded numbers and seconds."""

from __future__ import annotations

import click
import pytest

from tutor.cli.errors import MAX_DEAL, BoundedFloat, BoundedInt, Seconds, one_line, shorten


def test_shorten_keeps_short_text_and_marks_a_cut() -> None:
    assert shorten("abc") == "abc"
    assert shorten("x" * 100) == "x" * 39 + "…"
    assert len(shorten("x" * 100)) == 40


def test_one_line_is_one_short_printable_line() -> None:
    line = one_line("bad card '@' in '" + "3@\n\x1b[31m" * 10_000 + "' (cards are 3-9 T J Q K A 2 X D)")
    assert "\n" not in line and "\x1b" not in line
    assert len(line) <= 240
    assert line.endswith("(cards are 3-9 T J Q K A 2 X D)")


def test_one_line_cuts_a_long_word_even_unquoted() -> None:
    assert one_line("no lesson " + "9" * 5_000) == "no lesson " + "9" * 39 + "…"


def test_one_line_leaves_ordinary_messages_alone() -> None:
    message = "exactly one landlord is needed, roles are 'FF'"
    assert one_line(message) == message


@pytest.mark.parametrize("text", ["-1", "nan", "abc", "1.5", "9" * 5_000, str(MAX_DEAL + 1), "", "１"])
def test_bounded_int_refuses(text: str) -> None:
    with pytest.raises(click.BadParameter) as caught:
        BoundedInt(0, MAX_DEAL).convert(text, None, None)
    assert "4300" not in str(caught.value) and len(str(caught.value)) < 120


def test_bounded_int_accepts_the_range_ends() -> None:
    assert BoundedInt(0, MAX_DEAL).convert(str(MAX_DEAL), None, None) == MAX_DEAL
    assert BoundedInt(1, 4).convert(" 1 ", None, None) == 1
    assert "out of range (1..4)" in _fail(BoundedInt(1, 4), "64")


def _fail(kind: click.ParamType, text: str) -> str:
    with pytest.raises(click.BadParameter) as caught:
        kind.convert(text, None, None)
    return str(caught.value)


@pytest.mark.parametrize("text", ["nan", "-nan", "inf", "-inf", "-1", "1e999", "86401", "x"])
def test_seconds_refuse_what_is_not_a_time(text: str) -> None:
    _fail(Seconds(86_400.0), text)


def test_seconds_zero_means_none_unless_refused() -> None:
    assert Seconds(60.0).convert("0", None, None) == 0.0
    assert "more than 0" in _fail(Seconds(60.0, zero=False), "0")
    assert Seconds(60.0, zero=False).convert("0.5", None, None) == 0.5


def test_bounded_float_refuses_nan() -> None:
    assert "out of range" in _fail(BoundedFloat(0, 5000), "nan")
    assert BoundedFloat(0, 5000).convert("1500", None, None) == 1500.0

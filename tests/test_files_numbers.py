"""Digits that are digits (issue 32): every place that reads a number from text takes 0-9 only.

``str.isdigit()`` is true for ``²``, ``①`` and ``٣``; ``int()`` then raised (a 500 on the web, "invalid
literal for int()" in the terminal), and ``int()`` itself reads ``１２`` and ``1_0``.  Every parser
now goes through :func:`tutor.files.ascii_int`; the properties below feed each one text that is
not plain ASCII digits and check it is refused, and plain digits that it is accepted.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.coach.describe import DescriptionError, parse_counts
from tutor.coach.moments import BID_MOMENT
from tutor.engine.rules import STANDARD
from tutor.files import ascii_int
from tutor.lessons.course import LessonNotFoundError, find_lesson, load_course
from tutor.lessons.runner import parse_kind_answer, parse_number_answer
from tutor.sessions.mistakes import choice_code

#: Characters that ``str.isdigit()`` or ``int()`` take for digits, but are not 0-9.
LOOKALIKES = "²³¹①⑨⓪０１２９٠٣۵߁०३৩੩૩୩௩౩೩൩๓໓༣၃႓០᠓᥆᧓᪃᭓᮳᱃꘣꣓꤃꧓꩓꯳𝟘𝟙𝟡𝟿" + "_."
#: (Spaces and signs are left out: the answer parsers strip spaces and read "-1" on purpose.)

#: Text with at least one character that is not an ASCII digit, short enough to be read as a number.
not_digits = st.builds(
    lambda head, odd, tail: head + odd + tail,
    st.text(alphabet="0123456789", max_size=3),
    st.sampled_from(LOOKALIKES) | st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: c not in "0123456789"),
    st.text(alphabet="0123456789" + LOOKALIKES, max_size=3),
)
digits = st.text(alphabet="0123456789", min_size=1, max_size=3)


@settings(max_examples=300)
@given(st.text(max_size=30) | not_digits | digits, st.integers(1, 25))
def test_ascii_int_takes_only_ascii_digits(text: str, limit: int) -> None:
    value = ascii_int(text, limit)
    if re.fullmatch(f"[0-9]{{1,{limit}}}", text):
        assert value == int(text)
    else:
        assert value is None
    signed = ascii_int(text, limit, signed=True)
    assert (signed is not None) == bool(re.fullmatch(f"-?[0-9]{{1,{limit}}}", text))


@functools.lru_cache(maxsize=1)
def _course() -> list[Any]:
    return list(load_course())


@settings(max_examples=120)
@given(text=not_digits)
def test_every_number_parser_refuses_what_is_not_ascii_digits(text: str) -> None:
    course = _course()
    from tutor.cli.input import Command, parse_entry
    from tutor.cli.resume import _number
    from tutor.web.errors import ApiError, field_deal

    assert parse_entry(text).command is not Command.NUMBER
    assert _number(text, 9) is None
    assert choice_code(BID_MOMENT, text, STANDARD) is None
    with pytest.raises(ValueError):
        parse_number_answer(text)
    with pytest.raises(ValueError):
        parse_kind_answer(text)
    with pytest.raises(DescriptionError):
        parse_counts(f"right={text},left=3")
    with pytest.raises(ApiError) as refused:
        field_deal({"deal": text}, "deal")
    assert refused.value.status == 400
    if text.strip() and not any(lesson.id.startswith(text.strip()) for lesson in course):
        with pytest.raises(LessonNotFoundError):
            find_lesson(course, text)


#: Every text of one to three ASCII digits that reads 1, 2 or 3 (nine in all: Hypothesis tries each once).  Drawn as
#: ``digits.filter(lambda d: 1 <= int(d) <= 3)`` before, 98 % of the draws were thrown away and the test gave up on
#: most of its runs after Hypothesis's many tries (docs/testing.md, round 14).
ONE_TO_THREE = [zeros + digit for zeros in ("", "0", "00") for digit in "123"]


@given(text=st.sampled_from(ONE_TO_THREE))
def test_the_same_parsers_take_ascii_digits(text: str) -> None:
    course = _course()
    from tutor.cli.input import Command, parse_entry
    from tutor.cli.resume import _number
    from tutor.web.errors import field_deal

    number = int(text)
    assert parse_entry(text).command is Command.NUMBER or len(text) > 1
    assert _number(text, 9) == number
    assert choice_code(BID_MOMENT, text, STANDARD) == number or len(text) > 1
    assert parse_number_answer(text) == number and parse_number_answer("-" + text) == -number
    assert parse_counts(f"right={text},left=3") == {1: number, 2: 3}
    assert field_deal({"deal": text}, "deal") == number
    assert find_lesson(course, text) is course[number - 1]

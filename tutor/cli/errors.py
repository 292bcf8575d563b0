"""Turning the errors a user can cause into one clear line and exit status 2.

Every message that reaches the terminal goes through :func:`one_line`: one line
(no newline, no control character from the input), the input it quotes cut
to :data:`QUOTE_LIMIT` characters with an ellipsis, and the whole line to
:data:`LINE_LIMIT` — a 100,000-card argument must not come back as 100 KB of
error.  The root group (:mod:`tutor.cli.main`) applies it to click's own usage
errors as well, and turns Ctrl-C into :class:`Interrupted` (exit 130).
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import click

from tutor.i18n import DEFAULT_LANGUAGE, language, number, t

P = ParamSpec("P")
R = TypeVar("R")

#: At most this many characters of the user's input are quoted back.
QUOTE_LIMIT = 40
#: No error line is longer than this.
LINE_LIMIT = 240
#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells do).
INTERRUPTED_EXIT = 130
ELLIPSIS = "…"

# Control characters, and lone surrogates (bytes of a file name that are not UTF-8): printing
# one to a UTF-8 terminal would be a UnicodeEncodeError instead of the message.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# 'text', "text", «text» — what our messages (and repr(), and click) use to quote input.
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|«[^»]*»")
_LONG_WORD = re.compile(r"\S{%d,}" % (QUOTE_LIMIT + 1))


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def _short_quote(match: re.Match[str]) -> str:
    quoted = match.group(0)
    if len(quoted) <= QUOTE_LIMIT + 2:
        return quoted
    return quoted[0] + shorten(quoted[1:-1]) + quoted[-1]


def one_line(message: str) -> str:
    """``message`` as one printable line, quoted input at most ~40 characters.

    Control characters (newlines included) become spaces, quoted text and any
    run of more than :data:`QUOTE_LIMIT` non-blank characters is cut, and the
    line itself at :data:`LINE_LIMIT`.
    """
    text = " ".join(_CONTROL.sub(" ", message).split())
    text = _QUOTED.sub(_short_quote, text)
    text = _LONG_WORD.sub(lambda m: shorten(m.group(0)), text)
    return shorten(text, LINE_LIMIT)


def error_line(message: str) -> str:
    """``error: …`` in the current language («ошибка: …» in Russian), the message as :func:`one_line`.

    Every error line of ``ddz`` starts so; the head comes from the catalogue (cli.error), at display
    time, like the message after it: an English head before a Russian message read as a slip.
    """
    return t("cli.error", message=one_line(message))


class UserError(click.ClickException):
    """A problem with what the user typed or gave us; printed as one line, exit 2."""

    exit_code = 2

    def show(self, file: object = None) -> None:  # noqa: D102 - click API
        click.echo(error_line(self.format_message()), err=True)


class Interrupted(click.ClickException):
    """Ctrl-C: one line on stderr, exit status 130 (see :mod:`tutor.cli.main`)."""

    exit_code = INTERRUPTED_EXIT

    def __init__(self) -> None:
        super().__init__("interrupted")

    def show(self, file: object = None) -> None:  # noqa: D102 - click API
        click.echo(t("cli.interrupted"), err=True)


#: Messages the engine and the solver word in English (they speak no language: tutor/engine is pure rules), and
#: the catalogue key that says each at the edge in the learner's language: `ddz classify 3z --lang ru` said
#: "bad card 'z' in '3z'" in English.
_DOMAIN_MESSAGES = (
    (re.compile(r"bad card (?P<ch>'[^']*'|\"[^\"]*\") in (?P<text>.*) \(cards are 3-9 T J Q K A 2 X D\)$", re.S),
     "cli.bad_card"),
    (re.compile(r"too many (?P<rank>'[^']*') in (?P<text>.*): (?P<n>\d+) \(the deck has (?P<deck>\d+)\)$", re.S),
     "cli.too_many"),
    (re.compile(r"player (?P<item>.*) should read ROLE:CARDS, e\.g\. 'L:AAA33'$", re.S), "cli.player_form"),
)


def domain_message(message: str) -> str:
    """An engine's English message in the current language, when it is one of :data:`_DOMAIN_MESSAGES`."""
    if language() == DEFAULT_LANGUAGE:
        return message
    for pattern, key in _DOMAIN_MESSAGES:
        match = pattern.match(message)
        if match is not None:
            return t(key, **match.groupdict())
    return message


def handle_user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that ``ValueError`` (our domain errors) becomes a :class:`UserError`.

    The engine raises ``ValueError`` subclasses whose messages name the bad
    input (``InvalidCardsError``, ``IllegalPlayError``, …); at the edge of the
    program they become one line instead of a traceback.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ValueError as error:
            if "int_max_str_digits" in str(error):  # int() of thousands of digits somewhere below
                raise UserError(t("cli.number_too_long")) from None
            raise UserError(domain_message(str(error))) from None

    return wrapper


class GivenPath(click.Path):
    """A path the user names: refused when empty (``''`` would quietly mean the current folder)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail(t("cli.empty_path"), param, ctx)
        return super().convert(value, param, ctx)


class GivenText(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2
    """Text the user names (a theme): refused when empty, where ``''`` would quietly mean "any" (issue 32)."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail(t("harden.empty_text"), param, ctx)
        return value


# --------------------------------------------------------------- bounded options
#: Deal numbers are taken modulo 2**64 (RULES §2): larger ones are refused, not wrapped.
MAX_DEAL = 2**64 - 1
#: Longest decimal text read as a number: longer is out of range before any conversion
#: (Python refuses int() of more than 4300 digits, with a message about its own limit).
_MAX_DIGITS = 40


class BoundedInt(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2
    """An integer in ``[low, high]``, read without Python's digit-limit error.

    Out of range says so and names the range; the text quoted is shortened.
    """

    name = "integer"

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:  # noqa: D102
        return "INTEGER"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """``value`` as an int in range, or a one-line failure naming the range."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            digits = text.removeprefix("-").removeprefix("+")
            if not (digits.isascii() and digits.isdigit()):
                self.fail(t("cli.not_integer", text=repr(shorten(text))), param, ctx)
            if len(digits.lstrip("0")) > _MAX_DIGITS:
                self.fail(t("cli.out_of_range", text=repr(shorten(text)), low=self.low, high=self.high), param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(t("cli.out_of_range", text=shorten(str(number)), low=self.low, high=self.high), param, ctx)
        return number

    def __repr__(self) -> str:
        return f"BoundedInt({self.low}, {self.high})"


class BoundedFloat(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2
    """A finite number in ``[low, high]`` (``(low, high]`` with ``low_open``).

    nan and inf are refused, unlike click's FloatRange, which lets nan through.
    """

    name = "number"

    def __init__(self, low: float, high: float, low_open: bool = False) -> None:
        self.low = low
        self.high = high
        self.low_open = low_open

    def not_a_number(self, text: str) -> str:
        return t("cli.not_number", text=text)

    def out_of_range(self, text: str) -> str:
        return t("cli.out_of_range", text=text, low=number(self.low, group=False), high=number(self.high, group=False))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        """``value`` as a float in range, or a one-line failure naming the range."""
        text = repr(shorten(str(value)))
        if isinstance(value, str) and (not value.isascii() or "_" in value):
            self.fail(self.not_a_number(text), param, ctx)  # float() reads "１２", "٣" and "1_0" (issue 32)
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(self.not_a_number(text), param, ctx)
        above_low = self.low < number if self.low_open else self.low <= number
        if not math.isfinite(number) or not above_low or number > self.high:
            self.fail(self.out_of_range(text), param, ctx)
        return number


class Seconds(BoundedFloat):
    """A number of seconds: finite, ``0 <= s <= high`` (0 meaning "no limit" where the help says so),
    or ``0 < s <= high`` with ``zero=False``."""

    name = "seconds"

    def __init__(self, high: float = 86_400.0, zero: bool = True) -> None:
        super().__init__(0.0, high, low_open=not zero)

    def not_a_number(self, text: str) -> str:
        return t("cli.not_seconds", text=text)

    def out_of_range(self, text: str) -> str:
        key = "cli.seconds_range_positive" if self.low_open else "cli.seconds_range"
        return t(key, text=text, high=self.high)


def deal_number_type() -> BoundedInt:
    """Deal numbers (and seeds that are deal numbers): 0..2**64-1."""
    return BoundedInt(0, MAX_DEAL)


def max_workers() -> int:
    """The most worker processes a command accepts: this machine's cores (at least 2, at most 16)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        cores = os.cpu_count() or 1
    return max(2, min(16, cores))


def workers_type() -> BoundedInt:
    """``--workers``: 1 to :func:`max_workers` (``--workers 64`` on two cores is a mistake, not a wish)."""
    return BoundedInt(1, max_workers())

"""Errors a request can cause: a 4xx JSON answer with one line, never a traceback.

Every line is a catalogue phrase (``web.err_*``), rendered when the answer is
written, in the language of that request (``?lang=`` or the learner's setting):
a Russian learner never reads an English refusal.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from tutor.files import ascii_int
from tutor.i18n import Phrase


class ApiError(Exception):
    """A refused request: ``status`` (4xx), a one-line message and ``extra`` for the JSON body.

    The message is a :class:`Phrase` rendered late (in the request's language);
    a plain string is only for a line already rendered from the catalogues
    (a store error, a session's status line).
    """

    def __init__(self, status: int, message: Phrase | str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra or {}

    def render(self) -> str:
        """The line in the current language."""
        return self.message.render() if isinstance(self.message, Phrase) else self.message


def refuse(status: int, key: str, extra: dict[str, Any] | None = None, /, **values: object) -> ApiError:
    """``ApiError`` with the catalogue line ``web.<key>`` (formatted with ``values`` when it is rendered)."""
    return ApiError(status, Phrase(f"web.{key}", values), extra)


def quoted(text: object) -> str:
    """At most ~40 characters of the bad input, quoted (the guide's rule for messages)."""
    shown = str(text)
    return repr(shown if len(shown) <= 40 else shown[:40] + "…")


#: Deepest nesting of arrays and objects in a request (the page sends two levels).
MAX_DEPTH = 32
#: Longest number in a request, in characters (a deal number has at most 20 digits).
MAX_NUMBER = 40
#: Outside strings, the next byte that matters: a quote or a bracket.
_OUTSIDE = re.compile(rb'["\[\]{}]')
#: The rest of a string after its opening quote, anchored where it starts: ``[^"\\]`` and ``\\.`` never
#: match the same byte, so a match (or a failure) costs one pass over what it covers.
_STRING_REST = re.compile(rb'(?:[^"\\]++|\\.)*+"', re.DOTALL)


def parse_body(raw: bytes) -> dict[str, Any]:
    """The request's JSON object (400 when it is not one, or is nested or numbered beyond the bounds).

    ``json.loads`` recurses once per level (``"[" * 30000`` was a RecursionError and a
    500) and turns any run of digits into an int (5,000 digits: a ValueError and a 500),
    so the depth is measured first, in one linear pass over the body with its strings
    taken out, and numbers are parsed by hooks that refuse long ones, NaN and infinities.
    """
    if not raw:
        return {}
    depth = _depth(raw)
    if depth > MAX_DEPTH:
        raise refuse(400, "err_json_deep", limit=MAX_DEPTH)
    try:
        data = json.loads(raw, parse_int=_number(int), parse_float=_number(float), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise refuse(400, "err_utf8") from None
    except json.JSONDecodeError as error:
        raise refuse(400, "err_json", line=error.lineno, column=error.colno) from None
    except _BadNumber as error:
        raise refuse(400, "err_json_number", value=quoted(error.args[0]), limit=MAX_NUMBER) from None
    except RecursionError:  # belt and braces: the depth check above comes first
        raise refuse(400, "err_json_deep", limit=MAX_DEPTH) from None
    if not isinstance(data, dict):
        raise refuse(400, "err_not_object", value=quoted(data))
    return data


class _BadNumber(ValueError):
    """A number in a request that is too long, or not finite."""


def _depth(raw: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (an unbalanced body fails in the parser)."""
    return depth_scan(raw)[0]


def depth_scan(raw: bytes, stop: int = MAX_DEPTH) -> tuple[int, int]:
    """``(deepest nesting, steps)``: one forward pass, never looking at a byte twice.

    Issue 32: the old check removed strings with ``re.sub`` of an unanchored string
    pattern, which on ``"`` followed by 32,000 ``\\"`` started a scan to the end at
    every quote: quadratic, 22 s of CPU for 64 KB, with the GIL held.  Here each step
    jumps to the next quote or bracket, and a string is consumed by an anchored match
    from its opening quote, so every byte is covered once; the count of steps (at most
    one per bracket or string, plus one) is returned so that tests can hold it to that.
    The scan stops as soon as the nesting passes ``stop`` (the body is refused anyway).
    An unterminated string ends the scan: the JSON parser refuses the body.
    """
    deepest = level = steps = 0
    pos = 0
    while True:
        steps += 1
        found = _OUTSIDE.search(raw, pos)
        if found is None:
            break
        byte = raw[found.start()]
        if byte == 0x22:  # '"'
            rest = _STRING_REST.match(raw, found.end())
            if rest is None:
                break
            pos = rest.end()
            continue
        pos = found.end()
        if byte in b"[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > stop:
                    break
        else:
            level -= 1
    return deepest, steps


def _number(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER:
            raise _BadNumber(text)
        value = kind(text)
        if isinstance(value, float) and not math.isfinite(value):
            raise _BadNumber(text)
        return value

    return parse


def _no_constant(text: str) -> Any:
    raise _BadNumber(text)  # NaN, Infinity, -Infinity: not JSON


def field_int(body: dict[str, Any], name: str, default: int | None = None, low: int = 0,
              high: int = 2**31) -> int:
    """An integer field of the body (400 when missing or not an integer in range)."""
    value = body.get(name, default)
    if value is None:
        raise refuse(400, "err_missing", name=name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(400, "err_int", name=name, low=low, high=high, value=quoted(value))
    return value


#: Deal numbers are taken modulo 2**64 (RULES §2), as the terminal takes them.
MAX_DEAL = 2**64 - 1


def field_deal(body: dict[str, Any], name: str) -> int:
    """A deal number: a string of digits (how the page sends it: a JSON number loses digits
    above 2**53 in a browser) or an integer, from 0 to 2**64-1 (400 otherwise)."""
    value = body.get(name)
    if value is None:
        raise refuse(400, "err_missing", name=name)
    if isinstance(value, str) and ascii_int(value, 20) is not None:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DEAL:
        raise refuse(400, "err_int", name=name, low=0, high=MAX_DEAL, value=quoted(value))
    return value


def field_str(body: dict[str, Any], name: str, default: str | None = None, limit: int = 200) -> str:
    value = body.get(name, default)
    if value is None:
        raise refuse(400, "err_missing", name=name)
    if not isinstance(value, str) or len(value) > limit:
        raise refuse(400, "err_text", name=name, value=quoted(value))
    return value


def field_bool(body: dict[str, Any], name: str) -> bool | None:
    value = body.get(name)
    if value is not None and not isinstance(value, bool):
        raise refuse(400, "err_bool", name=name, value=quoted(value))
    return value

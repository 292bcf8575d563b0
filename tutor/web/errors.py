"""Errors a request can cause: a 4xx JSON answer with one line, never a traceback.

Every line is a catalogue phrase (``web.err_*``), rendered when the answer is
written, in the language of that request (``?lang=`` or the learner's setting):
a Russian learner never reads an English refusal.
"""

from __future__ import annotations

import json
from typing import Any

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


def parse_body(raw: bytes) -> dict[str, Any]:
    """The request's JSON object (400 when it is not one)."""
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise refuse(400, "err_utf8") from None
    except json.JSONDecodeError as error:
        raise refuse(400, "err_json", line=error.lineno, column=error.colno) from None
    if not isinstance(data, dict):
        raise refuse(400, "err_not_object", value=quoted(data))
    return data


def field_int(body: dict[str, Any], name: str, default: int | None = None, low: int = 0,
              high: int = 2**31) -> int:
    """An integer field of the body (400 when missing or not an integer in range)."""
    value = body.get(name, default)
    if value is None:
        raise refuse(400, "err_missing", name=name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(400, "err_int", name=name, low=low, high=high, value=quoted(value))
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

"""Errors a request can cause: a 4xx JSON answer with one line, never a traceback."""

from __future__ import annotations

import json
from typing import Any


class ApiError(Exception):
    """A refused request: ``status`` (4xx) and a one-line message; ``extra`` joins the JSON body."""

    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra or {}


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
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ApiError(400, f"malformed JSON: {error.msg if hasattr(error, 'msg') else error}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the body must be a JSON object, not {quoted(data)}")
    return data


def field_int(body: dict[str, Any], name: str, default: int | None = None, low: int = 0,
              high: int = 2**31) -> int:
    """An integer field of the body (400 when missing or not an integer in range)."""
    value = body.get(name, default)
    if value is None:
        raise ApiError(400, f"missing field {name!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"field {name!r} must be an integer {low}..{high}, not {quoted(value)}")
    return value


def field_str(body: dict[str, Any], name: str, default: str | None = None, limit: int = 200) -> str:
    value = body.get(name, default)
    if value is None:
        raise ApiError(400, f"missing field {name!r}")
    if not isinstance(value, str) or len(value) > limit:
        raise ApiError(400, f"field {name!r} must be a short text, not {quoted(value)}")
    return value


def field_bool(body: dict[str, Any], name: str) -> bool | None:
    value = body.get(name)
    if value is not None and not isinstance(value, bool):
        raise ApiError(400, f"field {name!r} must be true or false, not {quoted(value)}")
    return value

"""The JSON API: one small function per route (check input, call the adapter, answer).

Every function runs in a worker thread with the store open; the answer is
worded in ``?lang=`` or the learner's language setting.  Routes that act on a
session check the page's revision (``rev``) first, so a stale tab is refused
with 409 and the table it should draw instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tutor.i18n import LANGUAGES, catalogue, lookup
from tutor.web.context import LEVELS, Context, chosen_lang
from tutor.web.errors import ApiError, field_bool, field_str, quoted

Query = Mapping[str, str]


def strings(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    """The page's own labels (``web.*``) in the language asked for."""
    with context.store() as store:
        lang = chosen_lang(store, context, query.get("lang"))
    words = {key[4:]: value for key, value in catalogue("en").items() if key.startswith("web.")}
    words.update({key[4:]: value for key, value in catalogue(lang).items() if key.startswith("web.")})
    words["legend"] = lookup("play.legend", lang) or ""
    for level in LEVELS:
        words[f"level_{level}"] = lookup(f"play.level_{level}", lang) or level
    return {"lang": lang, "languages": list(LANGUAGES), "strings": words}


def get_settings(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    with context.store() as store:
        return {"settings": context.settings(store), "levels": list(LEVELS), "languages": list(LANGUAGES)}


def put_settings(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    """Change settings (the terminal's keys, so ``ddz play`` sees them too); all checked before any is saved."""
    changes: dict[str, Any] = {}
    for key in body:
        if key not in ("lang", "level", "coach", "counter"):
            raise ApiError(400, f"unknown setting {quoted(key)}")
    if "lang" in body:
        lang = field_str(body, "lang", limit=5)
        if lang not in LANGUAGES:
            raise ApiError(400, f"unknown language {quoted(lang)}")
        changes["lang"] = lang
    if "level" in body:
        level = field_str(body, "level", limit=10)
        if level not in LEVELS:
            raise ApiError(400, f"unknown level {quoted(level)}")
        changes["level"] = level
    for key in ("coach", "counter"):
        if key in body:
            changes[key] = field_bool(body, key)
    with context.store() as store:
        for key, value in changes.items():
            store.set_setting(key, value)
        return {"settings": context.settings(store)}


ROUTES: list[tuple[str, str, Callable[[Context, dict[str, Any], Query], dict[str, Any]]]] = [
    ("/api/strings", "GET", strings),
    ("/api/settings", "GET", get_settings),
    ("/api/settings", "POST", put_settings),
]

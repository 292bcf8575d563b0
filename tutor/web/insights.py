"""Your habits across games in the browser (issue 29): the data of ``ddz insights --json``, with its words.

A thin adapter over :mod:`tutor.sessions.insights`: the same figures as the
terminal's ``--json`` (``games``, ``unanalysed_games``, ``patterns``), each
pattern with its short name, its line and its trend in the learner's language,
and each moment with the words that name it; the page draws them and links a
moment to its game (learn from your mistakes for a flagged one, the replay for
a small cost).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tutor.files import ascii_int
from tutor.i18n import Phrase, speaking, t
from tutor.web.context import Context, chosen_lang
from tutor.web.errors import ApiError, quoted

#: The games read when the page does not say (as ``ddz insights``).
GAMES = 20


def insights(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
    """The learner's costliest habits over their last ``?games=`` finished games."""
    from tutor.sessions.insights import insight_phrases
    from tutor.sessions.insights import insights as read

    text = query.get("games", str(GAMES))
    games = ascii_int(text, 6)
    if games is None or not 1 <= games <= 10_000:
        raise ApiError(400, Phrase("insights.web_bad_games", {"value": quoted(text)}))
    with context.store() as store, speaking(chosen_lang(store, context, query.get("lang"))):
        found = read(store, games)
        data = found.to_json()
        lines = insight_phrases(found)
        data["title"] = t("insights.web_title")
        data["summary"] = lines[0].render()
        data["unanalysed"] = lines[-1].render() if found.unanalysed and found.habits else None
        for pattern, habit in zip(data["patterns"], found.habits):
            low, high = habit.each
            each = Phrase("insights.each_one" if low == high else "insights.each", {"low": low, "high": high})
            pattern["name"] = t(f"club.mistake_{habit.code}")
            pattern["text"] = t("insights.web_pattern", n=habit.count, each=each.render(), points=habit.points,
                                trend=t(f"insights.trend_{habit.trend}"))  # fmt: skip
            pattern["small_text"] = t("insights.small", n=habit.small).strip() if habit.small else None
            for moment in pattern["moments"]:
                moment["text"] = t("insights.where", game=moment["game"], move=moment["move"])
        return data


ROUTES = [("/api/insights", "GET", insights)]

"""The JSON API: one small function per route (check input, call the adapter, answer).

Every function runs in a worker thread with the store open; the answer is
worded in ``?lang=`` or the learner's language setting.  Routes that act on a
session check the page's revision (``rev``) first, so a stale tab is refused
with 409 and the table it should draw instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from tutor.engine.rules import AUCTIONS, SEAT_COUNTS
from tutor.i18n import LANGUAGES, Phrase, catalogue, speaking, t
from tutor.web import game, history, insights, lessons, mistakes, puzzles, render
from tutor.web.context import LEVELS, Context, chosen_lang
from tutor.web.errors import ApiError, field_bool, field_str, quoted, refuse
from tutor.web.holder import Holder, Slot

Query = Mapping[str, str]


def page_strings(lang: str) -> dict[str, Any]:
    """The page's own labels (``web.*``, plus a few terminal words it shows) in ``lang``.

    Also what the server writes into the page itself, so the page has its words
    (the network-failure line included) before its first request.  Gathered once per language (the
    catalogues are the package's files: walking them took most of the page's rendering, 10-15 ms of CPU on
    every cold load); each answer gets its own copy.
    """
    words = _page_words(lang)
    return {"lang": lang, "languages": list(LANGUAGES), "strings": dict(words)}


@functools.lru_cache(maxsize=None)
def _page_words(lang: str) -> dict[str, str]:
    """:func:`page_strings`'s labels, gathered from the catalogues (once per language)."""
    words = {key[4:]: value for key, value in catalogue("en").items() if key.startswith("web.")}
    words.update({key[4:]: value for key, value in catalogue(lang).items() if key.startswith("web.")})
    with speaking(lang):
        words["legend"] = t("play.legend")
        for level in LEVELS:
            words[f"level_{level}"] = t(f"play.level_{level}")
        # The variants' buttons and settings (RULES §12): "Call", "Rob", "Open hand", the auction choice.
        prefix = "variants.web_"
        words.update({key[len(prefix):]: t(key) for key in catalogue("en") if key.startswith(prefix)})
        # The wildcard game (RULES §12.3): its setting and the wild rank by the game cell ("wild_setting", "wild_rank").
        words.update({f"wild_{key[len('wild.web_'):]}": t(key) for key in catalogue("en") if key.startswith("wild.web_")})
        # The four-player game's setting (RULES §12.4): "players", "players_3", "players_4".
        words.update({key[len("four.web_"):]: t(key) for key in catalogue("en") if key.startswith("four.web_")})
        # The puzzle streak's button (issue 30): "streak_button".
        words.update({f"streak_{key[len('streak.web_'):]}": t(key) for key in catalogue("en")
                      if key.startswith("streak.web_")})
        # A busy server (issue 35): the note while the page tries a 503 again ("busy_note").
        words.update({f"busy_{key[len('busy.web_'):]}": t(key) for key in catalogue("en") if key.startswith("busy.web_")})
        # Your habits across games (issue 29): "insights_nav", "insights_title", …
        words.update({f"insights_{key[len('insights.web_'):]}": t(key) for key in catalogue("en")
                      if key.startswith("insights.web_")})
    return words


def strings(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    """The page's own labels in the language asked for (``?lang=``, else the setting)."""
    with context.store() as store:
        lang = chosen_lang(store, context, query.get("lang"))
    return page_strings(lang)


def get_settings(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    with context.store() as store:
        return {"settings": context.settings(store), "levels": list(LEVELS), "languages": list(LANGUAGES)}


def put_settings(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    """Change settings (the terminal's keys, so ``ddz play`` sees them too); all checked before any is saved."""
    changes: dict[str, Any] = {}
    for key in body:
        if key not in ("lang", "level", "coach", "counter", "auction", "open_hand", "wildcard", "players"):
            raise refuse(400, "err_setting", name=quoted(key))
    if "lang" in body:
        lang = field_str(body, "lang", limit=5)
        if lang not in LANGUAGES:
            raise refuse(400, "err_language", value=quoted(lang), choices=", ".join(LANGUAGES))
        changes["lang"] = lang
    if "level" in body:
        level = field_str(body, "level", limit=10)
        if level not in LEVELS:
            raise refuse(400, "err_level", value=quoted(level), choices=", ".join(LEVELS))
        changes["level"] = level
    if "auction" in body:
        auction = field_str(body, "auction", limit=10)
        if auction not in AUCTIONS:
            raise ApiError(400, Phrase("variants.err_auction", {"value": quoted(auction), "choices": ", ".join(AUCTIONS)}))
        changes["auction"] = auction
    for key in ("coach", "counter", "open_hand", "wildcard"):
        if key in body:
            changes[key] = field_bool(body, key)
    if "players" in body:  # RULES §12.4: three, or four with two decks
        players = body["players"]
        if isinstance(players, bool) or players not in SEAT_COUNTS:
            raise ApiError(400, Phrase("four.err_players", {"value": quoted(str(players)),
                                                            "choices": ", ".join(map(str, SEAT_COUNTS))}))
        changes["players"] = players
    # The wildcard game is a three-player game (RULES §12.3): the variant chosen now switches the other off.
    if changes.get("wildcard") and changes.get("players") == 4:
        raise ApiError(400, Phrase("four.no_wildcard"))
    if changes.get("wildcard"):
        changes["players"] = 3
    if changes.get("players") == 4:
        changes["wildcard"] = False
    with context.store() as store:
        for key, value in changes.items():
            store.set_setting(key, value)
        with context.game.held() as slot:
            if slot.session is not None and "counter" in changes:
                slot.session.session.counter = bool(changes["counter"])
        return {"settings": context.settings(store)}


# ------------------------------------------------------------------ the game
GameAction = Callable[[game.Table, dict[str, Any]], list[Any]]
Work = Callable[[Context, dict[str, Any], Query], dict[str, Any]]


def on_game_thread(work: Work) -> Work:
    """Mark a route whose work runs on the game's own worker thread (see :class:`tutor.web.holder.Holder`)."""
    work.slot_name = "game"  # type: ignore[attr-defined]
    return work


def _answer(context: Context, slot: Slot[Any], items: list[Any], busy: str | None = None) -> dict[str, Any]:
    return {"events": render.events(items), **game.state(context, slot, busy)}


def game_route(action: GameAction | None, *, changes: bool) -> Work:
    """A game route: take up the stored game if needed, check the revision, act, answer events plus the table."""

    def work(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
        with context.store() as store:
            lang = chosen_lang(store, context, query.get("lang"))
        with context.game.held() as slot, speaking(lang):
            busy = game.sync(context, slot)
            said = game.deliver(context, slot)  # club mode: the coach's answers that came in meanwhile
            if action is None:
                return _answer(context, slot, said, busy)
            try:
                table = context.game.current(slot)
                Holder.check_rev(slot, body.get("rev"))
            except ApiError as error:
                if error.status == 409:
                    error.extra = game.state(context, slot, busy)
                raise
            items = said + game.run(table, lambda session: action(table, body))
            game.dispatch(context, slot)
            if changes:
                slot.rev += 1
            return _answer(context, slot, items)

    return on_game_thread(work)


def game_start(context: Context, body: dict[str, Any], query: Query) -> dict[str, Any]:
    with context.store() as store:
        lang = chosen_lang(store, context, query.get("lang"))
    with context.game.held() as slot, speaking(lang):
        game.sync(context, slot)
        if "rev" in body:
            Holder.check_rev(slot, body.get("rev"))
        if body.get("resume_deal") is not None:
            items = game.open_deal(context, slot, {**body, "deal": body["resume_deal"]})
        else:
            items = game.start(context, slot, body)
        game.dispatch(context, slot)
        return _answer(context, slot, items)


ROUTES: list[tuple[str, str, Callable[[Context, dict[str, Any], Query], dict[str, Any]]]] = [
    ("/api/strings", "GET", strings),
    ("/api/settings", "GET", get_settings),
    ("/api/settings", "POST", put_settings),
    ("/api/game", "GET", game_route(None, changes=False)),
    ("/api/game/new", "POST", on_game_thread(game_start)),
    ("/api/game/select", "POST", game_route(lambda t, b: game.select(t.session, b), changes=False)),
    ("/api/game/play", "POST", game_route(game.play, changes=True)),
    ("/api/game/pass", "POST", game_route(lambda t, b: t.session.pass_(), changes=True)),
    ("/api/game/hint", "POST", game_route(lambda t, b: game.hint(t), changes=False)),
    ("/api/game/undo", "POST", game_route(lambda t, b: t.session.undo(), changes=True)),
    ("/api/game/bid", "POST", game_route(lambda t, b: game.bid(t.session, b), changes=True)),
    ("/api/game/open", "POST", game_route(lambda t, b: game.show_hand(t.session), changes=True)),
    *puzzles.ROUTES,
    *lessons.ROUTES,
    *history.ROUTES,
    *insights.ROUTES,
    *mistakes.ROUTES,
]

"""History and replay: finished games from the store, and a game stepped move by move.

The steps come from :func:`tutor.sessions.replay.replay_steps` (the same as
``ddz replay``); the coach's remarks are stored as data, so a game played in
English reads back in Russian.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tutor.coach.seats import seat_name
from tutor.coach.status import combo_name
from tutor.engine.auction import CALL
from tutor.engine.trick import Turn
from tutor.files import ascii_int
from tutor.sessions.replay import ReplayStep
from tutor.i18n import Phrase, speaking, t
from tutor.store.games import GameStore
from tutor.web import felt, render
from tutor.web.context import Context, chosen_lang
from tutor.web.errors import ApiError, quoted, refuse

COLUMNS = ("col_id", "col_when", "col_deal", "col_level", "col_role", "col_result", "col_score")


def games(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
    """The finished games, newest first, as table cells in the learner's language."""
    with context.store() as store, speaking(chosen_lang(store, context, query.get("lang"))):
        rows = GameStore(store).history(100)
        return {
            "title": t("play.history_title"),
            "columns": [t(f"play.{key}") for key in COLUMNS],
            "games": [{"id": g.id, "cells": [
                g.id, g.finished_at.replace("T", " ")[:16], str(g.deal), t(f"play.level_{g.level}"), t(f"play.role_{g.role}"),
                t("play.result_won") if g.won else t("play.result_lost"),
                render.signed(g.delta) if g.scored else t("play.replay_mark")]} for g in rows],
        }


def _action(step: ReplayStep) -> str | None:
    """The step's action in words: auction moves and the shown hand as the table said them (RULES §12)."""
    if step.said is not None:
        return step.said.render()
    action = step.action
    if not isinstance(action, Turn):
        return None
    name = seat_name(action.seat, step.rules)
    if action.play is None:
        return t("play.passes", seat=name)
    return t("play.plays", seat=name, combo=f"{action.play.text} · {combo_name(action.play)}")


def _last(step: ReplayStep, seat: int) -> dict[str, Any] | None:
    """The step's action drawn in the seat that made it (a play, a pass or a bid, a call or a rob)."""
    action = step.action
    if isinstance(action, Turn):
        return felt.play(action.play) if action.seat == seat else None
    if isinstance(action, tuple) and action[0] == seat:
        bid = action[1]
        if step.rules.robs:
            word = t("variants.pass") if bid == 0 else t("variants.call") if bid == CALL else t("variants.rob")
            return {"kind": "bid", "bid": bid, "text": word}
        return {"kind": "bid", "bid": bid, "text": t("play.last_bid", bid=bid) if bid else t("play.last_pass")}
    return None


def board(step: ReplayStep) -> dict[str, Any]:
    """The step's table, hands face up: every seat of the game (four with four players, RULES §12.4),
    each named from the rules' seat layout, as the live table draws them."""
    return felt.felt([felt.seat(seat, seat_name(seat, step.rules), render.role(step.landlord, seat),
                                cards=hand, last=_last(step, seat), fanned=seat == 0)
                      for seat, hand in enumerate(step.hands)],
                     step.hands[0], kitty=step.kitty, over=True, players=step.rules.players)


def replay(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
    """Every step of one finished game, hands face up, with what the coach said at that step."""
    from tutor.sessions.replay import replay_steps

    ident = query.get("game_id", "")
    number = ascii_int(ident, 12)
    if number is None:
        raise refuse(400, "err_game_id", value=quoted(ident))
    with context.store() as store, speaking(chosen_lang(store, context, query.get("lang"))):
        found = GameStore(store).get(number)
        if found is None:
            raise ApiError(404, t("play.replay_unknown", id=ident))
        try:
            steps = replay_steps(found.record)
        except ValueError:
            raise refuse(422, "err_game_unreadable", id=ident) from None
        total = len(steps) - 1
        return {"steps": [{
            "header": t("play.replay_start", deal=step.deal) if step.index == 0
            else t("play.replay_step", n=step.index, total=total),
            "action": _action(step),
            "remarks": [f"{t('play.coach_prefix')}: {render.said(remark) if isinstance(remark, Phrase) else remark.render()}"
                        for remark in step.remarks],
            "table": board(step),
        } for step in steps]}


ROUTES = [
    ("/api/history", "GET", games),
    ("/api/history/{game_id}", "GET", replay),
]

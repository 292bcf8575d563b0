"""Learn from your mistakes in the browser: a thin adapter over :class:`tutor.sessions.mistakes.MistakesSession`.

Started from the final card or from history for a stored game; each moment is
the table from the learner's seat, the learner's cards are tapped and played
(or passed), and the session judges and stores the try.  The page draws the
answer and selects cards — nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from tutor.coach.advice import move_text
from tutor.coach.bidding import points
from tutor.i18n import speaking, t
from tutor.sessions import mistakes as ms
from tutor.sessions.events import StatusLine
from tutor.store import Store
from tutor.web import render
from tutor.web.context import Context, chosen_lang
from tutor.web.errors import ApiError, field_int, field_str, refuse
from tutor.web.holder import Holder, Slot


def event(item: object) -> dict[str, Any] | None:
    if isinstance(item, StatusLine):
        return {"type": "status", "text": render.page_cards(item.render()), "ok": item.ok}
    if isinstance(item, ms.NothingToReplay):
        return {"type": "none", "text": t("mistakes.none")}
    if isinstance(item, ms.TryJudged):
        chance = round(100 * item.win_chance)
        key = "mistakes.right" if item.accepted else "web.mistakes_wrong"  # the terminal's line names its command
        return {"type": "judged", "accepted": item.accepted, "text": t(key, move=move_text(item.move), chance=chance)}
    if isinstance(item, ms.BidTryJudged):
        key = "mistakes.bid_right" if item.accepted else "web.mistakes_bid_wrong"
        text = t(key, bid=item.label.render(), score=points(item.expected, item.base))
        return {"type": "judged", "accepted": item.accepted, "text": text}
    if isinstance(item, ms.BidBetterShown):
        return {"type": "better", "text": t("mistakes.bid_shown", best=item.label.render(),
                                            score=points(item.expected, item.base))}  # fmt: skip
    if isinstance(item, ms.BetterShown):
        return {"type": "better", "text": ms.better_phrase(item).render()}
    if isinstance(item, ms.MistakesOver):
        return {"type": "over", "completed": item.completed, "text": t("mistakes.done") if item.completed else ""}
    return None  # MomentShown: the state draws the moment


def state(slot: Slot[Any]) -> dict[str, Any]:
    session: ms.MistakesSession | None = slot.session
    out: dict[str, Any] = {"rev": slot.rev, "game_id": None, "finished": True, "moment": None}
    if session is None:
        return out
    out.update(game_id=session.game_id, finished=session.finished)
    if session.finished or not session.moments:
        return out
    moment, view = session.moments[session.at], session.decision.view
    if session.is_bid:
        out["moment"] = _bid_moment(session, moment, view)
        return out
    out["moment"] = {
        "index": session.at + 1,
        "of": len(session.moments),
        "number": moment.number,
        "text": ms.moment_phrase(session.at + 1, len(session.moments), moment, view.rules.base, view.rules).render(),
        "table": render.table(view, False),
        "can_pass": view.table is not None,
    }
    return out


def _bid_moment(session: ms.MistakesSession, moment: Any, view: Any) -> dict[str, Any]:
    """A choice moment (a bid; a call or rob; the open hand): the table, the auction before it, one button a choice."""
    from tutor.sessions.events import BidMade

    choices = session.choices()
    return {
        "kind": "bid",
        "index": session.at + 1,
        "of": len(session.moments),
        "number": moment.number,
        "text": ms.moment_phrase(session.at + 1, len(session.moments), moment, view.rules.base, view.rules,
                                 tuple(text for text, _ in choices)).render(),  # fmt: skip
        "table": render.table(view, False),
        # Each word in its auction's terms (RULES §3, §12.1), as the game table says it.
        "auction": [BidMade(seat, code, view.rules).phrase().render() for seat, code in view.bids],
        "bids": [{"bid": text, "label": phrase.render()} for text, phrase in choices],
        "can_pass": False,
    }


def route(action: Any) -> Any:
    """A mistakes route: the store open, the slot locked, the revision checked, events plus state back."""

    def work(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
        holder: Holder[Any] = context.mistakes
        with context.store() as store, holder.held() as slot, speaking(chosen_lang(store, context, query.get("lang"))):
            items: list[Any] = []
            if action is not None:
                if action is not start:
                    session = cast(ms.MistakesSession, holder.current(slot))
                    if session.finished:
                        raise refuse(409, "err_mistakes_done")
                if action is not start or "rev" in body:
                    try:
                        Holder.check_rev(slot, body.get("rev"))
                    except ApiError as error:  # another tab moved on: the page redraws from this
                        error.extra = state(slot)
                        raise
                items = action(slot, store, body)
                if action is not select:
                    slot.rev += 1
            return {"events": [e for e in map(event, items) if e], **state(slot)}

    return work


def _with_store(slot: Slot[Any], store: Store, call: Any) -> list[Any]:
    session = cast(ms.MistakesSession, slot.session)
    session.store = store
    try:
        items = list(call(session))
    except ValueError:  # nothing to act on now (the session's words are for developers)
        raise refuse(409, "err_not_now") from None
    finally:
        session.store = None
    refused = next((i for i in items if isinstance(i, ms.NotAMove)), None)
    if refused is not None:
        raise ApiError(422, refused.reason.render())
    return items


def start(slot: Slot[Any], store: Store, body: dict[str, Any]) -> list[Any]:
    game_id = field_int(body, "game_id", low=1, high=10**12)
    try:
        session = ms.MistakesSession.open(store, game_id)
    except ValueError as error:
        raise refuse(422, "err_game_unreadable", id=game_id) from None
    if session is None:
        raise ApiError(404, t("analyze.no_game", id=game_id))
    slot.session = session
    return _with_store(slot, store, lambda s: s.start())


def select(slot: Slot[Any], store: Store, body: dict[str, Any]) -> list[Any]:
    text = field_str(body, "cards", limit=40)
    return _with_store(slot, store, lambda s: s.select(text))


def move(slot: Slot[Any], store: Store, body: dict[str, Any]) -> list[Any]:
    text = field_str(body, "cards", limit=40)
    if not text.strip():
        raise ApiError(400, t("web.status_empty"))
    return _with_store(slot, store, lambda s: s.move(text))


ROUTES = [
    ("/api/mistakes", "GET", route(None)),
    ("/api/mistakes/start", "POST", route(start)),
    ("/api/mistakes/select", "POST", route(select)),
    ("/api/mistakes/move", "POST", route(move)),
    ("/api/mistakes/pass", "POST", route(lambda slot, store, body: _with_store(slot, store, lambda s: s.pass_()))),
    ("/api/mistakes/show", "POST", route(lambda slot, store, body: _with_store(slot, store, lambda s: s.show()))),
    ("/api/mistakes/skip", "POST", route(lambda slot, store, body: _with_store(slot, store, lambda s: s.skip()))),
    ("/api/mistakes/stop", "POST", route(lambda slot, store, body: _with_store(slot, store, lambda s: s.stop()))),
]

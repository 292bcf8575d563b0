"""A table to draw for a position that is not a game: a lesson step, a puzzle and its lines.

The page draws every table with one component (``static/js/felt.js``): seats
with names, roles, card counts or hands shown face up and their last play, the
kitty, and one hand fanned at the bottom.  The coached game sends its own
table (:func:`tutor.web.render.table`); this module shapes the other positions
the same way, from the learner's chair: chair 0 is the learner (bottom), 1 the
seat on the right, 2 the one on the left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.i18n import t
from tutor.web import render


def count_text(n: int | None) -> str | None:
    if n is None:
        return None
    return t("play.cards_count_one") if n == 1 else t("play.cards_count", n=n)


def play(move: Combo | None, to_beat: bool = False) -> dict[str, Any]:
    """A seat's last action: a play (its cards and name) or a pass."""
    if move is None:
        return {"kind": "pass", "text": t("play.last_pass")}
    return {"kind": "play", "to_beat": to_beat, **(render.combo(move) or {})}


def seat(chair: int, name: str, role: str | None, *, cards: Cards | int | None = None, count: int | None = None,
         last: dict[str, Any] | None = None, to_move: bool = False, fanned: bool = False) -> dict[str, Any]:
    """One seat. ``cards``: the hand shown face up; ``fanned``: it is the hand drawn at the bottom."""
    shown = render.cards(cards)
    held = len(shown) if shown is not None else count
    return {"seat": chair, "name": name, "role": role, "cards": shown, "count": held,
            "count_text": count_text(held), "last": last, "to_move": to_move, "fanned": fanned}


def felt(seats: Sequence[dict[str, Any]], hand: Cards | int | None, *, hand_label: str | None = None,
         kitty: Cards | int | None = None, lines: Sequence[str] = (), caption: str | None = None,
         over: bool = False, players: int | None = None) -> dict[str, Any]:
    """The whole table: seats, the fanned hand (and its name for a screen reader), kitty, extra lines.

    ``players``: the game's seats (the page lays out that many, RULES §12.4); None: as many as the
    highest seat listed, at least three (a heads-up position lists two of three)."""
    count = players if players is not None else max([3, *(s["seat"] + 1 for s in seats)])
    return {"seats": list(seats), "hand": render.cards(hand) or [], "hand_label": hand_label or t("web.your_hand"),
            "kitty": render.cards(kitty), "lines": list(lines), "caption": caption, "over": over, "players": count}

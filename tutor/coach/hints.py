"""Hints (RULES §9): a suggested move, and on asking again the next one.

The first suggestion is what a good bot would play from the learner's view
(passed in as ``first``, usually the hard or medium bot's choice); the rest are
every other legal option, best first, ranked the way the hand planner rates
what would remain in hand — so "hint, hint, hint" walks down a sensible list
instead of a random one.  Pass is an option whenever it is allowed.
"""

from __future__ import annotations

from tutor import judgement
from tutor.engine.cards import BIG_JOKER, R2, SMALL_JOKER, Cards
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.view import PlayerView

#: Beyond this many options, only the best-looking ones are ranked precisely.
MAX_RANKED = 400


def _rest_value(view: PlayerView, move: Combo) -> float:
    rest = view.hand.packed - move.cards
    if rest == 0:
        return 1e9  # going out beats everything
    value = judgement.players().plan_score(rest, view.rules.decks)
    # Spending bombs, the rocket, twos or jokers costs control the plan no longer sees.
    if move.is_bomb:
        value -= 25.0
    for rank, cost in ((R2, 4.0), (SMALL_JOKER, 6.0), (BIG_JOKER, 7.0)):
        value -= cost * ((move.cards >> (4 * rank)) & 0xF)
    return value


def ranked_options(view: PlayerView, first: Combo | None | str = "none") -> list[Combo | None]:
    """Every option of the learner's turn, best first (``None`` = pass).

    Args:
        view: the learner's view, on their turn in the play phase.
        first: a move to put first (a bot's choice); the string ``"none"`` for no such move.
    """
    moves = legal_moves(view.hand, view.table, view.rules)
    partner_on_table = (
        view.table is not None
        and view.table_seat is not None
        and view.table_seat != view.seat
        and view.is_partner(view.table_seat)
    )
    if len(moves) > MAX_RANKED:
        moves.sort(key=lambda m: (-m.size, m.main))
        moves = moves[:MAX_RANKED]
    scored = sorted(moves, key=lambda m: (-_rest_value(view, m), m.main, m.cards))
    options: list[Combo | None] = list(scored)
    if view.table is not None:
        # Passing is the first idea when the partner holds the trick, else the last resort.
        if partner_on_table:
            options.insert(0, None)
        elif not scored or all(m.is_bomb for m in scored):
            options.insert(0, None)
        else:
            options.insert(min(2, len(options)), None)
    if not isinstance(first, str):
        if first in options:
            options.remove(first)
        options.insert(0, first)
    return options


def hand_after(view: PlayerView, move: Combo | None) -> Cards:
    return view.hand if move is None else Cards(view.hand.packed - move.cards)

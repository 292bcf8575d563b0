"""Score questions ("what does the landlord win?") answered by the engine's scoring.

A lesson states the facts of a finished game — the bid, the bombs and rockets
played, spring or anti-spring, who won, and for the variants (RULES §12) the
robs of a rob auction and whether the landlord showed the hand — and asks for the cost or for one
player's change.  The answer is never written in the lesson: it is computed
here with :func:`tutor.engine.scoring.cost` and the standard rules, so a
lesson cannot teach a wrong number.
"""

from __future__ import annotations

from typing import Any

from tutor.engine.cards import Cards
from tutor.engine.combos import readings
from tutor.engine.rules import Rules
from tutor.engine.scoring import stake


def doublings(game: dict[str, Any], rules: Rules) -> int:
    """k of RULES §7: bombs and rockets played, plus one for spring or anti-spring.

    Raises:
        ValueError: a "bomb" that is not a bomb or rocket, or a spring that cannot happen.
    """
    k = 0
    for text in game.get("bombs") or []:
        cards = Cards.parse(str(text), rules.deck)  # two decks: bombs of 4 to 8, the four jokers (RULES §12.4)
        if not any(r.is_bomb for r in readings(cards, rules)):  # a soft bomb too (RULES §12.3)
            raise ValueError(f"{str(cards)!r} is neither a bomb nor the rocket: it does not double the game")
        k += 1
    spring, anti = bool(game.get("spring")), bool(game.get("anti_spring"))
    if spring and game["winner"] != "landlord":
        raise ValueError("spring means the landlord won (RULES §7), but winner is 'farmers'")
    if anti and game["winner"] != "farmers":
        raise ValueError("anti-spring means the farmers won (RULES §7), but winner is 'landlord'")
    return k + (1 if spring or anti else 0)


def variant_factors(game: dict[str, Any]) -> tuple[int, bool]:
    """The robs (RULES §12.1: the rob auction has no bid, so ``bid`` must be 1) and the open hand (§12.2).

    Raises:
        ValueError: robs with a bid other than 1.
    """
    robs = int(game.get("robs", 0))
    if robs and int(game["bid"]) != 1:
        raise ValueError("a rob auction has no 1-2-3 bid (RULES §12.1): give bid 1 with robs")
    return robs, bool(game.get("open"))


def score_answer(game: dict[str, Any], ask: str, rules: Rules) -> int:
    """The number a score question asks for.

    Args:
        game: ``bid``, ``winner`` (``landlord``/``farmers``), ``bombs`` (card
            texts), ``spring``, ``anti_spring``, ``robs``, ``open``.
        ask: ``cost`` (10 × bid × 2^k), ``landlord`` or ``farmer`` (that
            player's signed change).
    """
    robs, opened = variant_factors(game)
    game_cost = stake(int(game["bid"]), doublings(game, rules), rules, robs, opened)
    if ask == "cost":
        return game_cost
    landlord_won = game["winner"] == "landlord"
    if ask == "landlord":
        return rules.landlord_share * game_cost * (1 if landlord_won else -1)
    if ask == "farmer":
        return game_cost * (-1 if landlord_won else 1)
    raise ValueError(f"unknown score question {ask!r} (cost, landlord or farmer)")


def formula(game: dict[str, Any], rules: Rules) -> str:
    """The cost written out as the "Game" cell shows it: ``10 × 3 × 4 = 120``."""
    k = doublings(game, rules)
    robs, opened = variant_factors(game)
    total = stake(int(game["bid"]), k, rules, robs, opened)
    if robs or opened:
        return f"{rules.base} × {total // rules.base} = {total}"
    return f"{rules.base} × {game['bid']} × {1 << k} = {total}"

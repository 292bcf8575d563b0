"""Scoring (RULES §7): the cost of a game and who pays whom.

Cost = base × bid × 2**k, where k counts every bomb and rocket played (by
anyone) plus one for spring or anti-spring.  The landlord wins or loses
``landlord_share`` × cost; each farmer the opposite of one cost, so the sum is
zero (with the standard two farmers and a share of 2).

The variants add their factors (RULES §12): each rob ×``rob_factor`` (the
rob auction has no 1-2-3 bid: its bid is 1) and the open hand ×``open_factor``.

Every factor also becomes a human-readable item in :attr:`Score.multipliers`,
because the final card spells each multiplier out (RULES §9), and a named one
in :attr:`Score.factors` (``["rob", "rob", "open", "bomb"]``) for records and
``ddz history --json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tutor.engine.combos import Kind
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.view import Turn


@dataclass(frozen=True, slots=True)
class Score:
    """The result of a finished game, with every factor of its cost."""

    base: int
    bid: int
    #: Bombs and rockets played, by anyone.
    bombs: int
    spring: bool
    anti_spring: bool
    #: 2**k: one doubling per bomb/rocket, plus one for spring or anti-spring.
    multiplier: int
    #: base × bid × multiplier.
    cost: int
    landlord: int
    landlord_won: bool
    #: Score change of seats 0, 1, 2 (sums to zero).
    deltas: tuple[int, ...]
    #: Each factor in words, for the final card: "bid 3", "bomb 8888", "rocket", "spring".
    multipliers: list[str] = field(default_factory=list)
    #: Robs in the auction (RULES §12.1).
    robs: int = 0
    #: Whether the landlord showed the hand (RULES §12.2).
    opened: bool = False
    #: The named factors: "rob" per rob, "open", "bomb", "rocket", "spring", "anti-spring".
    factors: tuple[str, ...] = ()

    @property
    def formula(self) -> str:
        """The cost as the "Game" cell writes it: ``10 × 3 × 4 = 120`` (``10 × 8 = 80`` with no bid)."""
        if self.robs or self.opened:
            return f"{self.base} × {self.bid * self.multiplier} = {self.cost}" if self.bid == 1 else (
                f"{self.base} × {self.bid} × {self.multiplier} = {self.cost}"
            )
        return f"{self.base} × {self.bid} × {self.multiplier} = {self.cost}"


def is_bomb(kind: int) -> bool:
    """Bombs and the rocket double the stake (RULES §7)."""
    return kind == Kind.BOMB or kind == Kind.ROCKET


def bombs_in(history: Sequence[Turn]) -> int:
    """How many bombs and rockets ``history`` contains."""
    return sum(1 for turn in history if turn.play is not None and is_bomb(turn.play.kind))


def cost(bid: int, doublings: int, rules: Rules = STANDARD) -> int:
    """base × bid × 2**doublings."""
    return rules.base * bid * (1 << doublings)


def stake(bid: int, doublings: int, rules: Rules = STANDARD, robs: int = 0, opened: bool = False) -> int:
    """base × bid × 2**doublings × rob_factor**robs × open_factor (if opened): RULES §7, §12."""
    factor: int = rules.rob_factor**robs
    return cost(bid, doublings, rules) * factor * (rules.open_factor if opened else 1)


def score_game(
    history: Sequence[Turn],
    landlord: int,
    bid: int,
    winner: int,
    rules: Rules = STANDARD,
    start_counts: Sequence[int] | None = None,
    *,
    robs: int = 0,
    opened: bool = False,
) -> Score:
    """Score a finished game from its play history.

    Args:
        history: Every play and pass of the play phase, in order.
        landlord: The landlord's seat.
        bid: The winning bid.
        winner: The seat that emptied its hand first.
        rules: Base, landlord share and whether spring doubles.
        start_counts: Cards each seat held when ``history`` began.  Spring and
            anti-spring are about the *whole* game, so a position set up part-way
            (a lesson's endgame) can only spring if its hands were still full:
            farmers at ``hand_size``, the landlord at ``hand_size + kitty_size``.
            None means a game from the deal (always full).
        robs: Robs of a rob auction (each ×``rules.rob_factor``, RULES §12.1).
        opened: The landlord showed the hand (×``rules.open_factor``, RULES §12.2).

    Returns:
        The :class:`Score`, whose deltas sum to zero for the standard table.
    """
    players = rules.players
    landlord_won = winner == landlord
    farmer_plays = sum(1 for t in history if t.play is not None and t.seat != landlord)
    landlord_plays = sum(1 for t in history if t.play is not None and t.seat == landlord)
    farmers_full = landlord_full = True
    if start_counts is not None:
        farmers_full = all(n == rules.hand_size for s, n in enumerate(start_counts) if s != landlord)
        landlord_full = start_counts[landlord] == rules.hand_size + rules.kitty_size
    spring = landlord_won and farmer_plays == 0 and farmers_full
    anti_spring = (not landlord_won) and landlord_plays == 1 and landlord_full

    items = [f"bid {bid}"] if not rules.robs else []
    factors = ["rob"] * robs + (["open"] if opened else [])
    items += ["rob"] * robs + (["open hand"] if opened else [])
    bombs = 0
    for turn in history:
        if turn.play is None or not is_bomb(turn.play.kind):
            continue
        bombs += 1
        items.append("rocket" if turn.play.kind == Kind.ROCKET else f"bomb {turn.play.text}")
        factors.append("rocket" if turn.play.kind == Kind.ROCKET else "bomb")
    doublings = bombs
    if rules.spring_doubles and spring:
        doublings += 1
        items.append("spring")
        factors.append("spring")
    if rules.spring_doubles and anti_spring:
        doublings += 1
        items.append("anti-spring")
        factors.append("anti-spring")
    game_cost = stake(bid, doublings, rules, robs, opened)
    sign = 1 if landlord_won else -1
    deltas = tuple(
        sign * rules.landlord_share * game_cost if seat == landlord else -sign * game_cost
        for seat in range(players)
    )
    return Score(
        base=rules.base,
        bid=bid,
        bombs=bombs,
        spring=spring,
        anti_spring=anti_spring,
        multiplier=game_cost // (rules.base * bid),
        cost=game_cost,
        landlord=landlord,
        landlord_won=landlord_won,
        deltas=deltas,
        multipliers=items,
        robs=robs,
        opened=opened,
        factors=tuple(factors),
    )

"""Is a puzzle a position a sensible game reaches, and does its goal say what it needs?

Two checks that the solver's "one winning move" proof does not make:

1. **No impossible pass.**  A puzzle may start with a play on the table made by
   someone other than the mover; every seat between that player and the mover
   passed on it.  A player whose whole hand beats the table would have played
   it and gone out, ending the game — so a position where such a seat "passed"
   comes from no real game (the audit of issue 14 found five: the landlord
   passed a trick his last card beat).
2. **A bomb goal needs the bomb.**  "Win with a bomb" promises that the bomb or
   the rocket is what wins.  When the solving side can force a win without ever
   playing one, the goal is false: the puzzle is rejected.  Proven by a small
   search of the game in which the solving side may not bomb (splitting a
   four of a kind into pairs or singles is allowed), the defenders may do
   anything; the exact solver prunes positions the solving side loses anyway.

3. **No thrown win in the set-up.**  A puzzle with a play on the table has a
   short history: the player who made that play led it, and every seat
   between that player and the mover passed on it.  If any of those moves
   threw away a forced win of its side (the landlord holding Q2X passes an 8
   he could have beaten and won), the learner is shown a position a strong
   player would never have allowed — the "puzzle" is the opponent's blunder.
   Each set-up move is checked with the solver: where the mover of that step
   had a forced win, the move made must keep it.
4. **Three players.**  A game of Dou Di Zhu ends as soon as anyone is out, so
   every position a real game reaches has three hands.  A duel (landlord
   against one farmer) is shown as it happens at a real table: the third
   player holds cards that can beat nothing any other hand can ever play, so
   it only ever passes and never takes the lead — it is *out of it*
   (:func:`out_of_it`), and the game is exactly the duel.

All are used by ``ddz puzzles validate`` (:mod:`tutor.puzzles.verify`) and by
the generator, which skips such candidates.
"""

from __future__ import annotations

from typing import Any, Protocol

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.moves import follow_moves_packed, lead_moves_packed, legal_moves
from tutor.solver.position import Position, Role


class SolverLike(Protocol):
    """The one solver call this module needs (``tutor.solver.Solver`` has it)."""

    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True) -> Any: ...

class SolverWithMoves(SolverLike, Protocol):
    """A solver that also judges one move (``tutor.solver.Solver`` does)."""

    def is_winning_move(self, pos: Position, move: Combo | None) -> bool | None: ...


#: Largest search of the bomb-free game (positions); puzzles are small endgames.
MAX_NODES = 200_000


class SearchTooBig(ValueError):
    """The bomb-free search went past its budget (the answer is unknown)."""


def impossible_passes(pos: Position) -> list[str]:
    """Every seat that passed on the table although its whole hand beat it (went out)."""
    if pos.table is None or pos.table_by is None:
        return []
    problems = []
    seat = (pos.table_by + 1) % pos.players
    while seat != pos.to_move:
        hand = pos.hands[seat]
        if any(m.cards == hand.packed for m in legal_moves(hand, pos.table)):
            role = "landlord" if pos.roles[seat] is Role.LANDLORD else "farmer"
            problems.append(f"player {seat} ({role}) passed on {pos.table.text} although {hand} beats it and"
                            " goes out: no real game reaches this position")
        seat = (seat + 1) % pos.players
    return problems


def _is_bomb(move: Combo | None) -> bool:
    return move is not None and move.is_bomb


def wins_without_bombs(pos: Position, solver: SolverLike | None = None, max_nodes: int = MAX_NODES) -> bool:
    """Can the side to move force a win without itself playing a bomb or the rocket?

    Raises:
        SearchTooBig: more than ``max_nodes`` positions were needed.
    """
    side = pos.roles[pos.to_move]
    memo: dict[Position, bool] = {}
    count = [0]

    def unrestricted_loss(p: Position) -> bool:
        if solver is None:
            return False
        result = solver.solve(p, "win", all_moves=False)
        if result.mover_wins is None:
            return False
        return bool(result.mover_wins) != (p.roles[p.to_move] is side)

    def win(p: Position) -> bool:
        if p.is_over:
            return p.winner is side
        known = memo.get(p)
        if known is not None:
            return known
        count[0] += 1
        if count[0] > max_nodes:
            raise SearchTooBig(f"the bomb-free search needs more than {max_nodes} positions")
        ours = p.roles[p.to_move] is side
        if ours:
            if unrestricted_loss(p):
                value = False
            else:
                value = any(win(p.after(m)) for m in p.legal_moves() if not _is_bomb(m))
        else:
            value = all(win(p.after(m)) for m in p.legal_moves())
        memo[p] = value
        return value

    return win(pos)


# ------------------------------------------------------------------- the set-up
def setup_moves(pos: Position) -> list[tuple[Position, Combo | None]]:
    """The moves that led to ``pos``: the table play (as a lead) and the passes after it.

    Each item is the position before the move and the move made.  A position
    with nobody's play on the table has no set-up: the mover leads a new trick.
    """
    if pos.table is None or pos.table_by is None:
        return []
    hands = list(pos.hands)
    hands[pos.table_by] = hands[pos.table_by] + Cards(pos.table.cards)
    before = Position(tuple(hands), pos.roles, pos.table_by, None, None, rules=pos.rules)
    steps: list[tuple[Position, Combo | None]] = [(before, pos.table)]
    walk = before.after(pos.table)
    while walk.to_move != pos.to_move:
        steps.append((walk, None))
        walk = walk.after(None)
    return steps


def thrown_wins(pos: Position, solver: SolverWithMoves) -> list[str]:
    """Every set-up move that threw away a forced win of its side (proved by the solver).

    Raises:
        SearchTooBig: the solver could not decide a step within its budget.
    """
    problems = []
    for before, move in setup_moves(pos):
        result = solver.solve(before, "win", all_moves=False)
        if result.mover_wins is None:
            raise SearchTooBig("the solver ran out of budget on a set-up move")
        if not result.mover_wins:
            continue
        keeps = solver.is_winning_move(before, move)
        if keeps is None:
            raise SearchTooBig("the solver ran out of budget on a set-up move")
        if not keeps:
            role = "landlord" if before.roles[before.to_move] is Role.LANDLORD else "farmer"
            what = "passed" if move is None else f"led {move.text}"
            problems.append(f"set-up: player {before.to_move} ({role}) {what} and threw away a forced win"
                            f" with {before.hands[before.to_move]}")
    return problems


# --------------------------------------------------------------- three players
def out_of_it(pos: Position) -> int | None:
    """The farmer who can never play in this position, or None.

    A farmer is *out of it* when no card set of theirs beats any combination
    another hand can ever play (every later play is a combination of cards
    some hand holds now, so the lead moves of each hand, and the table, cover
    them all) and they neither lead now nor own the table.  Such a player
    passes at every turn and never gets the lead: the game is the duel of the
    other two, exactly.
    """
    if pos.players != 3:
        return None
    for seat, hand in enumerate(pos.hands):
        if pos.roles[seat] is Role.LANDLORD or seat == pos.table_by:
            continue
        if seat == pos.to_move and pos.table is None:
            continue
        threats: list[Combo] = [] if pos.table is None else [pos.table]
        for other, cards in enumerate(pos.hands):
            if other != seat:
                threats += lead_moves_packed(cards.packed)
        if not any(follow_moves_packed(hand.packed, combo) for combo in threats):
            return seat
    return None


def player_count_problems(pos: Position) -> list[str]:
    """A two-player position is one no real game reaches (see the module docstring)."""
    if pos.players == 3:
        return []
    return [f"{pos.players} players: a real game always has three hands (show the duel with the third"
            " player out of it)"]

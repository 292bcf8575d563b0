"""The trick rule of RULES §4, written once: who must beat what, and who leads next.

Every part of the program that follows a hand in progress — the game, the
views, the bots and their rollouts, the solver's positions, the lessons and the
review — needs the same two facts:

* after a play, the next seat must beat it or pass;
* when everybody else has passed since the last play (two passes in three
  players, one in two), the table is cleared and the player who made that play
  leads again.

They are here as a tiny pure state (:class:`Trick`) and one transition
(:meth:`Trick.after`), plus the replays over a history that several callers
need (:func:`trick_state`, :func:`tables_faced`, :func:`trick_winners`).
Nothing else in ``tutor/`` may count passes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tutor.engine.combos import Combo


@dataclass(frozen=True, slots=True)
class Turn:
    """One action of the play phase: a seat and its play, or ``None`` for a pass."""

    seat: int
    play: Combo | None

    @property
    def is_pass(self) -> bool:
        return self.play is None


def lead_returns(passes: int, players: int) -> bool:
    """True when ``passes`` passes in a row mean everybody else passed (RULES §4)."""
    return passes >= players - 1


@dataclass(frozen=True, slots=True)
class Trick:
    """The trick in progress: the combination to beat, who played it, passes since.

    ``table`` and ``table_seat`` are None when the player to move leads.
    """

    table: Combo | None = None
    table_seat: int | None = None
    passes: int = 0

    @property
    def leading(self) -> bool:
        return self.table is None

    def after(self, seat: int, play: Combo | None, players: int) -> tuple[Trick, int]:
        """The trick after ``seat`` plays ``play`` (None = pass), and the seat to move next.

        The caller ends the game when a play empties a hand; this module does
        not know the hands.
        """
        table, table_seat, passes, to_move = step(self.table, self.table_seat, self.passes, seat, play, players)
        if play is None and table is None and passes == 0:
            return _EMPTY, to_move
        return Trick(table, table_seat, passes), to_move


_EMPTY = Trick()


def step(
    table: Combo | None, table_seat: int | None, passes: int, seat: int, play: Combo | None, players: int
) -> tuple[Combo | None, int | None, int, int]:
    """:meth:`Trick.after` on the trick's three fields, without building a :class:`Trick`:
    ``(table, table_seat, passes, to_move)`` after ``seat`` plays ``play`` (the game's step)."""
    following = (seat + 1) % players
    if play is not None:
        return play, seat, 0, following
    if lead_returns(passes + 1, players):
        return None, None, 0, table_seat if table_seat is not None else following
    return table, table_seat, passes + 1, following


def passes_since(table_seat: int | None, seat_to_move: int, players: int) -> int:
    """How many passes lie between ``table_seat``'s play and ``seat_to_move``'s turn.

    For states that keep only who played the table (the solver's positions).
    """
    if table_seat is None:
        return 0
    return (seat_to_move - table_seat - 1) % players


def tables_faced(history: Sequence[Turn], players: int = 3) -> Iterator[tuple[Turn, Combo | None, int | None]]:
    """Each turn of ``history`` with the table it faced and who played that table.

    Both are None when the turn was a lead.  Bots that replay the past (to read
    what the others' plays reveal) use this instead of re-implementing the rule.
    """
    trick = _EMPTY
    for turn in history:
        yield turn, trick.table, trick.table_seat
        trick, _ = trick.after(turn.seat, turn.play, players)


def replay_trick(history: Sequence[Turn], players: int = 3) -> Trick:
    """The trick in progress after ``history`` (from an empty table)."""
    trick = _EMPTY
    for turn in history:
        trick, _ = trick.after(turn.seat, turn.play, players)
    return trick


def trick_state(history: Sequence[Turn], players: int = 3) -> tuple[Combo | None, int | None, int | None]:
    """Replay the two-pass rule (RULES §4) over ``history``.

    Returns:
        ``(table, table_seat, to_move)``: the combination to beat and who played
        it (both None when the next player leads), and the seat after the last
        turn (None for an empty history, when the caller knows who leads).
    """
    trick = _EMPTY
    to_move: int | None = None
    for turn in history:
        trick, to_move = trick.after(turn.seat, turn.play, players)
    return trick.table, trick.table_seat, to_move


def trick_winners(history: Sequence[Turn], players: int = 3) -> list[tuple[int, Turn]]:
    """Each trick's winning play: (index in history, turn), in order.

    A trick ends when everybody else passed after a play (RULES §4) or when the
    game ends with that play.
    """
    winners: list[tuple[int, Turn]] = []
    last: tuple[int, Turn] | None = None
    trick = _EMPTY
    for index, turn in enumerate(history):
        trick, _ = trick.after(turn.seat, turn.play, players)
        if turn.play is not None:
            last = (index, turn)
        elif trick.leading and last is not None:
            winners.append(last)
            last = None
    if last is not None:
        winners.append(last)
    return winners


def is_first_trick(history: Sequence[Turn], players: int = 3) -> bool:
    """True while the opening trick is still going (nobody has won a trick yet)."""
    trick = _EMPTY
    for turn in history:
        trick, _ = trick.after(turn.seat, turn.play, players)
        if turn.play is None and trick.leading:
            return False
    return True

"""Rollouts: try each sensible move on sampled deals and see how the game ends.

Before the endgame is small enough to solve exactly, the hard bot still looks
ahead.  For a few candidate moves (its own heuristic choice, pass, the best
other answers or leads of its plan) it samples hidden hands consistent with its
view (:mod:`tutor.bots.sampling`), plays each candidate, and lets medium-level
players finish the game from there — everyone deciding from their own view of
the sampled deal.  The candidate whose games end best for its side is played.

Trying moves against a decent default policy and keeping the best one is the
classic *rollout* (policy-improvement) method of game programs: it is reliably
stronger than the policy it rolls out with, which is exactly the gap between
the medium and the hard level.  Every candidate is tried on the same samples
(common random numbers), so the comparison is not swamped by the luck of the
deal.

The simulator below is deliberately tiny — hands, the table, the two-pass rule
— because the bots package must not import the game (a bot sees only its view);
it builds a :class:`PlayerView` for each simulated decision exactly as the game
would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.bots.base import turn_rng
from tutor.bots.counting import pass_limits
from tutor.bots.effort import Effort
from tutor.bots.sampling import likely_samples
from tutor.engine.cards import packed_size as _size
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.trick import Trick, Turn, replay_trick
from tutor.engine.view import PlayerView

if TYPE_CHECKING:
    from tutor.bots.medium import MediumBot

Move = Combo | None

#: A rollout that has not ended after this many turns is scored as a loss for
#: the side to move (it cannot happen with legal play, but guards the loop).
MAX_TURNS = 400


@dataclass(slots=True)
class Sim:
    """A game in the play phase, just enough to roll out.

    Public for the coach and the variants work: a test plays it against
    :class:`tutor.engine.game.Game` move for move (tests/coach/test_playout.py).
    """

    hands: list[int]
    landlord: int
    to_move: int
    trick: Trick
    history: list[Turn]
    base: PlayerView

    def view(self, seat: int) -> PlayerView:
        b = self.base
        return PlayerView(
            seat=seat,
            hand=Cards(self.hands[seat]),
            bids=b.bids,
            landlord=b.landlord,
            kitty=b.kitty,
            history=tuple(self.history),
            card_counts=tuple(_size(h) for h in self.hands),
            to_move=self.to_move,
            table=self.trick.table,
            table_seat=self.trick.table_seat,
            bid=b.bid,
            rules=b.rules,
            # The open hand (RULES §12.2): every simulated seat sees the landlord's cards as they are now.
            shown=None if b.shown is None or b.landlord is None else Cards(self.hands[b.landlord]),
        )

    def apply(self, move: Move) -> int | None:
        """Play ``move`` for the player to move; the winner's seat when the game ends."""
        seat = self.to_move
        self.history.append(Turn(seat, move))
        if move is not None:
            self.hands[seat] -= move[0]
            if not self.hands[seat]:
                return seat
        self.trick, self.to_move = self.trick.after(seat, move, len(self.hands))
        return None


#: The old private name (kept for callers that still use it).
_Sim = Sim
#: The variants work's name for it (a fast copy of engine.Game's play, checked against it move for
#: move by tests/bots/test_fast_copies.py and tests/coach/test_playout.py).
PlaySim = Sim


def quick_available(rules: Rules = STANDARD) -> bool:
    """Is the compiled play-out (:func:`playout`) usable for ``rules``?

    It is built with the solver's C core and knows the standard rules only.
    """
    from tutor.solver import native

    return rules == STANDARD and native.available()


def playout(
    hands: Sequence[int], landlord: int, to_move: int, table: Combo | None, table_seat: int | None
) -> int:
    """The winner's seat when the compiled quick policy plays every seat from here to the end.

    Each seat decides from its own hand and the card counts (the policy is
    described in ``tutor/solver/_native.c``): about a hundred times cheaper a
    game than the hard level's judgement in Python, which is what lets the
    coach sample enough deals for a precise verdict (docs/coach.md).  Three
    seats, standard rules (:func:`quick_available`); -1 if 400 turns pass
    (cannot happen with legal play).
    """
    from tutor.solver.native import _native

    assert _native is not None
    return int(_native.playout(tuple(hands), landlord, to_move, table and tuple(table),
                               -1 if table_seat is None else table_seat, False))  # fmt: skip


def playout_line(
    hands: Sequence[int], landlord: int, to_move: int, table: Combo | None, table_seat: int | None
) -> tuple[int, list[Combo | None]]:
    """:func:`playout` with the moves it made, in order (None = pass): for the cross-check with the engine."""
    from tutor.solver.native import _native

    assert _native is not None
    winner, raw = _native.playout(tuple(hands), landlord, to_move, table and tuple(table),
                                  -1 if table_seat is None else table_seat, True)  # fmt: skip
    return int(winner), [None if m is None else Combo(m[0], Kind(m[1]), m[2], m[3]) for m in raw]


class QuickBot:
    """The compiled play-out policy as a bot: a seat's move from its view (hand, counts, table).

    The coach's samples are nudged towards deals in which the others' past plays
    are what this policy would have played (:func:`tutor.bots.sampling.likely_samples`),
    the same players its play-outs then assume.  Standard rules, three seats.
    """

    level = "quick"

    def bid(self, view: PlayerView) -> int:
        """Bids as the medium level does (the hand evaluation): the play-out policy does not bid."""
        from tutor.bots.medium import MediumBot

        return MediumBot(0).bid(view)

    def show_hand(self, view: PlayerView) -> bool:
        """Never shows its hand (the open hand is not a standard rule; the quick policy plays standard rules only)."""
        return False

    def play(self, view: PlayerView) -> Combo | None:
        from tutor.solver.native import _native

        assert _native is not None and view.landlord is not None
        raw = _native.choose(view.hand.packed, tuple(view.card_counts), view.landlord, view.seat,
                             view.table and tuple(view.table), -1 if view.table_seat is None else view.table_seat)  # fmt: skip
        return None if raw is None else Combo(raw[0], Kind(raw[1]), raw[2], raw[3])


def rollout(
    view: PlayerView, hidden: dict[int, int], first: Move, policy: MediumBot, effort: Effort | None = None
) -> bool:
    """Play ``first`` for the viewer, let ``policy`` play everyone after it; True if the viewer's side wins.

    Each of ``policy``'s decisions is counted in ``effort`` when given.
    """
    assert view.landlord is not None
    hands = [view.hand.packed if s == view.seat else hidden[s] for s in range(view.players)]
    sim = Sim(
        hands,
        view.landlord,
        view.seat,
        replay_trick(view.history, view.players),
        list(view.history),
        view,
    )
    winner = sim.apply(first)
    turns = 0
    while winner is None and turns < MAX_TURNS:
        seat = sim.to_move
        winner = sim.apply(policy.play(sim.view(seat)))
        turns += 1
    if effort is not None:
        effort.spend(turns)
    if winner is None:
        return False
    return (winner == view.landlord) == (view.seat == view.landlord)


def best_by_rollouts(
    view: PlayerView,
    candidates: list[Move],
    samples: int,
    seed: int,
    policy: MediumBot,
    margin: int = 0,
    steps: int = 0,
    recent: int | None = None,
    max_effort: int | None = None,
) -> Move:
    """The candidate that wins most rollouts.

    The first candidate is the heuristic's choice; another one replaces it only
    when it wins at least ``margin`` more of the same samples — with a handful
    of samples, smaller differences are mostly noise, and chasing noise is
    worse than trusting judgement.  Ties go to the earlier candidate.

    With ``steps``, each sampled deal is nudged by up to that many card swaps
    towards one that explains the others' past plays as ``policy`` would have
    made them (over the last ``recent`` turns;
    :func:`tutor.bots.sampling.likely_samples`).

    The work is bounded by counts, never by the clock (the same view gives the
    same move on an idle and on a busy machine): ``samples * (steps + 1)``
    replays of the history for the swaps, ``samples * len(candidates)`` games,
    and — the safety stop of a decision whose history is unusually long — at
    most ``max_effort`` model decisions (None: no limit) for the swaps and the
    games together (:class:`~tutor.bots.effort.Effort`).  The swaps may use
    half of it; once it is spent, the samples not yet rolled out are dropped:
    every candidate has seen the same samples, so the comparison stays fair,
    and at least one sample is always played.
    """
    rng = turn_rng(seed, view)
    limits = pass_limits(view)
    wins = [0] * len(candidates)
    sampling = Effort(None if max_effort is None else max_effort // 2)
    deals = likely_samples(view, rng, samples, policy, steps, limits, recent, effort=sampling)
    effort = Effort(max_effort)
    effort.spend(sampling.spent)
    for hidden in deals:
        for i, move in enumerate(candidates):
            wins[i] += rollout(view, hidden, move, policy, effort)
        if effort.exhausted:
            break  # the safety stop
    best = max(range(len(candidates)), key=lambda i: (wins[i], -i))
    if wins[best] - wins[0] < margin:
        return candidates[0]
    return candidates[best]

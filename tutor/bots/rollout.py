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

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.bots.base import turn_rng
from tutor.bots.counting import pass_limits
from tutor.bots.effort import Effort
from tutor.bots.sampling import likely_samples
from tutor.engine.cards import packed_size as _size
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.trick import Trick, Turn, replay_trick
from tutor.engine.view import PlayerView

if TYPE_CHECKING:
    from tutor.bots.medium import MediumBot

Move = Combo | None

#: A rollout that has not ended after this many turns is scored as a loss for
#: the side to move (it cannot happen with legal play, but guards the loop).
MAX_TURNS = 400


@dataclass(slots=True)
class _Sim:
    """A game in the play phase, just enough to roll out."""

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


#: The public name of the play-phase simulator (the coach's bid evaluation steps it too); a fast copy
#: of engine.Game's play, checked against it move for move by tests/bots/test_fast_copies.py.
PlaySim = _Sim


def rollout(
    view: PlayerView, hidden: dict[int, int], first: Move, policy: MediumBot, effort: Effort | None = None
) -> bool:
    """Play ``first`` for the viewer, let ``policy`` play everyone after it; True if the viewer's side wins.

    Each of ``policy``'s decisions is counted in ``effort`` when given.
    """
    assert view.landlord is not None
    hands = [view.hand.packed if s == view.seat else hidden[s] for s in range(view.players)]
    sim = _Sim(
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

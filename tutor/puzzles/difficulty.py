"""A first estimate of a puzzle's rating, from measured signals, before any learner tries it.

What makes an endgame puzzle hard for a person, each measured when the
puzzle is made (:func:`measure`):

* **naive solvers** — a panel of three one-look players (shed the weakest
  group, play an unbeatable group first, beat cheaply or play big), each
  picking among its equally good moves at random.  ``naive`` is the share of
  the panel that plays the answer: 1.0 means anyone playing "by feel" finds
  it, a one-look puzzle;
* **tempting wrong moves** — losing first moves whose refutation is not
  immediate (the other side needs two plays or more to win after it): a
  mistake the learner cannot see at a glance;
* **solver effort** — the search nodes needed to prove the only win (how much
  reading ahead the position asks for);
* **length** — the solving side's plays in the fastest win.

:func:`estimate_rating` maps them onto the Glicko scale (the calibration, with
the library's distribution before and after, is in ``docs/puzzles.md``).
Glicko-2 then refines each puzzle's rating from how the learners here did
(:mod:`tutor.puzzles.progress`).  :func:`is_interesting` decides which puzzles
may be the daily one: never a one-look puzzle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from tutor.engine.cards import BIG_JOKER, SMALL_JOKER, packed_count, unpack
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import follow_moves_packed, lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.solver.position import Position

MIN_RATING = 600
MAX_RATING = 2400


Move = Combo | None


@dataclass(frozen=True, slots=True)
class Difficulty:
    """The measured features and the rating they give."""

    nodes: int
    plausible_losing: int
    win_in: int
    players: int
    #: Losing first moves whose refutation takes the other side two plays or more.
    tempting: int = 0
    #: Share of the naive panel that plays the answer (0.0–1.0).
    naive: float = 0.0
    #: Daily pool only: the tempting tries that fail (:mod:`tutor.puzzles.daily_pool`).
    tries: int | None = None
    #: Calibrated puzzles only: the policies that solved it, of those that tried
    #: (:mod:`tutor.puzzles.calibration`); None when not measured.
    solved_by: tuple[str, ...] | None = None

    @property
    def rating(self) -> int:
        if self.solved_by is not None:
            return calibrated_rating(estimate_rating(self), self.solved_by)
        return estimate_rating(self)

    @property
    def one_look(self) -> bool:
        """Solved at a glance: most naive players find the answer and then

        * every naive player does and the win is short (at most four plays), or
        * no mistake hides its refutation, or
        * the win takes two plays and the proof a handful of positions.
        """
        if self.naive < ONE_LOOK_NAIVE:
            return False
        everyone = self.naive >= 1.0 - 1e-9
        return ((everyone and self.win_in <= 4) or self.tempting == 0
                or (self.win_in <= 2 and self.nodes < TINY_PROOF))

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"nodes": self.nodes, "plausible": self.plausible_losing, "tempting": self.tempting,
                                "naive": round(self.naive, NAIVE_DIGITS), "win_in": self.win_in}
        if self.tries is not None:
            data["tries"] = self.tries
        if self.solved_by is not None:
            data["solved_by"] = list(self.solved_by)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], players: int = 3) -> Difficulty:
        tries = data.get("tries")
        solved_by = data.get("solved_by")
        return cls(int(data["nodes"]), int(data["plausible"]), int(data["win_in"]), players,
                   int(data["tempting"]), float(data["naive"]), None if tries is None else int(tries),
                   None if solved_by is None else tuple(str(x) for x in solved_by))


#: Decimals of the naive share as stored (and as measured: see :func:`measure`).
NAIVE_DIGITS = 3
#: Fewest naive players (share of the panel) that find the answer of a one-look puzzle.
ONE_LOOK_NAIVE = 0.5
#: A proof this small (search positions) is one a person sees at once.
TINY_PROOF = 32

#: The calibration (docs/puzzles.md, "Difficulty"): a one-look puzzle lands near 800-1000,
#: each tempting mistake, each step of reading and each play of length adds.
BASE = 650
PER_EFFORT_BIT = 22
PER_TEMPTING = 70
MOST_TEMPTING = 8
PER_PLAY = 80
NOT_NAIVE = 420


def estimate_rating(d: Difficulty) -> int:
    """Features → rating on the Glicko scale, clamped to [600, 2400], rounded to tens.

    What a one-look player misses is what makes a puzzle a puzzle, so the share
    of the naive panel that goes wrong (``1 − naive``) scales both the base
    surprise (``NOT_NAIVE``) and the tempting mistakes: a puzzle every naive
    player solves is easy however many traps lie beside the answer.  Solver
    effort counts in bits (doubling the search adds a constant), length per
    play beyond two.
    """
    effort = math.log2(1 + max(d.nodes, 0))
    missed = 1.0 - min(max(d.naive, 0.0), 1.0)
    value = (
        BASE
        + PER_EFFORT_BIT * effort
        + PER_PLAY * max(d.win_in - 2, 0)
        + missed * (NOT_NAIVE + PER_TEMPTING * min(d.tempting, MOST_TEMPTING))
    )
    return int(round(max(MIN_RATING, min(MAX_RATING, value)) / 10) * 10)


#: The players that try every puzzle of the daily pool, weakest first (tutor/puzzles/calibration.py).
POLICIES = ("easy", "medium", "quick", "hard")
#: Each policy's rating on the puzzle scale, fitted to its measured solve rates (issue 30: the daily pool of 37
#: and every 9th puzzle of the library, 98 puzzles; docs/puzzles.md, "Calibration").
POLICY_RATINGS: dict[str, float] = {"easy": 1040.0, "medium": 1070.0, "quick": 1290.0, "hard": 1360.0}
#: How sure the policies' ratings are (a fit over about a hundred puzzles).
POLICY_RD = 60.0
#: How sure the signals' estimate is before the policies try the puzzle (the library's starting deviation).
PRIOR_RD = 200.0


def calibrated_rating(signals: int, solved_by: Iterable[str]) -> int:
    """The signals' estimate after one Glicko-2 rating period against the four policies, losing to each
    that solved the puzzle (rounded to tens, clamped to 600–2400)."""
    from tutor.puzzles.glicko2 import Rating, rate

    solved = set(solved_by)
    prior = Rating(float(signals), PRIOR_RD)
    games = [(Rating(POLICY_RATINGS[p], POLICY_RD), 0.0 if p in solved else 1.0) for p in POLICIES]
    after = rate(prior, games)
    return int(round(max(MIN_RATING, min(MAX_RATING, after.rating)) / 10) * 10)


def is_interesting(d: Difficulty) -> bool:
    """Worth a daily puzzle: not one-look (see :attr:`Difficulty.one_look`)."""
    return not d.one_look


def breaks_bomb_or_rocket(pos: Position, move: Combo | None) -> bool:
    """A move that splits a four of a kind or the two jokers without playing them whole.

    Such moves are rarely what a person considers first, so they do not count
    as *plausible* wrong moves.
    """
    if move is None:
        return False
    hand = pos.hands[pos.to_move].packed
    played = unpack(move.cards)
    if move.kind in (Kind.BOMB, Kind.ROCKET, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
        return False
    for rank, n in enumerate(played):
        if n and packed_count(hand, rank) == 4 and n < 4:
            return True
    has_rocket = packed_count(hand, SMALL_JOKER) and packed_count(hand, BIG_JOKER)
    return bool(has_rocket and (played[SMALL_JOKER] or played[BIG_JOKER]))


def plausible_losing_moves(pos: Position, winning: list[Combo | None]) -> list[Combo | None]:
    """The losing moves a person might well try: every legal move except the winning
    ones and those that break a bomb or the rocket."""
    return [m for m in pos.legal_moves() if m not in winning and not breaks_bomb_or_rocket(pos, m)]


# ------------------------------------------------------------- the naive panel
def _opponents(pos: Position) -> list[int]:
    side = pos.roles[pos.to_move]
    return [i for i in range(pos.players) if pos.roles[i] is not side and pos.hands[i]]


def _rest_score(pos: Position, move: Combo) -> float:
    from tutor.bots.planner import plan_packed

    hand = pos.hands[pos.to_move].packed
    if move.cards == hand:
        return math.inf  # going out is what anyone plays
    return plan_packed(hand - move.cards).score


def shed_weakest(pos: Position, plays: Sequence[Combo]) -> list[Combo]:
    """The plays that leave the best-planned hand (the planner's "get rid of the weak group")."""
    scores = {m: _rest_score(pos, m) for m in plays}
    best = max(scores.values())
    return [m for m in plays if scores[m] == best]


def boss_first(pos: Position, plays: Sequence[Combo]) -> list[Combo]:
    """The biggest play no opponent can beat (keep the lead), else :func:`shed_weakest`."""
    foes = _opponents(pos)
    bosses = [m for m in plays if all(not follow_moves_packed(pos.hands[i].packed, m) for i in foes)]
    if not bosses:
        return shed_weakest(pos, plays)
    most = max(m.size for m in bosses)
    return [m for m in bosses if m.size == most]


def cheap_or_big(pos: Position, plays: Sequence[Combo]) -> list[Combo]:
    """On a table: the lowest beat (a bomb only when nothing else beats); on a lead: the most cards."""
    if pos.table is not None:
        plain = [m for m in plays if not m.is_bomb] or list(plays)
        low = min(m.main for m in plain)
        return [m for m in plain if m.main == low]
    most = max(m.size for m in plays)
    return [m for m in plays if m.size == most]


#: The naive panel: one-look players, each a rule of thumb a learner plays by.
NAIVE_PANEL: tuple[Callable[[Position, Sequence[Combo]], list[Combo]], ...] = (shed_weakest, boss_first, cheap_or_big)


def naive_share(pos: Position, answer: Move) -> float:
    """The chance that a naive player of the panel (chosen at random) plays ``answer``.

    None of them passes while it has a play: a puzzle whose answer is to pass
    is never one-look.
    """
    plays = [m for m in pos.legal_moves() if m is not None]
    if not plays:
        return 1.0  # a forced pass
    if answer is None:
        return 0.0
    total = 0.0
    for player in NAIVE_PANEL:
        picks = player(pos, plays)
        if answer in picks:
            total += 1.0 / len(picks)
    return total / len(NAIVE_PANEL)


class FastestSolver(Protocol):
    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True) -> Any: ...


#: Node budget for telling an immediate refutation from a longer one (small: it only looks one play deep).
REFUTATION_NODES = 50_000


def _one_play(cards: int) -> bool:
    return any(m.cards == cards for m in lead_moves_packed(cards))


def tempting_moves(pos: Position, losing: Sequence[Move], solver: FastestSolver | None = None) -> list[Move]:
    """The losing moves whose refutation is not immediate: the other side needs two plays or more.

    A move after which the other side just plays out its hand is a mistake seen
    at a glance; one that loses only after a fight is a real temptation.  When no
    hand of the other side is a single combination, no refutation can be
    immediate (no search); otherwise a small search (``REFUTATION_NODES``, or
    the injected solver) decides whether they go out at their first play.
    """
    side = pos.roles[pos.to_move]
    tempting = []
    for move in losing:
        after = pos.after(move)
        if after.is_over:
            continue
        if not any(_one_play(h.packed) for h, r in zip(after.hands, after.roles) if r is not side):
            tempting.append(move)
            continue
        judge = solver if solver is not None else _small_solver()
        result = judge.solve(after, "fastest", all_moves=False)
        if result.win_in is None or result.win_in >= 2:
            tempting.append(move)
    return tempting


def _small_solver() -> FastestSolver:
    from tutor.solver.solver import Solver

    return Solver(max_nodes=REFUTATION_NODES, rules=STANDARD)  # puzzles are classic endgames


def measure(pos: Position, answer: Move, nodes: int, win_in: int) -> Difficulty:
    """Every signal of a puzzle whose only winning first move is ``answer`` (solver effort ``nodes``)."""
    losing = plausible_losing_moves(pos, [answer])
    # The share as the file stores it (three decimals): the rating is computed from what is stored, or a
    # share of 2/3 could rate 10 points apart from its stored 0.667 (6 of 371 daily puzzles did).
    return Difficulty(nodes, len(losing), win_in, pos.players, len(tempting_moves(pos, losing)),
                      round(naive_share(pos, answer), NAIVE_DIGITS))

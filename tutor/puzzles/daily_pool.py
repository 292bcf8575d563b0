"""The daily pool: only-move positions that real games reached, worth a strong player's minute.

The library's puzzles are small cut endgames; many are duels with a dead third
hand and four legal first moves.  The daily puzzle is drawn from another pool,
made from the positions bot games (an easy and two medium bots at the table,
:data:`LEVELS`, seats rotating with the deal) actually reach — nothing cut but a
hand above :data:`HAND_CAP` cards, which keeps a seeded random subset — and kept only when

* all three hands are **live** (each holds at least :data:`LIVE` cards),
* the player to move has at least :data:`MIN_LEGAL` legal first moves,
* exactly one first move wins (proved by the solver within :data:`ROOT_NODES`),
* the fastest win needs at least :data:`MIN_WIN_IN` plays of the solving side, and
* at least :data:`MIN_TRIES` **tempting tries** fail: first moves that the medium
  bot or the coach's quick policy ranks at the top (the move it plays, or a move
  after which its own play-out wins for the side to move) and that the solver refutes.

Every check is counted (nodes, play-outs), never timed: the same deals give the
same pool on any machine.  :func:`daily_rules` re-checks a puzzle of the pool
(``ddz puzzles validate`` runs it on every daily puzzle).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD
from tutor.puzzles.calibration import _legal_twin, _quick_wins_for, medium_pick, quick_pick
from tutor.puzzles.generate import Candidate, Generator, Limits, SolverFactory, rotate_to_mover
from tutor.puzzles.model import Puzzle, Source, find_move
from tutor.puzzles.realism import impossible_passes
from tutor.puzzles.themes import MainLine
from tutor.solver.position import Position, Role

Move = Combo | None

#: The source method of the pool's puzzles (a position a real game reached, untouched).
METHOD = "real_game"
#: A live hand holds at least this many cards.
LIVE = 3
#: Fewest legal first moves of the player to move.
MIN_LEGAL = 6
#: Fewest tempting tries that fail.
MIN_TRIES = 2
#: Fewest plays of the solving side in the fastest win.
MIN_WIN_IN = 2
#: How many of the hand plan's best plays count as ranked near the top.
TOP_PLAN = 3
#: Most cards in the three hands together (bigger positions rarely prove within the budget).
MAX_CARDS = 34
#: Solver budget of the only-move proof, in nodes (a position beyond it is skipped, never guessed).
ROOT_NODES = 60_000
#: Solver budget of the probe of one top-ranked first move, in nodes (see :meth:`DailyGenerator.examine`).
PROBE_NODES = 15_000
#: The probe's solver settles positions a farmer wins alone with the compiled two-player core.
LONE_FARMER_PROBE = True
#: Largest hand of a candidate (a bigger one keeps a seeded random subset: see :func:`game_candidates`).
HAND_CAP = 8
#: The bots at the table, seats rotating with the deal.
LEVELS = ("easy", "medium", "medium")


def live_hands(pos: Position) -> int:
    """How many hands hold at least :data:`LIVE` cards."""
    return sum(1 for hand in pos.hands if len(hand) >= LIVE)


def plan_ranked(pos: Position, top: int = TOP_PLAN) -> list[Move]:
    """The ``top`` plays the medium bot's hand plan likes best: the plays that leave the best-planned
    hand (:func:`tutor.bots.planner.plan_packed`, what the medium bot leads and answers by), going out first."""
    from tutor.bots.planner import plan_packed

    hand = pos.hands[pos.to_move].packed

    def score(move: Combo) -> float:
        return float("inf") if move.cards == hand else plan_packed(hand - move.cards).score

    plays = [m for m in pos.legal_moves() if m is not None]
    plays.sort(key=lambda m: (-score(m), m.text))
    return list(plays[:top])


def top_ranked(pos: Position) -> list[Move]:
    """The first moves the medium bot or the quick policy ranks near the top: the move each plays,
    the medium bot's hand plan's best :data:`TOP_PLAN`, and every move after which the quick
    policy's own play-out wins for the side to move."""
    picks: list[Move] = [medium_pick(pos), quick_pick(pos), *plan_ranked(pos)]
    side = pos.roles[pos.to_move]
    for move in pos.legal_moves():
        after = pos.after(move)
        if after.winner is side or (not after.is_over and _quick_wins_for(after, side)):
            picks.append(move)
    unique: list[Move] = []
    for move in picks:
        if move not in unique:
            unique.append(move)
    return unique


def tempting_tries(pos: Position, winning: Sequence[Move]) -> list[Move]:
    """The top-ranked first moves (:func:`top_ranked`) that do not win: traps for a strong player."""
    return [m for m in top_ranked(pos) if m not in winning]


@dataclass(frozen=True, slots=True)
class DailyFigures:
    """What :func:`daily_rules` measures on a puzzle of the pool."""

    legal: int
    live: int
    tries: int
    win_in: int

    def problems(self) -> list[str]:
        found = []
        if self.legal < MIN_LEGAL:
            found.append(f"{self.legal} legal first moves (the daily needs {MIN_LEGAL})")
        if self.tries < MIN_TRIES:
            found.append(f"{self.tries} tempting tries fail (the daily needs {MIN_TRIES})")
        if self.win_in < MIN_WIN_IN:
            found.append(f"the win takes {self.win_in} plays (the daily needs {MIN_WIN_IN})")
        return found


def daily_rules(puzzle: Puzzle) -> DailyFigures:
    """Legal first moves, live hands, failing tempting tries and depth of a pool puzzle.

    The only winning first move is the puzzle's (the solver proves it in the
    verification); the tries are measured again here (bots and play-outs: no search).
    The depth is the fewer of the fastest win's plays (stored) and the book's main line's
    plays of the solving side, passes left out (0.1 s of CPU for a pool of 371).
    """
    pos = puzzle.position
    answer = find_move(pos, puzzle.first_move)
    plays = len(MainLine(puzzle).solver_plays())
    win_in = plays if puzzle.difficulty is None else min(puzzle.difficulty.win_in, plays)
    return DailyFigures(len(pos.legal_moves()), live_hands(pos), len(tempting_tries(pos, [answer])), win_in)


def finish(puzzle: Puzzle) -> Puzzle:
    """A pool puzzle with its failing tries stored and its rating calibrated by the policies' attempts."""
    from dataclasses import replace

    from tutor.puzzles.calibration import calibrate

    if puzzle.difficulty is None:
        raise ValueError(f"puzzle {puzzle.id} has no measured signals")
    answer = find_move(puzzle.position, puzzle.first_move)
    tries = len(tempting_tries(puzzle.position, [answer]))
    return calibrate(replace(puzzle, difficulty=replace(puzzle.difficulty, tries=tries)))


def _probe_solver() -> Any:
    from tutor.solver.solver import Solver

    # The lone-farmer shortcut (tutor/solver/lone_farmer.py): a farmers' winning move proves in fewer
    # nodes, so more candidates end here; the proof itself keeps the plain search (its nodes rate a puzzle).
    return Solver(max_nodes=PROBE_NODES, workers=1, lone_farmer=LONE_FARMER_PROBE, rules=STANDARD)


def generate_daily(count: int, seed: int, solver_factory: SolverFactory, first_deal: int | None = None,
                   skip_ids: set[str] | None = None, progress: Callable[[int], None] | None = None) -> list[Puzzle]:
    """``count`` new pool puzzles from the bot games of deals ``first_deal, first_deal + 1, …``
    (default ``seed × 100000``), each proven within :data:`ROOT_NODES` (a budget, never a clock)."""
    generator = DailyGenerator(solver_factory)
    skip = set(skip_ids or ())
    found: list[Puzzle] = []
    number = seed * 100_000 if first_deal is None else first_deal
    while len(found) < count:
        for puzzle in generator.deal_puzzles(number, seed):
            if puzzle.id not in skip and len(found) < count:
                skip.add(puzzle.id)
                found.append(puzzle)
                if progress is not None:
                    progress(len(found))
        number += 1
    return found


def in_pool(puzzle: Puzzle) -> bool:
    """A puzzle of the daily pool: made from a real game's position."""
    return puzzle.source.method == METHOD


# ------------------------------------------------------------------ candidates
def game_candidates(number: int, seed: int, hand_cap: int | None = None) -> Iterator[Candidate]:
    """Positions of a bot game on deal ``number`` that could be daily material (cheap filters first).

    From the moment the three hands hold at most :data:`MAX_CARDS` cards together, each position where
    every hand is live and the mover has :data:`MIN_LEGAL` legal moves is a candidate.  ``hand_cap``
    (default :data:`HAND_CAP`) keeps a hand above it to a seeded random ``hand_cap`` of its cards, as
    the library's bot-game puzzles do; the shape of the fight (who leads, what is on the table,
    who is short) stays the game's.  The compiled search proves untrimmed positions too (a year of
    them took 2.9 times the CPU, richer and harder: docs/puzzles.md, the fifth pass, says what is left
    before the pool can switch).
    """
    from tutor.bots import make_bot
    from tutor.engine.game import Game
    from tutor.puzzles.generate import _position_of

    cap = HAND_CAP if hand_cap is None else hand_cap
    landlord = (number + seed) % STANDARD.players
    game = Game.with_landlord(number, landlord)
    levels = [LEVELS[(number + seat) % len(LEVELS)] for seat in range(STANDARD.players)]
    bots = [make_bot(level, number) for level in levels]
    turn = 0
    while not game.is_over:
        turn += 1
        sizes = [len(h) for h in game.hands]
        if sum(sizes) <= MAX_CARDS and min(sizes) >= LIVE:
            rng = random.Random(seed * 7919 + number * 31 + turn)
            pos = rotate_to_mover(_position_of(game, rng, cap))
            if len(pos.legal_moves()) >= MIN_LEGAL and not impossible_passes(pos):
                note = f"{'/'.join(levels)} bots, turn {turn}"
                yield Candidate(pos, Source("generated", METHOD, number, seed, note))
        seat = game.to_move
        game.play(bots[seat].play(game.view(seat)))


class DailyGenerator:
    """Candidates of real games in, daily puzzles out (the library generator does the proving).

    Args:
        solver_factory: a fresh solver per candidate (its budget is the proof's).
        probe_factory: the solver of the probe (default: :data:`PROBE_NODES` a move, one process).
    """

    def __init__(self, solver_factory: SolverFactory, probe_factory: Callable[[], Any] | None = None) -> None:
        limits = Limits(max_cards_two=20, max_cards_three=20, min_plausible_losing=MIN_TRIES,
                        min_win_in=MIN_WIN_IN, max_root_nodes=ROOT_NODES)
        self.inner = Generator(solver_factory, limits)
        self.probe_factory = probe_factory or _probe_solver
        #: Candidates the probe ended (two top-ranked first moves proven winning), for the figures.
        self.probed_out = 0

    def two_winners(self, pos: Position, moves: Sequence[Move]) -> bool:
        """Two of ``moves`` are proven to win: the position has no only move (each proof within
        :data:`PROBE_NODES`; a move beyond it counts as nothing)."""
        solver = self.probe_factory()
        wins = 0
        for move in moves:
            if solver.is_winning_move(pos, move) is True:
                wins += 1
                if wins == 2:
                    return True
        return False

    def examine(self, candidate: Candidate) -> Puzzle | None:
        """The pool puzzle of a candidate, or None.  Cheap checks first (issue 30: 15 s of CPU a puzzle):
        the top-ranked moves (bots and play-outs, no search); then a probe of those moves — in a real
        game's position most of them often win, and two proven winners end the candidate before the proof
        of every first move (which would reject it too: the probe changes which positions are kept not at
        all, only what rejecting them costs; its own solver leaves the proof's node counts, a rating signal,
        as they were)."""
        pos = candidate.position
        # Cheap first: without two top-ranked moves besides any one answer there cannot be two failing tries.
        ranked = top_ranked(pos)
        if len(ranked) < MIN_TRIES:
            return None
        if self.two_winners(rotate_to_mover(pos), ranked):
            self.probed_out += 1
            return None
        puzzle = self.inner.examine(candidate)
        if puzzle is None or puzzle.difficulty is None:
            return None
        answer = find_move(puzzle.position, puzzle.first_move)
        figures = DailyFigures(len(pos.legal_moves()), live_hands(pos),
                               len([m for m in ranked if m != answer]), puzzle.difficulty.win_in)
        if figures.problems():
            return None
        return finish(puzzle)

    def deal_puzzles(self, number: int, seed: int) -> list[Puzzle]:
        found: dict[str, Puzzle] = {}
        for candidate in game_candidates(number, seed):
            puzzle = self.examine(candidate)
            if puzzle is not None and puzzle.id not in found:
                found[puzzle.id] = puzzle
        return list(found.values())



#: Share of the daily pool whose three hands must all be live.
MIN_LIVE_SHARE = 0.70
#: The median of legal first moves the pool must reach.
MIN_MEDIAN_LEGAL = 8


@dataclass(frozen=True, slots=True)
class PoolReport:
    """The daily pool measured (``ddz puzzles validate`` prints it): per-puzzle problems and the figures."""

    size: int
    problems: dict[str, list[str]]
    legal_median: float
    live_share: float
    tries_median: float
    depth_median: float
    ratings: dict[str, float]
    #: Of every puzzle given (the library), the share of duels (``heads_up``).
    heads_up_share: float
    heads_up_pool: float

    def pool_problems(self) -> list[str]:
        found = []
        if self.size and self.live_share < MIN_LIVE_SHARE:
            found.append(f"{self.live_share:.0%} of the daily pool has three live hands (needs {MIN_LIVE_SHARE:.0%})")
        if self.size and self.legal_median < MIN_MEDIAN_LEGAL:
            found.append(f"median legal first moves {self.legal_median} (needs {MIN_MEDIAN_LEGAL})")
        return found

    def to_data(self) -> dict[str, Any]:
        return {"size": self.size, "problems": self.problems, "legal_median": self.legal_median,
                "live_share": round(self.live_share, 3), "tries_median": self.tries_median,
                "depth_median": self.depth_median, "ratings": self.ratings,
                "heads_up_share": round(self.heads_up_share, 3), "heads_up_pool": round(self.heads_up_pool, 3)}


def pool_report(puzzles: Sequence[Puzzle]) -> PoolReport:
    """The daily rules checked on every pool puzzle of ``puzzles``, and the figures of the pool."""
    from statistics import median

    from tutor.puzzles.calibration import spread

    pool = [p for p in puzzles if in_pool(p)]
    figures = {p.id: daily_rules(p) for p in pool}
    problems = {ident: f.problems() for ident, f in figures.items() if f.problems()}
    for p in pool:
        stored = p.difficulty.tries if p.difficulty is not None else None
        if stored is not None and stored != figures[p.id].tries:
            problems.setdefault(p.id, []).append(f"{figures[p.id].tries} tempting tries fail (stored {stored})")

    def mid(values: list[int]) -> float:
        return float(median(values)) if values else 0.0

    duel = [p for p in puzzles if "heads_up" in p.themes]
    return PoolReport(
        size=len(pool), problems=problems,
        legal_median=mid([f.legal for f in figures.values()]),
        live_share=sum(f.live == 3 for f in figures.values()) / len(pool) if pool else 0.0,
        tries_median=mid([f.tries for f in figures.values()]),
        depth_median=mid([f.win_in for f in figures.values()]),
        ratings=spread([p.rating for p in pool]),
        heads_up_share=len(duel) / len(puzzles) if puzzles else 0.0,
        heads_up_pool=sum("heads_up" in p.themes for p in pool) / len(pool) if pool else 0.0,
    )

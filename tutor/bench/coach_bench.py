"""``ddz bench coach``: the time of one coach decision, over positions from real games.

The positions are the learner's decisions (seat 0) in games played by the
hard level's judgement on fixed deals — a spread of openings, middle games and
endgames, the same on every run.  Each decision is timed as the game times it:
one evaluation with the move actually played asked about (hint and verdict
share it).  Reported: the median and the worst time, and the samples used.
Times depend on the machine and its load (printed with the figures); the
*answers* do not — the budget is counted in samples and nodes.  (It lives in
``tutor.bench``, not in ``tutor.coach``: no coach module reads a clock.)
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tutor.coach.bidding import DEFAULT_BID_BUDGET, BidBudget, evaluate_bid
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget, evaluate
from tutor.engine.view import PlayerView

T = TypeVar("T")

#: Deals the positions come from, and how many decisions of each are kept.
DEALS = tuple(range(1, 9))
PER_DEAL = 5

#: Deals whose auctions give the bid decisions (seat 0's turn to bid, the medium bots before it).
BID_DEALS = tuple(range(1, 25))

Position = tuple[PlayerView, "object"]


@dataclass(frozen=True, slots=True)
class CoachFigures:
    positions: int
    median: float
    worst: float
    #: The same in CPU seconds of this process (what the machine's load does not inflate).
    cpu_median: float
    cpu_worst: float
    samples: int
    exact: int
    load: tuple[float, float, float]
    #: Median samples drawn per decision (the sequential sampling stops when the figures are settled).
    median_samples: float = 0.0
    #: Decisions whose loss (of the move played) lies in 0.05–0.40 with a noise above 0.04 (issue 20: none).
    imprecise: int = 0
    #: The worst such noise.
    worst_noise: float = 0.0


def positions(deals: tuple[int, ...] = DEALS, per_deal: int = PER_DEAL) -> list[tuple[PlayerView, object]]:
    """The learner's non-forced decisions, ``per_deal`` spread evenly over each game."""
    from tutor.bots.hard import HardBot
    from tutor.engine.game import Game
    from tutor.engine.moves import legal_moves
    from tutor.engine.rules import STANDARD

    out: list[tuple[PlayerView, object]] = []
    for deal in deals:
        game = Game.with_landlord(deal, deal % STANDARD.players, rules=STANDARD)  # the classic game
        bots = [HardBot(deal * 10 + s, search=False, rollouts=False) for s in range(game.players)]
        mine: list[tuple[PlayerView, object]] = []
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            move = bots[seat].play(view)
            if seat == 0 and len(legal_moves(view.hand, view.table)) + (view.table is not None) > 1:
                mine.append((view, move))
            game.play(move)
        if mine:
            step = max(1, len(mine) // per_deal)
            out.extend(mine[::step][:per_deal])
    return out


def _timed(call: Callable[[], T], times: list[float], cpu: list[float]) -> T:
    """``call()``, its wall and CPU seconds appended to ``times`` and ``cpu``."""
    start, cpu_start = time.perf_counter(), time.process_time()
    result = call()
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - cpu_start)
    return result


def run(budget: Budget = DEFAULT_BUDGET) -> CoachFigures:
    times: list[float] = []
    cpu: list[float] = []
    drawn: list[int] = []
    exact = 0
    imprecise = 0
    worst_noise = 0.0
    chosen = positions()
    for view, move in chosen:
        ev = _timed(lambda: evaluate(view, (move,), budget), times, cpu)  # type: ignore[arg-type]
        drawn.append(ev.samples)
        exact += ev.method == "exact"
        loss, noise = ev.loss(move), ev.loss_noise(move)  # type: ignore[arg-type]
        if 0.05 < loss < 0.40:
            worst_noise = max(worst_noise, noise)
            imprecise += noise > budget.target_noise
    return CoachFigures(
        len(times), statistics.median(times), max(times), statistics.median(cpu), max(cpu), max(drawn), exact,
        os.getloadavg(), statistics.median(drawn), imprecise, worst_noise,
    )


@dataclass(frozen=True, slots=True)
class BidFigures:
    """The same figures for bid decisions (expected score of every legal bid)."""

    positions: int
    median: float
    worst: float
    cpu_median: float
    cpu_worst: float
    #: The most samples a decision drew (the sequential sampling's cap when a verdict stayed unsettled).
    samples: int
    #: Median games played out per decision (one per sample and possible landlord).
    games: float
    #: Median policy decisions per bid decision (the counted work).
    decisions: float
    #: Samples, over all decisions, in which no draw explained the bids already made.
    misfits: int
    load: tuple[float, float, float]


def bid_positions(deals: tuple[int, ...] = BID_DEALS) -> list[PlayerView]:
    """Seat 0's first bid decision in each deal, after the medium bots' bids before it (RULES §3)."""
    from tutor.bots.medium import MediumBot
    from tutor.engine.game import Game, Phase

    out: list[PlayerView] = []
    bot = MediumBot(0)
    for deal in deals:
        game = Game(deal)
        while game.phase is Phase.BIDDING and game.to_move != 0:
            game.make_bid(bot.bid(game.view(game.to_move)))
        if game.phase is Phase.BIDDING:
            out.append(game.view(0))
    return out


def run_bids(budget: BidBudget = DEFAULT_BID_BUDGET, deals: tuple[int, ...] = BID_DEALS) -> BidFigures:
    times: list[float] = []
    cpu: list[float] = []
    games: list[int] = []
    work: list[int] = []
    misfits = 0
    drawn: list[int] = []
    for view in bid_positions(deals):
        ev = _timed(lambda: evaluate_bid(view, budget), times, cpu)
        drawn.append(ev.samples)
        games.append(ev.games)
        work.append(ev.decisions)
        misfits += ev.misfits
    return BidFigures(
        len(times), statistics.median(times), max(times), statistics.median(cpu), max(cpu), max(drawn, default=0),
        statistics.median(games), statistics.median(work), misfits, os.getloadavg(),
    )  # fmt: skip

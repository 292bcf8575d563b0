"""The arena: bot against bot over many deals, with honest error bars.

Measuring strength on the cards (the way published Dou Di Zhu AI evaluations
do it): every deal is played **twice with the roles swapped** — level A as the
landlord against level B as both farmers, then B as the landlord against A —
with a fixed landlord seat and no auction.  Whatever luck the deal holds is
then given to both sides, and only the play differs.

Reported for A:

* **WP**, the share of games A's side won;
* **ADP**, the average point difference per game: ±2 for the landlord side,
  doubled by each bomb and the rocket (the farmers' side also wins or loses 2);
* a 95% confidence interval for each, computed over *deals* (the two games of
  one deal are correlated, so the deal is the independent unit);
* games per second and how long each bot took per decision.

With ``bidding=True`` the arena plays full games with the auction (RULES §3)
instead: each deal once per seat, A in seat 0, 1 and 2 (and 3 with four
players, RULES §12.4) against B bots in the others, and
reports A's score per game as RULES §7 counts it.  ``rules`` chooses the
variant of those games (``--auction rob``, ``--open-hand``: RULES §12): the
bots call, rob and show the hand by their own judgement.

This module lives in ``tutor.bench`` rather than ``tutor.bots`` because it
runs games: the bots package never imports the game (a bot can only see its
view), the arena does.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tutor.bots import LEVELS, UnknownLevelError, make_bot
from tutor.bots.base import Bot
from tutor.engine.game import Game, Phase
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.view import PlayerView
from tutor.solver.parallel import ignore_interrupts, interrupts_held

T = TypeVar("T")

#: Seat that is the landlord in the fixed-landlord arena.
LANDLORD_SEAT = 0
#: An auction where everybody passes redeals (RULES §3); give up after this many.
MAX_REDEALS = 30
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(slots=True)
class DealOutcome:
    """What happened on one deal, from A's point of view."""

    number: int
    #: A's result in each game of the deal: 1 won, 0 lost.
    wins: list[int] = field(default_factory=list)
    #: A's points in each game (ADP points, or RULES §7 score with bidding).
    points: list[float] = field(default_factory=list)
    #: In bidding mode: games where A became the landlord.
    a_landlord: int = 0
    bombs: int = 0


@dataclass(slots=True)
class Chunk:
    """A worker's answer for a batch of deals."""

    outcomes: list[DealOutcome]
    #: Decision times in seconds, by level.
    times: dict[str, list[float]]


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """The arena's figures for level A (``landlord``) against level B (``farmers``)."""

    a: str
    b: str
    deals: int
    games: int
    bidding: bool
    wp: float
    wp_ci: tuple[float, float]
    adp: float
    adp_ci: tuple[float, float]
    seconds: float
    games_per_second: float
    #: Per level: (median, max) decision time in milliseconds.
    decision_ms: dict[str, tuple[float, float]]
    #: Bidding mode: share of games where A was the landlord.
    a_landlord_share: float | None = None
    #: Fixed-landlord mode: A's WP in the games where it was the landlord, and as the farmers.
    wp_as_landlord: float | None = None
    wp_as_farmers: float | None = None
    #: The rule set of the bidding games (RULES §12).
    rules: Rules = field(kw_only=True)

    def to_json(self) -> dict[str, object]:
        a_ms = self.decision_ms.get(self.a, (0.0, 0.0))
        data: dict[str, object] = {
            "landlord": self.a,
            "farmers": self.b,
            "mode": "bidding" if self.bidding else "fixed_landlord",
            "deals": self.deals,
            "games": self.games,
            "wp": round(self.wp, 4),
            "wp_ci": [round(self.wp_ci[0], 4), round(self.wp_ci[1], 4)],
            "adp": round(self.adp, 4),
            "adp_ci": [round(self.adp_ci[0], 4), round(self.adp_ci[1], 4)],
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 2),
            "decision_ms_median": round(a_ms[0], 3),
            "decision_ms_max": round(a_ms[1], 3),
            "decision_ms": {
                level: {"median": round(med, 3), "max": round(mx, 3)} for level, (med, mx) in self.decision_ms.items()
            },
        }
        if not self.bidding and self.wp_as_landlord is not None and self.wp_as_farmers is not None:
            data["wp_as_landlord"] = round(self.wp_as_landlord, 4)
            data["wp_as_farmers"] = round(self.wp_as_farmers, 4)
        if self.bidding or self.rules.players != 3:
            data["rules"] = self.rules.to_json()
        if self.bidding:
            data["score"] = data["adp"]
            data["score_ci"] = data["adp_ci"]
            data["a_landlord_share"] = round(self.a_landlord_share or 0.0, 4)
        return data


class _TimedBots:
    """Wraps the bots of one game to time every decision by level."""

    def __init__(self, bots: Sequence[Bot], times: dict[str, list[float]]) -> None:
        self.bots = bots
        self.times = times

    def _decide(self, game: Game, ask: Callable[[Bot, PlayerView], T]) -> T:
        """Ask the bot to move for its view, timing the decision alone."""
        bot = self.bots[game.to_move]
        view = game.view(game.to_move)
        start = time.perf_counter()
        answer = ask(bot, view)
        self.times[bot.level].append(time.perf_counter() - start)
        return answer

    def bid(self, game: Game) -> int:
        return self._decide(game, lambda bot, view: bot.bid(view))

    def play(self, game: Game) -> None:
        if game.can_open() and self._decide(game, lambda bot, view: bot.show_hand(view)):
            game.open_hand()  # RULES §12.2: the landlord's choice before the first play
        game.play(self._decide(game, lambda bot, view: bot.play(view)))


def play_out(game: Game, bots: Sequence[Bot], times: dict[str, list[float]] | None = None) -> Game:
    """Let ``bots`` (one per seat) finish ``game``: the auction if any, then the play.

    Raises:
        RuntimeError: If the auction keeps being passed out (more than
            :data:`MAX_REDEALS` redeals), which only broken bots can cause.
    """
    timed = _TimedBots(bots, times if times is not None else {b.level: [] for b in bots})
    for bot in bots:
        timed.times.setdefault(bot.level, [])
    redeals = 0
    while game.phase is Phase.BIDDING:
        number = game.deal_number
        game.make_bid(timed.bid(game))
        if game.deal_number != number:
            redeals += 1
            if redeals > MAX_REDEALS:
                raise RuntimeError(f"deal {game.original_deal_number}: passed out {redeals} times")
    while game.phase is Phase.PLAYING:
        timed.play(game)
    return game


def _fixed_landlord_deal(
    number: int, a: str, b: str, times: dict[str, list[float]], rules: Rules
) -> DealOutcome:
    outcome = DealOutcome(number)
    for a_is_landlord in (True, False):
        landlord_level, farmer_level = (a, b) if a_is_landlord else (b, a)
        bots = [
            make_bot(landlord_level if seat == LANDLORD_SEAT else farmer_level, number)
            for seat in range(rules.players)
        ]
        game = play_out(Game.with_landlord(number, LANDLORD_SEAT, rules=rules), bots, times)
        score = game.score()
        won = score.landlord_won == a_is_landlord
        points = 2.0 * (1 << score.bombs)
        outcome.wins.append(int(won))
        outcome.points.append(points if won else -points)
        outcome.bombs += score.bombs
    return outcome


def _bidding_deal(number: int, a: str, b: str, times: dict[str, list[float]], rules: Rules) -> DealOutcome:
    outcome = DealOutcome(number)
    for a_seat in range(rules.players):
        bots = [make_bot(a if seat == a_seat else b, number) for seat in range(rules.players)]
        game = play_out(Game(number, rules), bots, times)
        score = game.score()
        a_landlord = score.landlord == a_seat
        outcome.a_landlord += int(a_landlord)
        outcome.wins.append(int(score.landlord_won == a_landlord))
        outcome.points.append(float(score.deltas[a_seat]))
        outcome.bombs += score.bombs
    return outcome


def _run_chunk(args: tuple[list[int], str, str, bool, Rules]) -> Chunk:
    numbers, a, b, bidding, rules = args
    times: dict[str, list[float]] = {a: [], b: []}
    if bidding:
        return Chunk([_bidding_deal(n, a, b, times, rules) for n in numbers], times)
    return Chunk([_fixed_landlord_deal(n, a, b, times, rules) for n in numbers], times)


def _mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, (mean, mean)
    sd = statistics.stdev(values)
    half = Z95 * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)


def summarise(a: str, b: str, outcomes: list[DealOutcome], times: dict[str, list[float]], seconds: float,
              bidding: bool, rules: Rules) -> ArenaResult:
    """Turn per-deal outcomes into WP and ADP with 95% intervals over deals."""
    if not outcomes:
        raise ValueError("the arena played no deals")
    wp, wp_ci = _mean_ci([sum(o.wins) / len(o.wins) for o in outcomes])
    adp, adp_ci = _mean_ci([sum(o.points) / len(o.points) for o in outcomes])
    games = sum(len(o.wins) for o in outcomes)
    decision_ms = {
        level: (statistics.median(ts) * 1000, max(ts) * 1000) for level, ts in times.items() if ts
    }
    a_share = sum(o.a_landlord for o in outcomes) / games if bidding else None
    as_landlord = as_farmers = None
    if not bidding:
        as_landlord = sum(o.wins[0] for o in outcomes) / len(outcomes)
        as_farmers = sum(o.wins[1] for o in outcomes) / len(outcomes)
    return ArenaResult(
        a=a,
        b=b,
        deals=len(outcomes),
        games=games,
        bidding=bidding,
        wp=wp,
        wp_ci=(max(0.0, wp_ci[0]), min(1.0, wp_ci[1])),
        adp=adp,
        adp_ci=adp_ci,
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else float("inf"),
        decision_ms=decision_ms,
        a_landlord_share=a_share,
        wp_as_landlord=as_landlord,
        wp_as_farmers=as_farmers,
        rules=rules,
    )


def run_swapped(
    level: str,
    against: str,
    decks: int,
    seed: int,
    play: Callable[[int, bool, list[float]], tuple[bool, int]],
    progress: Callable[[DealOutcome], None] | None = None,
) -> ArenaResult:
    """The DouZero protocol against a foreign bot (benchmarks/rlcard_arena.py, rhcp_arena.py): ``decks`` decks
    from ``seed``, each played twice with the seats swapped.

    ``play(deck, ours_landlord, times)`` plays one game and answers (did our side win, bombs and rockets
    played), appending the CPU seconds of our decisions to ``times``: our level as the landlord first, then
    as both farmers.  Points are 2, doubled by every bomb and rocket, won or lost (ADP).  ``progress``
    receives each deck's outcome as it ends (a long run's partial figures).

    Raises:
        ValueError: For an unknown level or fewer than one deck.
    """
    level = check_level(level)
    if decks < 1:
        raise ValueError(f"the arena needs at least one deck, got {decks!r}")
    outcomes = []
    times: list[float] = []
    start = time.perf_counter()
    for deck in range(seed, seed + decks):
        outcome = DealOutcome(deck)
        for ours_landlord in (True, False):
            won, bombs = play(deck, ours_landlord, times)
            points = 2.0 * (1 << bombs)
            outcome.wins.append(int(won))
            outcome.points.append(points if won else -points)
            outcome.bombs += bombs
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return summarise(level, against, outcomes, {level: times}, time.perf_counter() - start, bidding=False,
                     rules=STANDARD)  # the foreign bots play the classic game


def protocol_line(result: ArenaResult, cpu: float, load: tuple[float, float], note: str = "") -> str:
    """The one-line report of a seats-swapped run against a foreign bot: WP, ADP, the split, CPU, load."""
    ms = result.decision_ms.get(result.a, (0.0, 0.0))
    return (f"{result.a} vs {result.b}{note}: {result.deals} decks, {result.games} games: "
            f"WP {result.wp:.3f} [{result.wp_ci[0]:.3f}, {result.wp_ci[1]:.3f}]  "
            f"ADP {result.adp:+.3f} [{result.adp_ci[0]:+.3f}, {result.adp_ci[1]:+.3f}]  "
            f"as landlord {result.wp_as_landlord or 0.0:.3f}, as farmers {result.wp_as_farmers or 0.0:.3f}; "
            f"our decisions: median {ms[0]:.2f} ms, max {ms[1]:.1f} ms CPU; "
            f"run CPU {cpu:.0f} s, load {load[0]:.1f} -> {load[1]:.1f}")


def check_level(level: str) -> str:
    key = level.strip().lower()
    if key not in LEVELS:
        raise UnknownLevelError(f"unknown bot level {level!r} (one of: {', '.join(LEVELS)})")
    return key


def _chunks(numbers: list[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(numbers), size):
        yield numbers[i : i + size]


def run_arena(
    a: str,
    b: str,
    deals: int,
    *,
    seed: int = 0,
    workers: int = 1,
    bidding: bool = False,
    progress: Callable[[int], None] | None = None,
    rules: Rules,
) -> ArenaResult:
    """Play ``deals`` deals of level ``a`` against level ``b`` and measure ``a``.

    Args:
        a: The level whose figures are reported (``--landlord``).
        b: The opponent level (``--farmers``).
        deals: Number of deals; each is played twice (three times with bidding).
        seed: The first deal number; deals ``seed … seed + deals − 1`` are played.
        workers: Processes to use (1 = in this process).
        bidding: Play with the auction and report RULES §7 scores.
        rules: The rule set of the games (a variant of the auction or the cards implies ``bidding``: RULES §12;
            four players, §12.4, are played either way).
        progress: Called with the number of deals just finished, as they finish.

    Raises:
        ValueError: For an unknown level, fewer than one deal or worker, or a negative seed.
    """
    a, b = check_level(a), check_level(b)
    if deals < 1:
        raise ValueError(f"the arena needs at least one deal, got {deals!r}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative deal number, got {seed!r}")
    bidding = bidding or not rules.is_classic
    numbers = list(range(seed, seed + deals))
    size = max(1, min(25, deals // (workers * 8) or 1))
    jobs = [(chunk, a, b, bidding, rules) for chunk in _chunks(numbers, size)]
    outcomes: list[DealOutcome] = []
    times: dict[str, list[float]] = {a: [], b: []}
    start = time.perf_counter()

    def collect(chunk: Chunk) -> None:
        outcomes.extend(chunk.outcomes)
        for level, ts in chunk.times.items():
            times.setdefault(level, []).extend(ts)
        if progress is not None:
            progress(len(chunk.outcomes))

    if workers == 1:
        for job in jobs:
            collect(_run_chunk(job))
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with interrupts_held():  # workers ignore Ctrl-C; `with` terminates them on any exit
            pool = context.Pool(workers, initializer=ignore_interrupts)
        with pool:
            for chunk in pool.imap_unordered(_run_chunk, jobs):
                collect(chunk)
    seconds = time.perf_counter() - start
    outcomes.sort(key=lambda o: o.number)
    return summarise(a, b, outcomes, times, seconds, bidding, rules)

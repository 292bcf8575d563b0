"""``ddz bench coach --classic``: how often the coach flags the seed's classic errors in real positions.

The positions are the learner's (seat 0) turns in real games — the hard
level's judgement in every seat, and a beginner (the easy level) in seat 0 —
on fixed deals.  At each turn, for every classic error of the seed (RULES
§11) that a legal move commits, that move is played on paper and judged by
the shipped coach from the learner's view:

* ``bomb_for_straight`` — breaking a bomb to make a straight;
* ``high_early`` — a 2 or a joker spent early;
* ``beats_partner`` — beating the partner's winning card;
* ``single_into_one_card`` — a single led into a landlord holding one card;
* ``top_single_rocket_out`` — the top single thrown while the rocket is out.

Reported per class: how many such moves were found, how many the coach flags
(inaccuracy or worse, told from luck), how many it calls "unclear", and how
often the coach's best move commits the same pattern (then the "error" is the
right play here, and not flagging it is right too).  The pattern is not
always a mistake — that is why the coach measures instead of matching — so
the flag rate is a description of the positions, with the losses to read it.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tutor.bots.base import Bot
from tutor.coach.advice import judge
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget
from tutor.coach.mistakes import (
    Detector,
    beats_partner,
    breaks_bomb_for_straight,
    leads_single_when_landlord_has_one,
    spends_high_cards_early,
    throws_top_single_while_rocket_out,
)
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView

#: Class name → (detector, the finding codes that count).
CLASSES: dict[str, tuple[Detector, tuple[str, ...]]] = {
    "bomb_for_straight": (breaks_bomb_for_straight, ("breaks_bomb_for_straight",)),
    "high_early": (spends_high_cards_early, ("spends_high_cards_early",)),
    "beats_partner": (beats_partner, ("beats_partner", "smothers_partner_with_bomb")),
    "single_into_one_card": (leads_single_when_landlord_has_one, ("leads_single_when_landlord_has_one",)),
    "top_single_rocket_out": (
        throws_top_single_while_rocket_out,
        ("throws_top_single_while_rocket_out", "throws_top_single_while_rocket_out_landlord"),
    ),
}


def real_positions(games: int, first_deal: int = 1) -> Iterator[tuple[int, PlayerView]]:
    """(deal, view) of seat 0's turns in ``games`` games: even deals all hard, odd deals a beginner in seat 0."""
    for deal, view, _ in real_turns(games, first_deal):
        yield deal, view


def real_turns(games: int, first_deal: int = 1) -> Iterator[tuple[int, PlayerView, Combo | None]]:
    """(deal, view, the move seat 0 played) of :func:`real_positions`' turns."""
    from tutor.bots.easy import EasyBot
    from tutor.bots.hard import HardBot
    from tutor.engine.game import Game

    for deal in range(first_deal, first_deal + games):
        game = Game.with_landlord(deal, deal % STANDARD.players, rules=STANDARD)  # the classic game
        bots: list[Bot] = [EasyBot(deal) if deal % 2 else HardBot(deal * 10, search=False, rollouts=False)]
        bots += [HardBot(deal * 10 + s, search=False, rollouts=False) for s in (1, 2)]
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            move = bots[seat].play(view)
            if seat == 0:
                yield deal, view, move
            game.play(move)


def committing(view: PlayerView, name: str) -> list[Combo | None]:
    """The legal moves of ``view`` that commit the classic error ``name``."""
    detector, codes = CLASSES[name]
    moves: list[Combo | None] = list(legal_moves(view.hand, view.table, view.rules))
    if view.table is not None:
        moves.append(None)
    out: list[Combo | None] = []
    for move in moves:
        finding = detector(view, move)
        if finding is not None and finding.code in codes:
            out.append(move)
    return out


@dataclass(slots=True)
class ClassFigures:
    found: int = 0
    flagged: int = 0
    unclear: int = 0
    #: The coach's best move commits the same pattern (the "error" is the right play here).
    best_commits: int = 0
    losses: list[float] = field(default_factory=list)
    noises: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "found": self.found,
            "flagged": self.flagged,
            "flag_rate": round(self.flagged / self.found, 4) if self.found else None,
            "unclear": self.unclear,
            "best_commits_too": self.best_commits,
            "median_loss": round(statistics.median(self.losses), 4) if self.losses else None,
            "median_noise": round(statistics.median(self.noises), 4) if self.noises else None,
            "median_cpu_s": round(statistics.median(self.cpu), 4) if self.cpu else None,
        }


def run(
    games: int = 60,
    per_class: int = 25,
    budget: Budget = DEFAULT_BUDGET,
    progress: Callable[[int], None] | None = None,
) -> tuple[dict[str, ClassFigures], tuple[float, float, float]]:
    """Judge up to ``per_class`` committed classic errors of each class over ``games`` games."""
    figures = {name: ClassFigures() for name in CLASSES}
    judged = 0
    for _, view in real_positions(games):
        if all(f.found >= per_class for f in figures.values()):
            break
        for name, f in figures.items():
            if f.found >= per_class:
                continue
            moves = committing(view, name)
            if not moves:
                continue
            move = moves[0]
            start = time.process_time()
            verdict, ev = judge(view, move, budget)
            f.cpu.append(time.process_time() - start)
            f.found += 1
            f.flagged += verdict.flagged
            f.unclear += verdict.unclear
            f.best_commits += ev.best.move in moves
            f.losses.append(verdict.loss)
            f.noises.append(verdict.noise)
            judged += 1
            if progress is not None:
                progress(judged)
    return figures, os.getloadavg()



def beginner_exercises(games: int = 5, first_deal: int = 1, budget: Budget = DEFAULT_BUDGET) -> list[int]:
    """"Learn from your mistakes" on games a beginner played: the exercises found in each game.

    Seat 0 is the easy level from the deal to the end (its own bids too), the
    others the hard level's judgement; each finished game's record goes through
    :func:`tutor.coach.exercises.find`, as the mistakes command does.
    """
    from tutor.bots.easy import EasyBot
    from tutor.bots.hard import HardBot
    from tutor.coach.exercises import find
    from tutor.engine.game import Game, Phase

    found: list[int] = []
    for deal in range(first_deal, first_deal + games):
        game = Game(deal)
        bots: list[Bot] = [EasyBot(deal)] + [HardBot(deal * 10 + s, search=False, rollouts=False) for s in (1, 2)]
        while game.phase is Phase.BIDDING:
            game.make_bid(bots[game.to_move].bid(game.view(game.to_move)))
        while not game.is_over:
            game.play(bots[game.to_move].play(game.view(game.to_move)))
        found.append(len(find(game.record(), budget)))
    return found

"""A full-information diagnostic, never a bot: the hard landlord whose sampled deals are the true hands (issue 33).

The law of play is that only the learner's view speaks: a bot decides from its
:class:`~tutor.engine.view.PlayerView` and guesses the hidden hands by sampling
deals that fit it (:mod:`tutor.bots.sampling`).  To know how much that guessing
costs, this module runs the same bot, with the same budgets, after the fact, in
a benchmark: every deal it samples is replaced by the real one.  Whatever the
oracle wins that today's bot loses is lost to the hidden cards; whatever the
oracle loses too is lost by the decision procedure (the play-out policy, the
candidates, the search) or was never winnable against these farmers.

How: :func:`oracle_sampling` swaps, for the duration of a ``with`` block, the
deal drawer that the search (:mod:`tutor.bots.search`), the play-outs and the
rollouts (:mod:`tutor.bots.rollout`, :mod:`tutor.bots.sampling`) look up by
name for one that returns the true hands of the game in :class:`TrueDeal`
(set before each decision by the arena's ``watch`` hook:
:func:`tutor.bench.rlcard_arena.play_game`).  The package itself is not
changed: nothing in ``tutor/bots`` or anything the game, the coach or the web
use imports this module (tests/test_architecture.py's layering, and
tests/bots/test_bench_oracle.py, check it), and on leaving the block every name is
put back.  benchmarks/landlord_ceiling.py is its only user.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from tutor.bots import rollout, sampling, search
from tutor.bots.counting import PassLimit
from tutor.bots.sampling import Weighting
from tutor.engine.game import Game
from tutor.engine.view import PlayerView

#: The modules whose ``sampler`` name the hard bot's look-aheads call (their drawer of hidden deals), by the
#: look-ahead they serve: the exact search's samples, the play-outs' and rollouts' deals (drawn in
#: :mod:`tutor.bots.rollout`), and the deals nudged towards the others' plays (:mod:`tutor.bots.sampling`).
SAMPLING_MODULES: dict[str, ModuleType] = {"search": search, "playouts": rollout, "nudged": sampling}

Draw = Callable[[random.Random], dict[int, int]]


class OracleMismatch(ValueError):
    """A view that is not the watched game's: the oracle would hand out the wrong deal."""


class TrueDeal:
    """The game being played, whose hands the oracle hands out (set before each decision by the arena)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        #: Deals handed out (a run that never asked would have measured nothing: the benchmark checks it).
        self.draws = 0

    def watch(self, game: Game) -> None:
        """The arena's hook: ``game`` is about to ask one of our bots for a move."""
        self.game = game

    def hidden(self, view: PlayerView) -> dict[int, int]:
        """The other seats' true hands (packed) in ``view``'s game.

        Raises:
            OracleMismatch: When ``view`` is not the watched game's position (another game, or a view
                taken at another moment): the oracle never guesses.
        """
        game = self.game
        if game is None:
            raise OracleMismatch("no game is watched")
        if (
            view.hand.packed != game.hands_packed[view.seat]
            or tuple(view.card_counts) != game.card_counts
            or len(view.history) != len(game.history)
        ):
            raise OracleMismatch(f"the view of seat {view.seat} is not the watched game's position")
        return {s: game.hands_packed[s] for s in range(game.players) if s != view.seat}

    def sampler(
        self, view: PlayerView, limits: list[PassLimit] | None = None, weighting: Weighting | None = None
    ) -> Draw:
        """:func:`tutor.bots.sampling.sampler`'s signature; every draw is the true deal (``limits`` and
        ``weighting`` are irrelevant to it)."""
        truth = self.hidden(view)

        def draw(rng: random.Random) -> dict[int, int]:
            self.draws += 1
            return dict(truth)

        return draw


@contextmanager
def oracle_sampling(truth: TrueDeal, where: tuple[str, ...] = tuple(SAMPLING_MODULES)) -> Iterator[TrueDeal]:
    """Inside the block, every deal the bots' look-aheads ``where`` (keys of :data:`SAMPLING_MODULES`; all
    by default) draw is ``truth``'s game's real one; the others still sample.

    Raises:
        KeyError: For a look-ahead not in :data:`SAMPLING_MODULES`.
    """
    modules = [SAMPLING_MODULES[name] for name in where]
    saved = [(module, module.sampler) for module in modules]
    try:
        for module in modules:
            setattr(module, "sampler", truth.sampler)
        yield truth
    finally:
        for module, original in saved:
            setattr(module, "sampler", original)


def deck_rows(path: str) -> dict[int, dict[str, Any]]:
    """The per-deck lines (``{"deck": n, ...}``) of a ``--progress`` file of benchmarks/landlord_ceiling.py or
    benchmarks/hard_paired.py, by deck: how the benchmarks compare runs made at different times.

    Raises:
        OSError: When the file cannot be read.
        ValueError: When a deck's line is not JSON.
    """
    rows: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith('{"deck": '):
                row = json.loads(line)
                rows[int(row["deck"])] = row
    return rows

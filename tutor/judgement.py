"""The players' judgement the coach borrows, behind one injected surface (issue 31).

The coach measures a decision by playing sampled deals out, and words a hand
by the plan a player would make of it.  The *players* in that — the policy
that plays a deal out, the bid policy of the other seats, the sampler that
draws deals the others' plays explain, the moves a strong player considers,
the thrift that breaks ties, the hand's plan and bid strength — are judgement,
not rules: the bots' (:mod:`tutor.bots.players`).  The coach imports no bot
module (tests/test_architecture.py refuses it, lazy imports included); it asks
:func:`players` for a :class:`Players` that the *composition root* — the
package above the coach that runs it (sessions, the command line, the web, the
lessons, the puzzles, the benchmarks) — provided by :func:`provide`.

This module is layer-neutral and imports nothing of the project at run time,
so a root provides the judgement without loading it: the bots are imported the
first time the coach asks (``ddz --help`` stays as quick as it was).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # types only: nothing of the project is loaded by this module
    from tutor.engine.cards import Cards
    from tutor.engine.combos import Combo
    from tutor.engine.view import PlayerView


class Player(Protocol):
    """One seat's decisions from its view: what a play-out or a sampled auction asks a player."""

    def bid(self, view: PlayerView) -> int: ...

    def show_hand(self, view: PlayerView) -> bool: ...

    def play(self, view: PlayerView) -> Combo | None: ...


class HandValue(Protocol):
    """The numbers of the bidding status line (RULES §9) and the bid they suggest."""

    @property
    def high_cards(self) -> int: ...

    @property
    def bombs(self) -> int: ...

    @property
    def moves(self) -> int: ...

    @property
    def suggested_bid(self) -> int: ...


class Players(Protocol):
    """The judgement the coach borrows (:mod:`tutor.bots.players` is the one the roots provide)."""

    def policy(self, name: str) -> Player:
        """The play-out policy named by a budget ("hard", "medium", "quick")."""
        ...

    def bidder(self, level: str, seed: int) -> Player:
        """The bid policy of a level, its randomness following ``seed``."""
        ...

    def sample_deals(
        self, view: PlayerView, rng: random.Random, count: int, quick: bool, steps: int, recent: int | None
    ) -> list[dict[int, int]]:
        """``count`` hidden deals that fit ``view`` and explain the others' recent plays."""
        ...

    def candidates(self, view: PlayerView, width: int) -> list[Combo | None]:
        """The moves worth playing out: a strong player's choice and its plausible alternatives."""
        ...

    def thrift(self, move: Combo | None) -> tuple[int, int, int]:
        """Among equally good moves: pass, then no bomb, then low cards shed in numbers."""
        ...

    def hand_value(self, hand: Cards) -> HandValue:
        """The bidding status line's numbers of a dealt hand."""
        ...

    def plan_score(self, hand: int, decks: int) -> float:
        """How good the best plan of a packed hand is (higher is better), with ``decks`` decks (RULES §12.4)."""
        ...

    def moves_to_finish(self, hand: int, decks: int) -> int:
        """Plays the packed hand needs if it always had the lead, with ``decks`` decks (RULES §12.4)."""
        ...


_source: Callable[[], Players] | None = None
_players: Players | None = None


def provide(source: str | Callable[[], Players]) -> None:
    """Give the coach its judgement: a module's name (imported when first asked) or a function
    that returns a :class:`Players`.  The roots call it on import; a test may inject its own."""
    global _source, _players
    _players = None
    _source = (lambda: importlib.import_module(source)) if isinstance(source, str) else source


def players() -> Players:
    """The judgement provided by the composition root.

    Raises:
        RuntimeError: When no root provided one (a program that runs the coach must say whose
            judgement it borrows: ``provide("tutor.bots.players")``).
    """
    global _players
    if _players is None:
        if _source is None:
            raise RuntimeError("the coach has no players: call tutor.judgement.provide() in the program's root")
        _players = _source()
    return _players

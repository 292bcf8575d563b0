"""What sessions say: plain, frozen data that any front end renders.

A session never prints and never chooses a language.  Each learner action
returns a list of these events; the terminal (``tutor/cli``) or a web page turns
them into words at display time — :class:`~tutor.i18n.Phrase` values are
rendered with ``phrase.render(lang)`` in the learner's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.scoring import bombs_in, cost
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase


class Tone(Enum):
    """How a line should stand out (a front end maps it to colour *and* a non-colour cue)."""

    PLAIN = "plain"
    STRONG = "strong"
    QUIET = "quiet"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Say:
    """A line of the table (not the coach's): a notice, the status line, a prompt answer."""

    phrase: Phrase
    tone: Tone = Tone.PLAIN


@dataclass(frozen=True, slots=True)
class BidMade:
    """``seat`` bid ``bid`` (0 = pass)."""

    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class Redealt:
    """Everybody passed: the game goes on with deal ``deal`` (RULES §3)."""

    deal: int


@dataclass(frozen=True, slots=True)
class LandlordChosen:
    """The auction is over: ``seat`` is the landlord for ``bid`` and takes ``kitty``."""

    seat: int
    bid: int
    kitty: Cards
    is_learner: bool


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``move`` (None = pass)."""

    seat: int
    move: Combo | None


@dataclass(frozen=True, slots=True)
class TableShown:
    """The learner's turn begins: draw the table from their view."""

    view: PlayerView
    deal: int
    level: str
    running_score: int
    scored: bool
    counter: bool


@dataclass(frozen=True, slots=True)
class CounterShown:
    """The card counter, from the learner's view."""

    view: PlayerView


@dataclass(frozen=True, slots=True)
class StatusLine:
    """The status line of RULES §9 for what the learner typed (cards or pass), as data.

    ``ok`` says whether it can be played; :meth:`render` words it in a language.
    """

    hand: Cards
    table: Combo | None
    text: str
    is_pass: bool
    ok: bool

    def render(self, lang: str | None = None) -> str:
        from tutor.coach.status import pass_status, play_status
        from tutor.i18n import language, speaking

        with speaking(lang or language()):
            status = pass_status(self.table) if self.is_pass else play_status(self.hand, self.table, self.text)
            return status.line


@dataclass(frozen=True, slots=True)
class Options:
    """The readings the learner may choose between, numbered from 1."""

    options: tuple[Combo, ...]


@dataclass(frozen=True, slots=True)
class HintShown:
    """Hint number ``n``: ``move`` (None = pass), with its win chance and reason in ``phrase``.

    ``wrapped`` when the list started again.
    """

    n: int
    move: Combo | None
    phrase: Phrase
    wrapped: bool = False


@dataclass(frozen=True, slots=True)
class Remark:
    """The coach's remark (data: rendered late; kept so by the store)."""

    phrase: Phrase


@dataclass(frozen=True, slots=True)
class FinalCard:
    """Everything the final card shows (RULES §9)."""

    deal: int
    landlord: int
    landlord_won: bool
    bid: int
    bombs: tuple[Combo, ...]
    spring: bool
    anti_spring: bool
    base: int
    multiplier: int
    cost: int
    #: Score changes of every seat; all zero for an unscored replay of a deal.
    deltas: tuple[int, ...]
    scored: bool
    running_score: int
    hands: tuple[Cards, ...]
    kitty: Cards
    hints: int
    undos: int
    #: The store's id of the finished game (None without a store).
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class Review:
    """The short review after the game, one phrase a line."""

    lines: tuple[Phrase, ...] = field(default=())


Event = Say | StatusLine | BidMade | Redealt | LandlordChosen | Played | TableShown | CounterShown | Options | HintShown | Remark | FinalCard | Review


def game_cell(view: PlayerView) -> Phrase:
    """The live «Game: 10 × bid × multiplier = cost» cell (RULES §9), as data.

    One place computes it from the engine's scoring, so the terminal and the
    web page can never show different stakes for the same table.
    """
    base = view.rules.base
    if view.bid is None:
        high = max((b for _, b in view.bids), default=0)
        if not high:
            return Phrase("play.game_cell_bidding", {"base": base})
        return Phrase("play.game_cell", {"base": base, "bid": high, "mult": 1, "cost": base * high})
    doublings = bombs_in(view.history)
    return Phrase("play.game_cell", {"base": base, "bid": view.bid, "mult": 1 << doublings,
                                     "cost": cost(view.bid, doublings, view.rules)})


def multiplier_phrases(final: FinalCard) -> list[Phrase]:
    """Every factor of the stake spelled out: the bid, each bomb and rocket, spring or anti-spring.

    Both front ends list the same factors in the same order from this one place.
    """
    items = [Phrase("play.mult_bid", {"bid": final.bid})]
    for bomb in final.bombs:
        items.append(Phrase("play.mult_rocket") if bomb.kind == Kind.ROCKET
                     else Phrase("play.mult_bomb", {"cards": bomb.text}))
    if final.spring:
        items.append(Phrase("play.mult_spring"))
    if final.anti_spring:
        items.append(Phrase("play.mult_anti_spring"))
    return items

"""What sessions say: plain, frozen data that any front end renders.

A session never prints and never chooses a language.  Each learner action
returns a list of these events; the terminal (``tutor/cli``) or a web page turns
them into words at display time — :class:`~tutor.i18n.Phrase` values are
rendered with ``phrase.render(lang)`` in the learner's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tutor.coach.seats import seat_phrase
from tutor.engine.auction import CALL, stake_factor, view_auction
from tutor.engine.cards import Cards, rank_char
from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import Rules
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
    """``seat`` said ``bid``: a bid (0 = pass), or in a rob auction a call or a rob (RULES §12.1)."""

    seat: int
    bid: int
    rules: Rules
    #: A rob by the caller (RULES §12.1: the rob back).
    rob_back: bool = False

    def phrase(self) -> Phrase:
        """The line both front ends show: «Right: bid 2», «Left: rob», «You: pass»."""
        seat_name = seat_phrase(self.seat, self.rules)
        if self.bid == 0:
            return Phrase("play.bid_passed", {"seat": seat_name})
        if not self.rules.robs:
            return Phrase("play.bid_made", {"seat": seat_name, "bid": self.bid})
        key = "variants.call_made" if self.bid == CALL else "variants.rob_back_made" if self.rob_back else "variants.rob_made"
        return Phrase(key, {"seat": seat_name})


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
    rules: Rules
    robs: int = 0

    def phrase(self) -> Phrase:
        """«Right is the landlord with a bid of 2 …», or in a rob auction «… (robs: 2, ×4) …»."""
        seat_name = seat_phrase(self.seat, self.rules)
        if not self.rules.robs:
            key = "play.landlord_is_you" if self.is_learner else "play.landlord_is"
            return Phrase(key, {"seat": seat_name, "bid": self.bid, "kitty": str(self.kitty)})
        key = "variants.landlord_is_you" if self.is_learner else "variants.landlord_is"
        return Phrase(key, {"seat": seat_name, "robs": robs_phrase(self.robs, self.rules), "kitty": str(self.kitty)})


def robs_phrase(robs: int, rules: Rules) -> Phrase:
    """«no rob» / «robs: 2, ×4» (RULES §12.1)."""
    if not robs:
        return Phrase("variants.robs_none")
    return Phrase("variants.robs_n", {"n": robs, "x": rules.rob_factor**robs})


@dataclass(frozen=True, slots=True)
class HandShown:
    """The landlord showed the hand to everyone, ×2 (RULES §12.2)."""

    seat: int
    cards: Cards
    is_learner: bool
    #: The game's rules: the seat's name comes from their seat layout (RULES §12.4).
    rules: Rules

    def phrase(self) -> Phrase:
        if self.is_learner:
            return Phrase("variants.shown_you")
        return Phrase("variants.shown", {"seat": seat_phrase(self.seat, self.rules), "cards": str(self.cards)})


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``move`` (None = pass)."""

    seat: int
    move: Combo | None
    #: The game's rules: the seat's name comes from their seat layout (four seats have one across,
    #: RULES §12.4).  Not compared: a play is the same play whoever names the seats.
    rules: Rules = field(compare=False, repr=False)


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
    #: The game's rules when they read cards otherwise (the wildcard game, RULES §12.3); None: the standard game.
    rules: Rules | None = None

    def render(self, lang: str | None = None) -> str:
        from tutor.coach.status import pass_status, play_status
        from tutor.i18n import language, speaking

        with speaking(lang or language()):
            status = (pass_status(self.table) if self.is_pass
                      else play_status(self.hand, self.table, self.text, self.rules))
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
    #: The rule set the game was played under, its robs and whether the hand was shown (RULES §12).
    rules: Rules = field(kw_only=True)
    robs: int = 0
    opened: bool = False
    #: The named factors (``["rob", "open", "bomb"]``), as the store and ``ddz history --json`` keep them.
    factors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Review:
    """The short review after the game, one phrase a line."""

    lines: tuple[Phrase, ...] = field(default=())


Event = Say | StatusLine | BidMade | Redealt | LandlordChosen | HandShown | Played | TableShown | CounterShown | Options | HintShown | Remark | FinalCard | Review


def game_cell(view: PlayerView) -> Phrase:
    """The live «Game: 10 × bid × multiplier = cost» cell (RULES §9), as data.

    One place computes it from the engine's scoring, so the terminal and the
    web page can never show different stakes for the same table.
    """
    rules = view.rules
    base = rules.base
    if not rules.is_classic:
        return _variant_cell(view)
    if view.bid is None:
        high = view_auction(view).outcome(rules).stake
        if not high:
            return Phrase("play.game_cell_bidding", {"base": base})
        return Phrase("play.game_cell", {"base": base, "bid": high, "mult": 1, "cost": base * high})
    doublings = bombs_in(view.history)
    return Phrase("play.game_cell", {"base": base, "bid": view.bid, "mult": 1 << doublings,
                                     "cost": cost(view.bid, doublings, view.rules)})


def _variant_cell(view: PlayerView) -> Phrase:
    """The live cell of a variant game: the robs and the open hand as they happen (RULES §12)."""
    rules = view.rules
    outcome = view_auction(view).outcome(rules)
    stake = stake_factor(outcome, rules)
    if not stake:
        return Phrase("variants.game_cell_bidding" if rules.robs else "play.game_cell_bidding", {"base": rules.base})
    mult = stake * (1 << bombs_in(view.history)) * (rules.open_factor if view.opened else 1)
    part: Phrase = robs_phrase(outcome.robs, rules) if rules.robs else Phrase("play.mult_bid", {"bid": outcome.stake})
    if view.opened:
        part = Phrase("variants.join", {"a": part, "b": Phrase("variants.factor_open")})
    return Phrase("variants.game_cell", {"base": rules.base, "mult": mult, "cost": rules.base * mult, "factors": part})


def last_said(view: PlayerView, seat: int) -> Phrase | None:
    """What ``seat`` last said in the auction (the table shows it by the seat), None if nothing yet.

    «bid 2» / «pass»; in a rob auction «call» / «rob» / «pass» (RULES §12.1) — a
    caller may speak twice, so it is the last word, not the first.
    """
    said = [code for s, code in view.bids if s == seat]
    if not said:
        return None
    code = said[-1]
    if view.rules.robs:
        return Phrase("variants.pass" if code == 0 else "variants.call" if code == CALL else "variants.rob")
    return Phrase("play.last_bid", {"bid": code}) if code else Phrase("play.last_pass")


def rules_phrase(rules: Rules) -> Phrase:
    """«Rules: classic» / «Rules: rob the landlord, open hand» (RULES §12: a game says what it was played under)."""
    parts = [Phrase(f"variants.rules_{p}") for p, on in (("rob", rules.robs), ("open", rules.can_open)) if on]
    if rules.wilds:  # the wildcard game (RULES §12.3), with the deal's wild rank
        parts.append(Phrase("wild.rules_wild", {"rank": rank_char(rules.wild_rank) if rules.wild_rank >= 0 else "?"}))
    if rules.players == 4:  # RULES §12.4
        parts.insert(0, Phrase("four.players_4"))
    if not parts:
        return Phrase("variants.rules_line", {"rules": Phrase("variants.rules_classic")})
    joined = parts[0]
    for part in parts[1:]:
        joined = Phrase("variants.join", {"a": joined, "b": part})
    return Phrase("variants.rules_line", {"rules": joined})


def cost_phrase(final: FinalCard) -> Phrase:
    """The final card's cost line: «10 × bid 3 × 4 = 120», or «10 × 8 = 80 (robs: 2, ×4)» in a variant."""
    if final.rules.is_classic:
        return Phrase("play.cost_line", {"base": final.base, "bid": final.bid, "mult": final.multiplier, "cost": final.cost})
    return Phrase("variants.cost_line", {"base": final.base, "mult": final.bid * final.multiplier, "cost": final.cost})


def multiplier_phrases(final: FinalCard) -> list[Phrase]:
    """Every factor of the stake spelled out: the bid, each bomb and rocket, spring or anti-spring.

    Both front ends list the same factors in the same order from this one place.
    """
    rules = final.rules
    items = [] if rules.robs else [Phrase("play.mult_bid", {"bid": final.bid})]
    items += [Phrase("variants.factor_rob")] * final.robs
    if final.opened:
        items.append(Phrase("variants.factor_open"))
    for bomb in final.bombs:
        items.append(Phrase("play.mult_rocket") if bomb.kind == Kind.ROCKET
                     else Phrase("play.mult_bomb", {"cards": bomb.text}))
    if final.spring:
        items.append(Phrase("play.mult_spring"))
    if final.anti_spring:
        items.append(Phrase("play.mult_anti_spring"))
    return items

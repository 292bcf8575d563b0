"""The rules as data (RULES §12).

Everything that a variant could change lives in one frozen, hashable object,
passed to the engine rather than hard-wired in it: rob-the-landlord bidding
(``auction="rob"``, RULES §12.1) and the open hand (``open_hand="after_kitty"``,
§12.2) are values of this object, read by :mod:`tutor.engine.auction` and
:class:`tutor.engine.game.Game` — not branches spread over the packages.

The *play* of a game (what a combination is, what beats what) depends only on
the play fields; :meth:`Rules.plays_like` lets the move tables and the compiled
solver serve every auction variant of the standard play.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

from tutor.engine.cards import CHAIN_TOP, NUM_RANKS, RANK_CHARS as _RANK_CHARS, SMALL_JOKER, pack

#: The auctions a rule set may use: the 1-2-3 bid (RULES §3) or rob the landlord (§12.1).
AUCTIONS = ("bid", "rob")
#: When the landlord may show the hand: never, or after taking the kitty (RULES §12.2).
OPEN_HANDS = ("off", "after_kitty")
#: How a wild rank comes into a game: never, or drawn for each deal (RULES §12.3).
WILDS = ("off", "random_rank")
#: The ranks a wild rank may be (3 … 2, never a joker) and may stand for (RULES §12.3).
WILD_RANKS = range(SMALL_JOKER)

#: Fields that change the auction or the stake, not the play: a rule set that
#: differs from another only here plays the same combinations.
_NOT_PLAY = frozenset({"name", "bids", "base", "landlord_share", "spring_doubles", "auction", "rob_back",
                       "rob_factor", "open_hand", "open_factor", "wild"})
#: Variant fields written to JSON only when they differ from the default, so that
#: a classic game's record stays byte-for-byte what it was before the variants.
_VARIANT_FIELDS = ("auction", "rob_back", "rob_factor", "open_hand", "open_factor", "decks", "wild", "wild_rank")


@dataclass(frozen=True, slots=True)
class Rules:
    """Parameters of a Dou Di Zhu rule set; the defaults are RULES.md."""

    name: str = "standard"
    players: int = 3
    hand_size: int = 17
    kitty_size: int = 3
    #: The bids a player may make, in increasing order (RULES §3).
    bids: tuple[int, ...] = (1, 2, 3)
    #: Base stake of the cost formula (RULES §7).
    base: int = 10
    #: The landlord wins or loses this many times the cost (RULES §7).
    landlord_share: int = 2
    #: Whether spring and anti-spring add one doubling (RULES §7).
    spring_doubles: bool = True
    min_straight: int = 5
    min_pair_chain: int = 3
    min_airplane: int = 2
    #: Highest rank allowed in chains (the ace; RULES §5).
    chain_top: int = CHAIN_TOP
    #: ``bid`` (RULES §3) or ``rob`` (call, then rob: RULES §12.1).
    auction: str = "bid"
    #: Rob auction: a robbed caller may rob back once (RULES §12.1, on by default).
    rob_back: bool = True
    #: Rob auction: each rob multiplies the cost by this (RULES §12.1: ×2).
    rob_factor: int = 2
    #: ``off`` or ``after_kitty``: the landlord may show the hand (RULES §12.2).
    open_hand: str = "off"
    #: Showing the hand multiplies the cost by this (RULES §12.2: ×2).
    open_factor: int = 2
    #: Standard 54-card decks shuffled together (RULES §2; two for four players, §12.4).  The deck,
    #: the bombs (4 cards of a rank up to all of them) and the rocket (every joker) follow from it.
    decks: int = 1
    #: ``off`` or ``random_rank``: a wild rank is drawn for each deal (RULES §12.3).  A game deals
    #: under these rules with :attr:`wild_rank` set to the rank its deal drew (:meth:`with_wild`).
    wild: str = "off"
    #: The wild rank in force (0 = ``3`` … 12 = ``2``), or -1: the combination layer reads this one
    #: (RULES §12.3).  Set without ``wild`` it fixes the rank (a lesson, ``ddz classify --wild``).
    wild_rank: int = -1

    def __post_init__(self) -> None:
        if self.auction not in AUCTIONS:
            raise ValueError(f"auction must be one of {', '.join(AUCTIONS)}, got {self.auction!r}")
        if self.open_hand not in OPEN_HANDS:
            raise ValueError(f"open_hand must be one of {', '.join(OPEN_HANDS)}, got {self.open_hand!r}")
        if isinstance(self.decks, bool) or not isinstance(self.decks, int) or self.decks < 1:
            raise ValueError(f"decks must be a positive number of decks, got {self.decks!r}")
        if self.wild not in WILDS:
            raise ValueError(f"wild must be one of {', '.join(WILDS)}, got {self.wild!r}")
        if isinstance(self.wild_rank, bool) or not isinstance(self.wild_rank, int) or not (
            self.wild_rank == -1 or self.wild_rank in WILD_RANKS
        ):
            raise ValueError(f"wild_rank must be a rank 0..12 (3..2) or -1, got {self.wild_rank!r}")

    @property
    def wilds(self) -> bool:
        """True when the game is the wildcard game (RULES §12.3): a rank is drawn, or one is fixed."""
        return self.wild != "off" or self.wild_rank >= 0

    def with_wild(self, rank: int) -> Rules:
        """These rules with ``rank`` as the wild rank in force (a deal's draw; RULES §12.3)."""
        return self if rank == self.wild_rank else dataclasses.replace(self, wild_rank=rank)

    def natural(self) -> Rules:
        """These rules without a wild rank: what the cards read as when every card is its own rank."""
        return self if self.wild_rank < 0 else dataclasses.replace(self, wild_rank=-1)

    @property
    def deck(self) -> tuple[int, ...]:
        """How many cards of each of the 15 ranks the game is played with (RULES §2, §12.4)."""
        return _deck(self.decks)

    @property
    def deck_packed(self) -> int:
        """:attr:`deck` as a packed card set (:mod:`tutor.engine.cards`); the bots read it every decision."""
        return _deck_packed(self.decks)

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    @property
    def bomb_sizes(self) -> tuple[int, ...]:
        """The sizes of a bomb: four cards of a rank up to every card of it (RULES §5, §12.4)."""
        return tuple(range(4, 4 * self.decks + 1))

    @property
    def rocket_size(self) -> int:
        """The rocket is every joker of the deck: the two of one deck (RULES §5), four of two."""
        return 2 * self.decks

    @property
    def seat_layout(self) -> tuple[str, ...]:
        """Where each seat sits from seat 0's chair, in turn order (RULES §4: play passes to the right;
        §12.4: four seats): ``you``, ``right``, ``left`` — or ``you``, ``right``, ``across``, ``left``.  Seat
        names in every language come from this, never from a seat number alone."""
        return SEAT_LAYOUTS[self.players]

    @property
    def top_bid(self) -> int:
        """The bid that ends the auction at once."""
        return self.bids[-1]

    @property
    def robs(self) -> bool:
        """True for the rob-the-landlord auction (RULES §12.1)."""
        return self.auction == "rob"

    @property
    def can_open(self) -> bool:
        """True when the landlord may show the hand (RULES §12.2)."""
        return self.open_hand != "off"

    @property
    def is_classic(self) -> bool:
        """True for the 1-2-3 auction without the open hand (the game before the variants)."""
        return not self.robs and not self.can_open and not self.wilds

    @property
    def joker_pairs(self) -> bool:
        """Two jokers of one colour are a pair when there are two of each (RULES §12.4; never with one deck, §5)."""
        return self.decks > 1

    @property
    def native_play(self) -> bool:
        """True when the solver's compiled core plays this game: the standard combinations of one deck and
        three seats (every auction: the play is the same game).  The choice of the C core reads this, never a
        comparison with :data:`STANDARD` of its own."""
        return self.plays_like(STANDARD)

    @property
    def native_coach(self) -> bool:
        """True when the coach's evaluations may use the compiled quick play-out: the classic game only (its
        policy plays the cards and knows no robs nor shown hand, so the variants keep the Python policy)."""
        return self.native_play and self.is_classic

    def plays_like(self, other: Rules) -> bool:
        """True when both rule sets play the same combinations (the auction and stake aside)."""
        return all(
            getattr(self, f.name) == getattr(other, f.name) for f in dataclasses.fields(Rules) if f.name not in _NOT_PLAY
        )

    def to_json(self) -> dict[str, Any]:
        """The stable JSON form: every classic field, the variant fields only when set.

        Stable means the same rule set always gives the same object (field
        order fixed), and a classic rule set the exact object it gave before
        the variants existed.
        """
        out: dict[str, Any] = {}
        for f in dataclasses.fields(Rules):
            value = getattr(self, f.name)
            if f.name in _VARIANT_FIELDS and value == f.default:
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def label(self) -> str:
        """A short name of the variant part: ``classic``, ``rob``, ``open``, ``rob+open``, ``wild``, ``four``, …"""
        parts = [p for p, on in (("four", self.players == 4), ("rob", self.robs), ("open", self.can_open),
                                 ("wild", self.wilds)) if on]
        return "+".join(parts) or "classic"


@cache
def _deck(decks: int) -> tuple[int, ...]:
    return (4 * decks,) * SMALL_JOKER + (decks,) * (NUM_RANKS - SMALL_JOKER)


@cache
def _deck_packed(decks: int) -> int:
    return pack(_deck(decks))


STANDARD = Rules()
#: The named variant rule sets (a record may name them instead of spelling them out).
ROB = Rules(name="rob", auction="rob")
OPEN = Rules(name="open", open_hand="after_kitty")
ROB_OPEN = Rules(name="rob+open", auction="rob", open_hand="after_kitty")
#: Four players with two decks (RULES §12.4): 25 cards each, 8 in the kitty, bombs of 4 to 8 cards,
#: the four-joker rocket, the landlord's share 3 against three farmers.
FOUR = Rules(name="four", players=4, hand_size=25, kitty_size=8, landlord_share=3, decks=2)
FOUR_ROB = dataclasses.replace(FOUR, name="four+rob", auction="rob")
FOUR_OPEN = dataclasses.replace(FOUR, name="four+open", open_hand="after_kitty")
FOUR_ROB_OPEN = dataclasses.replace(FOUR, name="four+rob+open", auction="rob", open_hand="after_kitty")
#: The seat counts a game may be played with (RULES §1; §12.4).
SEAT_COUNTS = (3, 4)
#: Each seat count's seats from seat 0's chair in turn order (:attr:`Rules.seat_layout`).
SEAT_LAYOUTS: dict[int, tuple[str, ...]] = {3: ("you", "right", "left"), 4: ("you", "right", "across", "left")}
#: The wildcard game (RULES §12.3), alone and with the other variants.
WILD = Rules(name="wild", wild="random_rank")
ROB_WILD = Rules(name="rob+wild", auction="rob", wild="random_rank")
OPEN_WILD = Rules(name="open+wild", open_hand="after_kitty", wild="random_rank")
ROB_OPEN_WILD = Rules(name="rob+open+wild", auction="rob", open_hand="after_kitty", wild="random_rank")
NAMED: dict[str, Rules] = {
    r.name: r
    for r in (STANDARD, ROB, OPEN, ROB_OPEN, WILD, ROB_WILD, OPEN_WILD, ROB_OPEN_WILD,
              FOUR, FOUR_ROB, FOUR_OPEN, FOUR_ROB_OPEN)
}


def named_rules(name: str) -> Rules | None:
    """A rule set by its name: one of :data:`NAMED`, or ``wild-R`` — the standard game with the wild rank
    ``R`` fixed (RULES §12.3: a lesson's positions need the rank their tasks are proven under)."""
    if name in NAMED:
        return NAMED[name]
    if name.startswith("wild-") and len(name) == 6 and name[5] in _RANK_CHARS[:SMALL_JOKER]:
        return Rules(name=name, wild_rank=_RANK_CHARS.index(name[5]))
    return None


def variant(auction: str = "bid", open_hand: bool = False, wildcard: bool = False, players: int = 3) -> Rules:
    """The named rule set for an auction, the open-hand flag, the wildcard game and the seats (the CLI's and the
    web's choice).  The wildcard game is a three-player game here (RULES §12.3 deals one deck): with four
    players it is refused, as an unknown auction is."""
    if auction not in AUCTIONS:
        raise ValueError(f"auction must be one of {', '.join(AUCTIONS)}, got {auction!r}")
    if players not in SEAT_COUNTS:
        raise ValueError(f"players must be one of {', '.join(map(str, SEAT_COUNTS))}, got {players!r}")
    if wildcard and players != 3:
        raise ValueError("the wildcard game is played by three players (RULES §12.3), not with players=4")
    found = next(
        r for r in NAMED.values()
        if r.auction == auction and r.can_open == open_hand and (r.wild != "off") == wildcard and r.players == players
    )
    return found


class UnsupportedRulesError(ValueError):
    """A part that serves only some rule sets was handed another one.

    Raised instead of answering for the wrong game (the message names the part
    and the rules).
    """


def require_standard(rules: Rules, part: str) -> None:
    """Refuse rules that do not play like the standard ones, for ``part`` (e.g. the compiled solver).

    The auction variants play the standard combinations, so they are served.
    """
    if not rules.plays_like(STANDARD):
        raise UnsupportedRulesError(
            f"{part} serves only the standard rules, not {rules.name!r}; use Solver(native=False)"
        )

"""The rules as data (RULES §12).

Everything that a variant could change lives in one frozen object, passed to the
engine rather than hard-wired in it, so that rob-the-landlord bidding, open
hands, a wildcard rank or four players can be added later by building another
``Rules`` and teaching the engine the new fields — not by rewriting it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.cards import CHAIN_TOP


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

    @property
    def top_bid(self) -> int:
        """The bid that ends the auction at once."""
        return self.bids[-1]


STANDARD = Rules()


class UnsupportedRulesError(ValueError):
    """A part that serves only some rule sets was handed another one.

    Raised instead of answering for the wrong game (the message names the part
    and the rules).
    """


def require_standard(rules: Rules, part: str) -> None:
    """Refuse anything but the standard rules, for ``part`` (e.g. the compiled solver)."""
    if rules != STANDARD:
        raise UnsupportedRulesError(
            f"{part} serves only the standard rules, not {rules.name!r}; use Solver(native=False)"
        )

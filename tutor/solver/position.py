"""An open-hand endgame position: every hand known, the table, whose turn.

Turn model (RULES §4), written down once because the whole solver rests on it:

* Players are listed in turn order; play goes ``0 → 1 → … → n-1 → 0``.
* ``table`` is the combination the player to move must beat or pass on, and
  ``table_by`` is the player who *played* it (the last player to play).  With
  no table the player to move leads and may not pass.
* When the player to move passes, the turn goes to the next player.  If that
  next player is ``table_by`` itself, everybody else has passed since its
  play — two passes in three players, one pass in two players — so it leads
  again (the table is cleared).  Otherwise the next player faces the same
  table, still owned by ``table_by``.
* When the player to move plays, it becomes ``table_by`` of the new table and
  the next player must beat that play or pass.  A player who empties their
  hand ends the game at once: their side wins (the two farmers are one side).
* A root ``table`` given without ``table_by`` was played by the player listed
  last — the one right before the mover, so in three players a pass by the
  mover and a pass by the next player give the lead back to that player.

Positions are immutable values; :meth:`Position.after` returns a new one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from tutor.engine.cards import DECK_COUNTS, NUM_RANKS, Cards, InvalidCardsError, packed_contains, unpack
from tutor.engine.combos import Combo, IllegalPlayError, Kind, beats, plainest, readings, same_reading, strength
from tutor.engine.moves import follow_moves_packed, lead_moves_packed
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.trick import Trick, passes_since

if TYPE_CHECKING:
    from tutor.engine.game import Game
    from tutor.engine.view import PlayerView


class Role(Enum):
    """Which side a player is on: the landlord plays alone, farmers are a team."""

    LANDLORD = "L"
    FARMER = "F"

    @property
    def letter(self) -> str:
        return self.value


class InvalidPositionError(ValueError):
    """A position that cannot arise or cannot be read; the message names the bad part."""


def table_reading(cards: Cards | int | str) -> Combo:
    """The combination a set of cards stands for when it lies on the table.

    Most card sets have one reading.  When there are several
    (``333444555666``: airplane of four, or airplane of three with wings) we
    take the plainest kind, then the longest chain, then the highest main —
    the reading a player leading those cards would normally announce.
    """
    if isinstance(cards, str):
        cards = Cards.parse(cards)
    packed = cards.packed if isinstance(cards, Cards) else cards
    options = readings(packed)
    if not options:
        raise InvalidPositionError(f"{Cards(packed)!s:s} is not a combination (table {Cards(packed)!s})")
    return plainest(options)


@dataclass(frozen=True, slots=True)
class Position:
    """Hands of 2 or 3 players in turn order, their roles, the mover and the table.

    Attributes:
        hands: one :class:`Cards` per player, in turn order.
        roles: one :class:`Role` per player; exactly one landlord.
        to_move: index of the player to move.
        table: the combination to beat, or None when ``to_move`` leads.
        table_by: who played ``table`` (None when there is no table).
    """

    hands: tuple[Cards, ...]
    roles: tuple[Role, ...]
    to_move: int = 0
    table: Combo | None = None
    table_by: int | None = None
    #: The rule set the moves follow (RULES §12): keyword-only and required, the position's own.
    rules: Rules = field(kw_only=True)

    def __post_init__(self) -> None:
        n = len(self.hands)
        if n not in (2, 3, 4):  # four: the landlord against three farmers (RULES §12.4)
            raise InvalidPositionError(f"a position has 2 to 4 players, got {n}")
        if len(self.roles) != n:
            raise InvalidPositionError(f"{n} hands but {len(self.roles)} roles")
        if sum(1 for r in self.roles if r is Role.LANDLORD) != 1:
            letters = "".join(r.letter for r in self.roles)
            raise InvalidPositionError(f"exactly one landlord is needed, roles are {letters!r}")
        if not 0 <= self.to_move < n:
            raise InvalidPositionError(f"to_move {self.to_move!r} is not a player index (0..{n - 1})")
        if self.table is None:
            if self.table_by is not None:
                object.__setattr__(self, "table_by", None)
        else:
            by = (self.to_move - 1) % n if self.table_by is None else self.table_by
            if not 0 <= by < n:
                raise InvalidPositionError(
                    f"the index of who played the table, {by!r}, is out of range (players are 0..{n - 1})"
                )
            if by == self.to_move:
                raise InvalidPositionError(
                    f"the table must have been played by another player than the mover, got index {by!r}"
                )
            object.__setattr__(self, "table_by", by)
        total = [0] * NUM_RANKS
        parts = [h.packed for h in self.hands] + ([self.table.cards] if self.table is not None else [])
        for part in parts:
            for r, c in enumerate(unpack(part)):
                total[r] += c
        for r, c in enumerate(total):
            if c > self.rules.deck[r]:
                raise InvalidCardsError(
                    f"too many {Cards.from_ranks([r])!s:s} cards in the position: {c} (the deck has {self.rules.deck[r]})"
                )

    # ------------------------------------------------------------------ parsing
    @classmethod
    def parse(
        cls,
        text: str,
        beat: str | Cards | Combo | None = None,
        beat_by: int | None = None,
        rules: Rules | None = None,
    ) -> Position:
        """Read ``"L:DAQQJJT999844 F:X22AAT886633"`` (players in turn order, first to move).

        Args:
            text: space-separated ``ROLE:CARDS`` items, ``L`` landlord, ``F`` farmer.
            beat: the combination on the table (cards text, :class:`Cards` or a Combo).
            beat_by: index of the player who played ``beat``; default the last listed.
            rules: the position's rules (the standard game when not given).  Under a wild rank
                (RULES §12.3) the table's cards are read with it, and the strongest reading is the table:
                the one that asks most of a follower (a soft bomb before a trio with one).
        """
        items = text.split()
        if not items:
            raise InvalidPositionError(f"no players in {text!r} (expected e.g. 'L:AAA33 F:KK2')")
        hands: list[Cards] = []
        roles: list[Role] = []
        for item in items:
            letter, sep, cards = item.partition(":")
            if not sep:
                raise InvalidPositionError(f"player {item!r} should read ROLE:CARDS, e.g. 'L:AAA33'")
            try:
                role = Role(letter.strip().upper())
            except ValueError:
                raise InvalidPositionError(f"bad role {letter!r} in {item!r} (L = landlord, F = farmer)") from None
            hand = Cards.parse(cards)
            if not hand:
                raise InvalidPositionError(f"player {item!r} has no cards: the game would be over")
            hands.append(hand)
            roles.append(role)
        table: Combo | None
        if beat is None or (isinstance(beat, str) and not beat.strip()):
            table = None
            if beat_by is not None:
                raise InvalidPositionError("--beat-by needs --beat (there is no table combination)")
        elif isinstance(beat, Combo):
            table = beat
        elif rules is not None and rules.wild_rank >= 0:
            laid = Cards.parse(beat) if isinstance(beat, str) else beat
            found = readings(laid.packed, rules)
            if not found:
                raise InvalidPositionError(f"{laid!s:s} is not a combination (table {laid!s})")
            table = max(found, key=strength)
        else:
            table = table_reading(beat)
        if table is not None and beat_by is None:
            beat_by = len(hands) - 1
        return cls(tuple(hands), tuple(roles), 0, table, beat_by, rules=STANDARD if rules is None else rules)

    @classmethod
    def from_game(cls, game: Game, from_mover: bool = False) -> Position:
        """The open-hand position of a game in the play phase: the seats as players, the same mover and table.

        The one converter from :class:`~tutor.engine.game.Game` to the solver's
        state (a test steps both side by side and demands the same moves; a guard
        test refuses hand-written ones, tests/engine/test_one_of_each.py).
        ``from_mover``: list the players in turn order from the one to move (player 0),
        as ``ddz solve`` and the bots' search list them.

        Raises:
            InvalidPositionError: Before the play phase, or for a game that is over.
        """
        if game.landlord is None or game.is_over:
            raise InvalidPositionError("Position.from_game needs a game in the play phase")
        n, k = game.players, game.to_move if from_mover else 0
        order = [(k + i) % n for i in range(n)]
        roles = tuple(Role.LANDLORD if s == game.landlord else Role.FARMER for s in order)
        by = None if game.table_seat is None else order.index(game.table_seat)
        hands = tuple(game.hand(s) for s in order)
        return cls(hands, roles, order.index(game.to_move), game.table, by, rules=game.rules)

    @classmethod
    def from_view(cls, view: PlayerView, hidden: Mapping[int, Cards | int], from_mover: bool = False) -> Position:
        """:meth:`from_game` of ``Game.from_view(view, hidden)``: a sample of what ``view`` cannot see, solved."""
        from tutor.engine.game import Game

        return cls.from_game(Game.from_view(view, hidden), from_mover)

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def packed(self) -> tuple[int, ...]:
        return tuple(h.packed for h in self.hands)

    def side(self, player: int) -> Role:
        return self.roles[player]

    @property
    def winner(self) -> Role | None:
        """The side that has won (a hand is empty), else None."""
        for hand, role in zip(self.hands, self.roles):
            if not hand:
                return role
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def legal_moves(self) -> list[Combo | None]:
        """Every legal move of the player to move; None is pass (only when following)."""
        if self.is_over:
            return []
        hand = self.hands[self.to_move].packed
        if self.table is None:
            return list(lead_moves_packed(hand, self.rules))
        moves: list[Combo | None] = list(follow_moves_packed(hand, self.table, self.rules))
        moves.append(None)
        return moves

    def after(self, move: Combo | None) -> Position:
        """The position after the player to move plays ``move`` (None = pass)."""
        if self.is_over:
            raise IllegalPlayError("the game is over: nobody moves any more")
        n = self.players
        if move is None and self.table is None:
            raise IllegalPlayError("the leader cannot pass")
        trick = Trick(self.table, self.table_by, passes_since(self.table_by, self.to_move, n))
        after, nxt = trick.after(self.to_move, move, n)
        if move is None:
            return Position(self.hands, self.roles, nxt, after.table, after.table_seat, rules=self.rules)
        hand = self.hands[self.to_move].packed
        if not packed_contains(hand, move.cards):
            raise IllegalPlayError(f"{move.text} is not in the hand {self.hands[self.to_move]}")
        if not any(same_reading(move, r) for r in readings(move.cards, self.rules)):
            raise IllegalPlayError(f"{move.text} is not a {Kind(move.kind).label}")
        if self.table is not None and not beats(move, self.table, self.rules):
            raise IllegalPlayError(f"{move.text} does not beat {self.table.text}")
        hands = list(self.hands)
        hands[self.to_move] = Cards(hand - move.cards)
        if not hands[self.to_move]:
            return Position(tuple(hands), self.roles, self.to_move, None, None, rules=self.rules)
        return Position(tuple(hands), self.roles, nxt, after.table, after.table_seat, rules=self.rules)

    def format(self) -> str:
        """The position in the notation :meth:`parse` reads (players from index 0)."""
        return " ".join(f"{r.letter}:{h}" for h, r in zip(self.hands, self.roles))

    def __str__(self) -> str:
        text = self.format()
        if self.to_move:
            text += f" (player {self.to_move} to move)"
        if self.table is not None:
            text += f" beat {self.table.text} by {self.table_by}"
        return text


def parse_players(text: str) -> tuple[tuple[Cards, ...], tuple[Role, ...]]:
    """Hands and roles of a ``ROLE:CARDS …`` string (helper for tools and tests)."""
    pos = Position.parse(text)
    return pos.hands, pos.roles


def sides(roles: Sequence[Role]) -> tuple[int, ...]:
    """Roles as 0 (landlord) / 1 (farmer) integers, the form the search uses."""
    return tuple(0 if r is Role.LANDLORD else 1 for r in roles)

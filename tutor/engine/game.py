"""A game of Dou Di Zhu: bidding, play, the end and undo (RULES §3, §4, §7, §8).

:class:`Game` is mutable, like a chess board with ``push``/``pop``: every action
pushes a small snapshot of the state it changes, so :meth:`Game.undo` is cheap,
unlimited and exact — across a redeal and across the end of the game — and
search code can walk a game tree without copying whole games.

The OpenSpiel-shaped interface — :meth:`Game.legal_actions`, :meth:`Game.apply`,
:meth:`Game.undo`, :meth:`Game.returns`, :meth:`Game.view` — steps every kind of
action (:mod:`tutor.engine.actions`) under any :class:`Rules`: the auction is
:mod:`tutor.engine.auction`'s, the trick rule :mod:`tutor.engine.trick`'s, and
the open hand (RULES §12.2) one more action of the landlord before the first play.

Validation lives in :meth:`Game.make_bid`, :meth:`Game.play` and
:meth:`Game.play_cards` and explains itself ("pair 55 does not beat pair 77",
"you hold no 2", "cannot pass when leading").  :meth:`Game.push` is the
unchecked fast path for solvers that only ever play generated moves.

The game hides nothing from itself; what a player may know is
:meth:`Game.view`, a frozen *copy* (RULES §8).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from functools import lru_cache

from tutor.engine.actions import Action, Bid, Call, Open, Pass, Play, Rob, auction_action, auction_code
from tutor.engine.auction import Auction, IllegalBidError, Outcome, view_auction
from tutor.engine.cards import (
    Cards,
    format_packed,
    packed_contains,
    packed_count,
    packed_size,
    rank_char,
    unpack,
)
from tutor.engine.combos import (
    PASS,
    Combo,
    IllegalPlayError,
    Kind,
    beats,
    readings,
    same_reading,
    strength,
    why_not_beats,
)
from tutor.engine.deal import Deal, deal
from tutor.engine.moves import legal_moves as _legal_moves
from tutor.engine.notation import MoveText
from tutor.engine.notation import resolve as resolve_text
from tutor.engine.record import GameRecord, RecordError, ShowHand, StartPosition
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.scoring import Score, score_game, stake
from tutor.engine.trick import Turn, replay_trick, step
from tutor.engine.view import PlayerView

_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


class Phase(Enum):
    """Where the game is: the auction, the play, or finished."""

    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


class AmbiguousPlayError(ValueError):
    """Cards that read as several combinations when leading, and no kind was given.

    ``readings`` lists the candidates so a UI can ask which one was meant.
    """

    def __init__(self, message: str, readings: list[Combo]) -> None:
        super().__init__(message)
        self.readings = readings


#: Everything an action can change, in the order of ``Game._snapshot``.
#: One undo step: the values of ``Game._SNAPSHOT_FIELDS`` and the history length.
_Snapshot = tuple[tuple[object, ...], int]


class Game:
    """A game from a deal number (or a custom position), with unlimited undo.

    Attributes:
        rules: The rule set (base, bids, hand and kitty sizes, …).
        original_deal_number: The deal the game started from (before redeals);
            None for :meth:`from_hands` positions.
    """

    rules: Rules
    original_deal_number: int | None

    def __init__(self, deal_number: int, rules: Rules = STANDARD) -> None:
        """Start a game in the bidding phase (RULES §3)."""
        dealt = deal(deal_number, rules)
        self._init_empty(rules, deal_number)
        self._start_deal(dealt)

    # ------------------------------------------------------------------ set-up

    def _init_empty(self, rules: Rules, deal_number: int | None) -> None:
        self.rules = rules
        self.original_deal_number = deal_number
        self._phase = Phase.BIDDING
        self._deal_number: int | None = deal_number
        self._deal: Deal | None = None
        self._hands: tuple[int, ...] = (0,) * rules.players
        #: The card counts of the hands tuple ``_counts_of`` (kept current by _apply; recomputed after anything else).
        self._counts: tuple[int, ...] = ()
        self._counts_of: tuple[int, ...] | None = None
        self._to_move = 0
        self._landlord: int | None = None
        self._bid: int | None = None
        self._bids: tuple[tuple[int, int], ...] = ()
        self._kitty: Cards | None = None
        self._table: Combo | None = None
        self._table_seat: int | None = None
        self._passes = 0
        self._bombs = 0
        self._robs = 0
        self._opened = False
        self._winner: int | None = None
        self._history: list[Turn] = []
        self._actions: list[tuple[int, int] | Turn | ShowHand] = []
        self._undo: list[_Snapshot] = []
        #: Set by with_landlord / from_hands, so a record can rebuild the start.
        self._skipped_auction: tuple[int, int] | None = None
        self._start_position: StartPosition | None = None
        self._start_counts: tuple[int, ...] | None = None

    def _start_deal(self, dealt: Deal) -> None:
        if dealt.wild_rank >= 0:  # the deal drew the wild rank (RULES §12.3): the play reads it from the rules
            self.rules = self.rules.with_wild(dealt.wild_rank)
        self._deal = dealt
        self._deal_number = dealt.number
        self._hands = tuple(h.packed for h in dealt.hands)
        self._bids = ()
        self._to_move = dealt.first_bidder
        self._phase = Phase.BIDDING

    @classmethod
    def with_landlord(cls, deal_number: int, landlord: int, bid: int = 1, rules: Rules = STANDARD) -> Game:
        """A game from a deal with the auction skipped (arena, lessons).

        The landlord takes the kitty and leads, exactly as after an auction.
        """
        game = cls(deal_number, rules)
        _check_seat(landlord, rules, "landlord")
        _check_bid(bid, rules)
        game._skipped_auction = (landlord, bid)
        game._make_landlord(landlord, bid)
        return game

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Cards | str],
        landlord: int,
        bid: int = 1,
        kitty: Cards | str | None = None,
        to_move: int | None = None,
        history: Iterable[Turn] = (),
        rules: Rules = STANDARD,
    ) -> Game:
        """A custom position in the play phase (lessons, puzzles, the bot API).

        Args:
            hands: What each seat holds *now* (any sizes, e.g. an endgame).
            landlord: The landlord's seat.
            bid: The winning bid, for scoring.
            kitty: The revealed kitty, if the position has one.
            to_move: Whose turn it is; by default the seat after the last turn
                of ``history``, or the landlord when there is no history.
            history: Plays and passes already made; the table follows from it
                by the two-pass rule.

        Raises:
            ValueError: For the wrong number of hands, an empty hand, cards the
                deck does not hold, or a bad seat or bid.
        """
        players = rules.players
        parsed = tuple(Cards.parse(h, rules.deck) if isinstance(h, str) else h for h in hands)
        if len(parsed) != players:
            raise ValueError(f"from_hands needs {players} hands, got {len(parsed)}: {[str(h) for h in parsed]!r}")
        _check_seat(landlord, rules, "landlord")
        _check_bid(bid, rules)
        for seat, hand in enumerate(parsed):
            if not hand:
                raise ValueError(f"seat {seat} has no cards: the game would already be over")
        turns = tuple(history)
        # Counts a byte per rank (at most 3 hands + 54 plays of at most 4 cards a rank: no carry).
        played = (t.play.cards for t in turns if t.play is not None)
        wide = sum(_by_bytes(p) for p in (*(h.packed for h in parsed), *played))
        total = [(wide >> (8 * rank)) & 0xFF for rank in range(15)]
        for rank, n in enumerate(total):
            if n > rules.deck[rank]:
                raise ValueError(
                    f"the hands and history hold {n} × {rank_char(rank)!r}; the deck has {rules.deck[rank]}"
                )
        for turn in turns:
            _check_seat(turn.seat, rules, "history seat")
        the_kitty = Cards.parse(kitty, rules.deck) if isinstance(kitty, str) else kitty
        trick = replay_trick(turns, players)
        table, table_seat = trick.table, trick.table_seat
        derived = (turns[-1].seat + 1) % players if turns else None
        if to_move is None:
            to_move = derived if derived is not None else landlord
        _check_seat(to_move, rules, "to_move")

        game = cls.__new__(cls)
        game._init_empty(rules, None)
        game._deal_number = None
        game._hands = tuple(h.packed for h in parsed)
        game._landlord = landlord
        game._bid = bid
        game._kitty = the_kitty
        game._history = list(turns)
        game._table, game._table_seat = table, table_seat
        game._passes = trick.passes
        game._bombs = sum(1 for t in turns if t.play is not None and t.play.is_bomb)
        game._to_move = to_move
        game._phase = Phase.PLAYING
        # Cards held when the history began: what lets spring be judged (RULES §7).
        counts = [len(h) for h in parsed]
        for turn in turns:
            if turn.play is not None:
                counts[turn.seat] += turn.play.size
        game._start_counts = tuple(counts)
        game._start_position = StartPosition(parsed, landlord, bid, the_kitty, to_move, turns)
        return game

    @classmethod
    def at_trick(
        cls,
        hands: Sequence[Cards],
        landlord: int,
        to_move: int,
        table: Combo | None = None,
        table_seat: int | None = None,
        rules: Rules = STANDARD,
    ) -> Game:
        """A play-phase position known by its hands and the trick on the table only (a lesson's trick,
        the coach's endgame check, a trimmed puzzle candidate).

        The table's play and the passes since stand for the history (the trick
        rule then gives the same table and mover), so the position steps on as a game.

        Raises:
            ValueError: For a table without its seat, a mover the trick cannot reach, or impossible hands.
        """
        history: list[Turn] = []
        if table is not None:
            if table_seat is None or table_seat == to_move:
                raise ValueError(f"the table {table.text!r} needs the seat that played it, not the mover's")
            history.append(Turn(table_seat, table))
            history += [Turn(s % rules.players, None) for s in range(table_seat + 1, table_seat + rules.players)]
            history = history[: 1 + (to_move - table_seat - 1) % rules.players]
        return cls.from_hands(hands, landlord, 1, None, to_move, history, rules)

    @classmethod
    def from_view(cls, view: PlayerView, hidden: Mapping[int, Cards | int], *, checked: bool = True) -> Game:
        """The game ``view`` stands for, with the hands it cannot see filled in from ``hidden``.

        The one converter from what a player knows to a game that steps
        (a sample of the hidden hands, or the truth): the hands, the table and
        the history of the play, the robs and the open hand of the variants.

        ``checked=False`` is the search path (the bots' rollouts, the coach's
        play-outs): the view is a real one and ``hidden`` a sample drawn to fit
        it, so nothing is validated and the game keeps the view's facts as they
        are (its bid, a seat that ``hidden`` leaves out holds nothing) — the
        same game, built several times cheaper.

        Raises:
            ValueError: During the auction (no landlord yet) or for hands that cannot be.
        """
        if view.landlord is None:
            raise ValueError("Game.from_view needs a view of the play phase (a landlord)")
        if not checked:
            return cls._sampled(view, hidden)
        hands = [view.hand if s == view.seat else Cards(_packed(hidden[s])) for s in range(view.players)]
        game = cls.from_hands(hands, view.landlord, view.bid or 1, view.kitty, view.to_move, view.history, view.rules)
        game._bids = view.bids
        game._robs = view_auction(view).outcome(view.rules).robs if view.bids else 0
        game._opened = view.shown is not None
        return game

    @classmethod
    def _sampled(cls, view: PlayerView, hidden: Mapping[int, Cards | int]) -> Game:
        """:meth:`from_view` without the checks (``checked=False``)."""
        rules = view.rules
        game = cls.__new__(cls)
        game._init_empty(rules, None)
        game._deal_number = None
        game._hands = tuple(
            view.hand.packed if s == view.seat else _packed(hidden.get(s, 0)) for s in range(rules.players)
        )
        game._landlord = view.landlord
        game._bid = view.bid
        game._bids = view.bids
        game._kitty = view.kitty
        game._history = list(view.history)
        trick = replay_trick(view.history, rules.players)
        game._table, game._table_seat, game._passes = trick.table, trick.table_seat, trick.passes
        game._to_move = view.to_move
        game._phase = Phase.PLAYING
        game._opened = view.shown is not None
        if rules.robs and view.bids:  # only a rob auction has robs (RULES §12.1)
            game._robs = view_auction(view).outcome(rules).robs
        game._bombs = sum(1 for t in view.history if t.play is not None and t.play.is_bomb)
        return game

    # ------------------------------------------------------------ public state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def deal_number(self) -> int | None:
        """The current deal (original + number of redeals); None for custom positions."""
        return self._deal_number

    @property
    def first_bidder(self) -> int | None:
        """Who bid (or bids) first in the current deal (None for custom positions)."""
        return self._deal.first_bidder if self._deal is not None else None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hands(self) -> tuple[Cards, ...]:
        """Every seat's private hand (the game knows all; players get :meth:`view`)."""
        return tuple(Cards(h) for h in self._hands)

    @property
    def hands_packed(self) -> tuple[int, ...]:
        """The hands as packed integers (for search code)."""
        return self._hands

    def hand(self, seat: int) -> Cards:
        return Cards(self._hands[seat])

    @property
    def card_counts(self) -> tuple[int, ...]:
        hands = self._hands
        if self._counts_of is not hands:
            self._counts = tuple([packed_size(h) for h in hands])
            self._counts_of = hands
        return self._counts

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def landlord(self) -> int | None:
        return self._landlord

    @property
    def bids(self) -> tuple[tuple[int, int], ...]:
        """(seat, bid) in order for the current deal; 0 = pass."""
        return self._bids

    @property
    def kitty(self) -> Cards | None:
        """The kitty once revealed (RULES §3), else None."""
        return self._kitty

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(self._history)

    @property
    def table(self) -> Combo | None:
        """The combination to beat; None when the player to move leads."""
        return self._table

    @property
    def table_seat(self) -> int | None:
        return self._table_seat

    @property
    def bombs_played(self) -> int:
        """Bombs and rockets played so far (each doubles the cost)."""
        return self._bombs

    @property
    def winner(self) -> int | None:
        """The seat that emptied its hand first (None until the game is over)."""
        return self._winner

    @property
    def landlord_won(self) -> bool | None:
        return None if self._winner is None else self._winner == self._landlord

    @property
    def actions(self) -> tuple[tuple[int, int] | Turn | ShowHand, ...]:
        """Every action since the start: (seat, code) auction moves, then a
        :class:`ShowHand` if the landlord showed the hand, and :class:`Turn` s."""
        return tuple(self._actions)

    @property
    def robs(self) -> int:
        """Robs made in the auction (rob auction, RULES §12.1; 0 otherwise)."""
        return self._robs

    @property
    def opened(self) -> bool:
        """True once the landlord has shown the hand (RULES §12.2)."""
        return self._opened

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def winning_seats(self) -> tuple[int, ...]:
        """The seats whose side won: the landlord alone, or both farmers (RULES §4)."""
        if self._winner is None or self._landlord is None:
            return ()
        if self._winner == self._landlord:
            return (self._landlord,)
        return tuple(s for s in range(self.players) if s != self._landlord)

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the state, as one hashable tuple (for tests and caches)."""
        return (
            self._phase,
            self._deal_number,
            self._hands,
            self._to_move,
            self._landlord,
            self._bid,
            self._bids,
            self._kitty,
            self._table,
            self._table_seat,
            self._passes,
            self._bombs,
            self._robs,
            self._opened,
            self._winner,
            tuple(self._history),
        )

    # ----------------------------------------------------------------- bidding

    @property
    def bid(self) -> int | None:
        """The game's winning bid (None while bidding); :meth:`make_bid` places one."""
        return self._bid

    def auction(self) -> Auction:
        """The auction of the current deal (RULES §3 or §12.1), as :mod:`tutor.engine.auction` sees it."""
        first = self._deal.first_bidder if self._deal is not None else 0
        return Auction(first, self._bids)

    def auction_state(self) -> Outcome:
        """Where the auction stands: who speaks, who leads, the robs so far."""
        return self.auction().outcome(self.rules)

    def highest_bid(self) -> int:
        """The stake leading the auction so far: the highest bid (1 once called in a rob auction; 0 before)."""
        return self.auction_state().stake

    def legal_bids(self) -> list[int]:
        """Auction codes the player to move may choose; 0 = pass (RULES §3, §12.1)."""
        if self._phase is not Phase.BIDDING:
            return []
        return self.auction().legal(self.rules)

    def make_bid(self, amount: int) -> None:
        """Say ``amount`` (a bid, or a code of :mod:`tutor.engine.auction`; 0 = pass) for the player to move.

        Raises:
            IllegalBidError: When the bid is not allowed now, with the reason.
        """
        if self._phase is not Phase.BIDDING:
            raise IllegalBidError(f"cannot bid {amount!r}: the auction is over")
        seat = self._to_move
        auction, outcome = self.auction().after(seat, amount, self.rules)
        self._push_snapshot()
        self._bids = auction.moves
        self._robs = outcome.robs
        self._actions.append((seat, amount))
        if outcome.redeal:
            self._redeal()
        elif outcome.landlord is not None:
            assert outcome.bid is not None
            self._make_landlord(outcome.landlord, outcome.bid)
        else:
            assert outcome.to_move is not None
            self._to_move = outcome.to_move

    # ---------------------------------------------------------- the open hand

    def can_open(self) -> bool:
        """The landlord may show the hand: after the kitty, before the first play (RULES §12.2)."""
        return (
            self.rules.can_open
            and self._phase is Phase.PLAYING
            and not self._opened
            and not self._history
            and self._to_move == self._landlord
        )

    def open_hand(self) -> None:
        """The landlord shows the hand to everyone, ×2 (RULES §12.2).

        Raises:
            IllegalPlayError: When the rules or the moment do not allow it.
        """
        if not self.can_open():
            if not self.rules.can_open:
                raise IllegalPlayError("these rules have no open hand")
            raise IllegalPlayError("only the landlord may show the hand, after the kitty and before the first play")
        assert self._landlord is not None
        self._push_snapshot()
        self._opened = True
        self._actions.append(ShowHand(self._landlord))

    def _make_landlord(self, seat: int, amount: int) -> None:
        assert self._deal is not None
        self._landlord = seat
        self._bid = amount
        self._kitty = self._deal.kitty
        hands = list(self._hands)
        hands[seat] += self._deal.kitty.packed
        self._hands = tuple(hands)
        self._to_move = seat
        self._table = self._table_seat = None
        self._passes = 0
        self._phase = Phase.PLAYING

    def _redeal(self) -> None:
        """All passed: the game continues with deal number + 1 (RULES §3, §12.1)."""
        assert self._deal_number is not None
        self._start_deal(deal(self._deal_number + 1, self.rules))

    # -------------------------------------------------------------------- play

    def legal_moves(self) -> list[Combo | None]:
        """Every move the player to move may make, pass (None) last when following (RULES §4)."""
        if self._phase is not Phase.PLAYING:
            return []
        moves: list[Combo | None] = list(_legal_moves(self._hands[self._to_move], self._table, self.rules))
        if self._table is not None:
            moves.append(PASS)
        return moves

    def can_pass(self) -> bool:
        """Passing is allowed only when following (RULES §4)."""
        return self._phase is Phase.PLAYING and self._table is not None

    def play(self, combo: Combo | None) -> Combo | None:
        """Play ``combo`` (None = pass) for the player to move, after checking it.

        The reading is normalised the way the move generator lists moves: when
        following, the highest reading of those cards that beats the table
        (RULES §6); when leading, the highest main of the given kind and length.

        Returns:
            The combination as recorded (None for a pass).

        Raises:
            IllegalPlayError: With the reason ("cannot pass when leading",
                "you hold no 2", "pair 55 does not beat pair 77", …).
        """
        self._check_playing()
        if combo is None:
            if self._table is None:
                raise IllegalPlayError("cannot pass when leading")
            self._apply(None)
            return None
        if not isinstance(combo, Combo):
            raise IllegalPlayError(f"expected a Combo or None, got {combo!r}")
        self._check_in_hand(combo.cards)
        options = readings(combo.cards, self.rules)
        if not any(same_reading(combo, r) for r in options):
            listed = ", ".join(r.describe() for r in options) or "no combination"
            raise IllegalPlayError(
                f"{combo.text} is not a {Kind(combo.kind).label}×{combo.length} with main "
                f"{rank_char(combo.main)}; it reads as: {listed}"
            )
        if self._table is not None:
            if not beats(combo, self._table, self.rules):
                raise IllegalPlayError(why_not_beats(combo, self._table))
            # The highest beating reading of the kind played (RULES §6; §12.3: 7779 may beat as a trio + 1
            # or as a soft bomb, and the player chose).
            chosen = _highest(
                [r for r in options if r.kind == combo.kind and r.length == combo.length and beats(r, self._table, self.rules)]
            )
        else:
            chosen = _highest([r for r in options if r.kind == combo.kind and r.length == combo.length])
        self._apply(chosen)
        return chosen

    def pass_turn(self) -> None:
        """Pass (same as ``play(None)``)."""
        self.play(None)

    def resolve(self, cards: Cards | str, kind: Kind | str | None = None) -> Combo:
        """The combination that ``cards`` would be played as now, without playing it.

        Resolved against :meth:`legal_moves` (:func:`tutor.engine.notation.resolve`):
        following, the highest reading that beats the table; leading, the one
        reading (highest main) of ``kind``; with no kind and several kinds or
        lengths possible, :class:`AmbiguousPlayError` listing them.
        """
        self._check_playing()
        chosen_cards = Cards.parse(cards, self.rules.deck) if isinstance(cards, str) else cards
        wanted = Kind.from_label(kind) if isinstance(kind, str) else kind
        self._check_in_hand(chosen_cards.packed)
        found = [m for m in resolve_text(MoveText(chosen_cards, wanted), self.legal_moves()).options if m is not None]
        if len(found) == 1:
            return found[0]
        if found:
            found.sort(key=lambda c: (c.kind, c.length))
            listed = "; ".join(r.describe() for r in found)
            raise AmbiguousPlayError(f"{chosen_cards} can be led as: {listed} — say which kind", found)
        # Not a legal move: say why, in the player's terms.
        options = readings(chosen_cards, self.rules)
        if not options:
            raise IllegalPlayError(f"{str(chosen_cards)!r} is not a combination")
        if wanted is not None and not any(r.kind == wanted for r in options):
            listed = ", ".join(r.describe() for r in options)
            raise IllegalPlayError(f"{chosen_cards} cannot be read as {wanted.label}; it reads as: {listed}")
        assert self._table is not None  # leading, every reading of cards in hand is a legal move
        return self._explain_not_beating(options, wanted)

    def _explain_not_beating(self, options: list[Combo], wanted: Kind | None) -> Combo:
        assert self._table is not None
        shaped = [r for r in options if wanted is None or r.kind == wanted]
        beating = [r for r in shaped if beats(r, self._table, self.rules)]
        if beating:  # a reading of another kind than the generator's choice: still a legal play
            return _highest(beating)
        raise IllegalPlayError(why_not_beats(_highest(shaped), self._table))

    def play_cards(self, cards: Cards | str, kind: Kind | str | None = None) -> Combo:
        """Play a set of cards, choosing the reading as :meth:`resolve` does."""
        combo = self.resolve(cards, kind)
        self._apply(combo)
        return combo

    def push(self, combo: Combo | None) -> None:
        """Play without any check — for solvers that play generated moves only.

        Pair with :meth:`pop`.  An illegal ``combo`` corrupts the game.
        """
        self._apply(combo)

    def pop(self) -> None:
        """Take back the last action (same as :meth:`undo`)."""
        self.undo()

    def _check_playing(self) -> None:
        if self._phase is Phase.BIDDING:
            raise IllegalPlayError("cannot play yet: the auction is not finished")
        if self._phase is Phase.OVER:
            raise IllegalPlayError("cannot play: the game is over")

    def _check_in_hand(self, part: int) -> None:
        hand = self._hands[self._to_move]
        if packed_contains(hand, part):
            return
        for rank in range(15):
            need, have = packed_count(part, rank), packed_count(hand, rank)
            if need > have:
                card = rank_char(rank)
                if have == 0:
                    raise IllegalPlayError(f"cannot play {format_packed(part)}: you hold no {card}")
                raise IllegalPlayError(
                    f"cannot play {format_packed(part)}: you hold only {_NUMBER_WORDS.get(have, have)} {card}"
                )
        raise AssertionError("unreachable")  # pragma: no cover

    def _apply(self, combo: Combo | None) -> None:
        self._push_snapshot()
        seat = self._to_move
        turn = Turn(seat, combo)
        self._history.append(turn)
        self._actions.append(turn)
        self._table, self._table_seat, self._passes, to_move = step(
            self._table, self._table_seat, self._passes, seat, combo, self.rules.players
        )
        if combo is None:
            self._to_move = to_move
            return
        before = self._hands
        hands = list(before)
        hands[seat] -= combo.cards
        self._hands = tuple(hands)
        if self._counts_of is before:  # one count changes: the next view need not count every hand
            counts = list(self._counts)
            counts[seat] -= packed_size(combo.cards)
            self._counts, self._counts_of = tuple(counts), self._hands
        if combo.kind >= Kind.BOMB:  # a bomb or the rocket
            self._bombs += 1
        if hands[seat] == 0:
            self._winner = seat
            self._phase = Phase.OVER
            self._table = self._table_seat = None
        else:
            self._to_move = to_move

    # ---------------------------------------------------------------- undo

    #: The attributes an action may change; undo restores them all (the
    #: history is truncated to its old length instead of being copied).
    _SNAPSHOT_FIELDS = (
        "_phase",
        "_deal_number",
        "_deal",
        "_hands",
        "_to_move",
        "_landlord",
        "_bid",
        "_bids",
        "_kitty",
        "_table",
        "_table_seat",
        "_passes",
        "_bombs",
        "_robs",
        "_opened",
        "_winner",
    )

    def _push_snapshot(self) -> None:
        # Spelled out (the order of _SNAPSHOT_FIELDS): every search step pushes one.
        snapshot = (
            self._phase, self._deal_number, self._deal, self._hands, self._to_move, self._landlord, self._bid,
            self._bids, self._kitty, self._table, self._table_seat, self._passes, self._bombs, self._robs,
            self._opened, self._winner,
        )
        self._undo.append((snapshot, len(self._history)))

    def undo(self) -> None:
        """Take back the last action (a bid, play or pass); unlimited, to the start.

        Raises:
            ValueError: When there is nothing left to undo.
        """
        if not self._undo:
            raise ValueError("nothing to undo: the game is at its start")
        snapshot, length = self._undo.pop()
        for name, value in zip(self._SNAPSHOT_FIELDS, snapshot):
            setattr(self, name, value)
        del self._history[length:]
        self._actions.pop()
        if self._deal is not None and self._deal.wild_rank >= 0:  # undone across a redeal: its wild rank
            self.rules = self.rules.with_wild(self._deal.wild_rank)

    # ------------------------------------------------------------- scoring

    def score(self) -> Score:
        """The final score (RULES §7).

        Raises:
            ValueError: While the game is not over.
        """
        if self._winner is None or self._landlord is None or self._bid is None:
            raise ValueError("the game is not over yet: no score")
        return score_game(
            self._history,
            self._landlord,
            self._bid,
            self._winner,
            self.rules,
            self._start_counts,
            robs=self._robs,
            opened=self._opened,
        )

    def cost_so_far(self) -> int:
        """The live "Game" cell: base × bid × 2**(bombs so far), spring included once over.

        While bidding, the highest bid so far stands in for the bid (0 before any bid).
        """
        if self._phase is Phase.OVER:
            return self.score().cost
        bid = self._bid if self._bid is not None else self.highest_bid()
        return stake(bid, self._bombs, self.rules, self._robs, self._opened)

    def multiplier_so_far(self) -> int:
        """2**(bombs and rockets so far) × the robs and the open hand, plus spring/anti-spring once over."""
        if self._phase is Phase.OVER:
            return self.score().multiplier
        return stake(1, self._bombs, self.rules, self._robs, self._opened) // self.rules.base

    def factors_so_far(self) -> list[str]:
        """The named factors of the stake so far: ``["rob", "rob", "open", "bomb"]`` (RULES §7, §12)."""
        if self._phase is Phase.OVER:
            return list(self.score().factors)
        named = ["rob"] * self._robs + (["open"] if self._opened else [])
        return named + ["rocket" if t.play.kind == Kind.ROCKET else "bomb" for t in self._history if t.play is not None and t.play.is_bomb]

    # ------------------------------------------------- OpenSpiel-shaped API

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now, under the rules (pass forms included)."""
        if self._phase is Phase.BIDDING:
            return [auction_action(code, self.rules) for code in self.legal_bids()]
        if self._phase is Phase.OVER:
            return []
        plays: list[Action] = [Play(m) for m in self.legal_moves()]
        return [Open(), *plays] if self.can_open() else plays

    def apply(self, action: Action) -> None:
        """Take ``action`` for the player to move, checked (undo with :meth:`undo`).

        Raises:
            IllegalBidError, IllegalPlayError: When the action is not legal now.
        """
        if isinstance(action, Play):
            self.play(action.combo)
        elif isinstance(action, Open):
            self.open_hand()
        elif isinstance(action, (Bid, Call, Rob, Pass)):
            if self._phase is Phase.BIDDING and action != auction_action(auction_code(action), self.rules):
                raise IllegalBidError(f"{type(action).__name__.lower()} is not an action of the {self.rules.auction!r} auction")
            self.make_bid(auction_code(action))
        else:
            raise TypeError(f"not an action: {action!r}")

    def apply_recorded(self, action: tuple[int, int] | Turn | ShowHand) -> None:
        """Make one action of a :class:`GameRecord` again, checked (what :func:`replay` does for each)."""
        if isinstance(action, Turn):
            self.play(action.play)
        elif isinstance(action, ShowHand):
            self.open_hand()
        else:
            self.make_bid(action[1])

    def returns(self) -> tuple[int, ...]:
        """Each seat's score change (zeros until the game is over), as OpenSpiel's ``returns``."""
        if self._phase is not Phase.OVER:
            return (0,) * self.players
        return self.score().deltas

    # --------------------------------------------------------------- view

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (RULES §8), as a frozen copy of public facts
        (the bids, the kitty and the cards are immutable values: shared, not copied)."""
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            _check_seat(seat, self.rules, "seat")
        return PlayerView(
            seat=seat,
            hand=Cards(self._hands[seat]),
            bids=self._bids,
            landlord=self._landlord,
            kitty=self._kitty,
            history=tuple(self._history),
            card_counts=self.card_counts,
            to_move=self._to_move,
            table=self._table,
            table_seat=self._table_seat,
            bid=self._bid,
            rules=self.rules,
            shown=Cards(self._hands[self._landlord]) if self._opened and self._landlord is not None else None,
        )

    # ------------------------------------------------------------- record

    def record(self) -> GameRecord:
        """The game so far as a :class:`~tutor.engine.record.GameRecord`."""
        return GameRecord(
            deal_number=self.original_deal_number,
            actions=list(self._actions),
            rules=self.rules,
            landlord=None if self._skipped_auction is None else self._skipped_auction[0],
            bid=None if self._skipped_auction is None else self._skipped_auction[1],
            start=self._start_position,
        )

    def __repr__(self) -> str:
        where = f"deal {self._deal_number}" if self._deal_number is not None else "custom position"
        return f"<Game {where} {self._phase.value} to_move={self._to_move} landlord={self._landlord}>"


def _highest(options: list[Combo]) -> Combo:
    """The strongest reading: rocket, then bombs, then the highest main (RULES §6)."""
    return max(options, key=strength)


def _packed(cards: Cards | int) -> int:
    return cards.packed if isinstance(cards, Cards) else cards


def _check_seat(seat: int, rules: Rules, what: str) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"{what} must be a seat 0..{rules.players - 1}, got {seat!r}")


@lru_cache(maxsize=1 << 12)
def _by_bytes(packed: int) -> int:
    """A packed set with a byte per rank (sums of many sets do not carry), cached: :meth:`Game.from_view`
    checks the same plays for every sampled deal of a decision (the bots' search builds one game per sample)."""
    return sum(n << (8 * rank) for rank, n in enumerate(unpack(packed)))


def _check_bid(bid: int, rules: Rules) -> None:
    if bid not in rules.bids or isinstance(bid, bool):
        choices = ", ".join(str(b) for b in rules.bids)
        raise ValueError(f"bid must be one of {choices}, got {bid!r}")


def replay(record: GameRecord) -> Game:
    """Rebuild the game of ``record`` by making every action again, checked.

    Raises:
        RecordError: When an action is out of turn or illegal (naming its index).
    """
    if record.start is not None:
        s = record.start
        game = Game.from_hands(s.hands, s.landlord, s.bid, s.kitty, s.to_move, s.history, record.rules)
    elif record.landlord is not None:
        assert record.deal_number is not None
        game = Game.with_landlord(record.deal_number, record.landlord, record.bid or 1, record.rules)
    else:
        if record.deal_number is None:
            raise RecordError("record field 'deal_number': needed when there is no 'start' position")
        game = Game(record.deal_number, record.rules)
    for i, action in enumerate(record.actions):
        seat = action.seat if isinstance(action, (Turn, ShowHand)) else action[0]
        if seat != game.to_move:
            raise RecordError(f"record field 'actions[{i}]': seat {seat} acts but it is seat {game.to_move}'s turn")
        try:
            game.apply_recorded(action)
        except ValueError as exc:
            raise RecordError(f"record field 'actions[{i}]': {exc}") from exc
    return game

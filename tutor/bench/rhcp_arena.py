"""Our bots against RHCP-v2, the public rule bot the DouZero paper measures against (issue 33).

RHCP-v2 is the DeeCamp 2019 group 20 rule-based model (``deecamp2019-group20/RuleBasedModelV2``).  None
of its code is in this repository: the user puts a copy in a directory of their own and names it
(``--rhcp-dir``; docs/bots.md, "Against RHCP-v2", says how).  :func:`load` imports its
``rule_utils.rule_based_model.RuleBasedModel`` from there, after the directory's ``rhcp_shims.py`` when it
has one (what Python 3.11 and the unreadable compiled modules need).

The protocol is :mod:`tutor.bench.rlcard_arena`'s (DouZero's): every deck is played twice with the seats
swapped — our level as the landlord (seat 0, with the kitty) against two RHCP-v2 farmers, then RHCP-v2
as the landlord against our level as both farmers — on RLCard 1.2.0's deal of that deck when rlcard is
installed (the decks of benchmarks/rlcard_arena.py, so the figures compare), else on our own deal of that
number.  Our :class:`~tutor.engine.game.Game` referees: our bots decide from its view, RHCP-v2 decides from
what its own interface takes — its hand, the last play that stands and who made it, the cards each seat
holds (counts) and the cards not yet seen (its ``state.other_hand``: the deck less its hand and every
play) — all built from the :class:`~tutor.engine.view.PlayerView` of its seat, so it sees nothing more.

Any disagreement is an error, never a skip: RHCP-v2 passing when it leads, playing cards it does not hold
or a play our rules do not allow, or failing to read one of ours raises :class:`ProtocolError`.  One
difference of rules is translated instead, because it does not change what RHCP-v2 may answer: RULES §5
lets the single wings of a four + 2 or an airplane share a rank (``AAAAJJ``, ``33344455``), which RHCP-v2's
rules and card reader do not know; such a play of ours is shown to it with wings of distinct ranks (the
same kind, length and main: :func:`rhcp_readable`), and each such play is counted in the report.  What
beats a play depends on its kind, length and main only (RULES §6), and RHCP-v2's ``choose`` reads an
opponent's play only through them.

The card translation is exact and positional: RHCP-v2 counts a hand as 15 numbers in the order
``3 4 5 6 7 8 9 10 J Q K A 2 * $`` (its ``*``/``$``: the black and red jokers), which is our rank order
``3 … A 2 X D``; its player ids count from the landlord (0 the landlord, 1 the seat after it, 2 the one
before), ours are seats.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tutor.bench.arena import ArenaResult, DealOutcome, run_swapped
from tutor.bots import make_bot
from tutor.engine.cards import NUM_RANKS, Cards, InvalidCardsError
from tutor.engine.combos import Combo, IllegalPlayError, Kind
from tutor.engine.game import AmbiguousPlayError, Game
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView

#: How the report names RHCP-v2.
RHCP = "rhcp-v2"
#: The landlord's seat (RLCard's dealer makes seat 0 the landlord; ours follows it).
LANDLORD = 0
#: RHCP-v2 knows only the classic three-player game, the one this arena deals: its seats are the standard rules'.
SEATS = STANDARD.players
#: The module and class of RHCP-v2's rule-based player, inside its directory.
MODEL_MODULE = "rule_utils.rule_based_model"
MODEL_CLASS = "RuleBasedModel"
#: The file of shims that a reconstructed copy keeps beside RHCP-v2's own files (imported first if present).
SHIMS = "rhcp_shims"


class ProtocolError(RuntimeError):
    """RHCP-v2 and our game disagreed (a legal move, a reading, a card it does not hold)."""


class RhcpDirError(ValueError):
    """The directory named for RHCP-v2 does not hold a loadable copy of it."""


class RhcpAgent(Protocol):
    """What RHCP-v2's ``Agent`` offers and its ``RuleBasedModel.choose`` uses (game/engine.py)."""

    player_id: int
    game: Any

    def set_hand_card(self, cards: Sequence[Any]) -> None: ...

    def get_hand_card(self) -> Any: ...

    def choose(self, state: Any) -> tuple[Sequence[int], object]: ...


AgentFactory = Callable[[int], RhcpAgent]


def load(rhcp_dir: str) -> AgentFactory:
    """RHCP-v2's ``RuleBasedModel`` class, imported from ``rhcp_dir``.

    Raises:
        RhcpDirError: When the directory is missing or its copy does not import (one line, for the CLI).
    """
    path = os.path.abspath(rhcp_dir)
    if not os.path.isfile(os.path.join(path, *MODEL_MODULE.split(".")) + ".py"):
        raise RhcpDirError(f"no {MODEL_MODULE.replace('.', '/')}.py in {_short(rhcp_dir)!r}")
    if path not in sys.path:
        sys.path.insert(0, path)
    try:
        if os.path.isfile(os.path.join(path, SHIMS + ".py")):
            importlib.import_module(SHIMS)
        module = importlib.import_module(MODEL_MODULE)
        factory: AgentFactory = getattr(module, MODEL_CLASS)
    except Exception as exc:  # any failure of third-party code to import is "a broken directory"
        raise RhcpDirError(f"RHCP-v2 in {_short(rhcp_dir)!r} does not load: {type(exc).__name__}") from exc
    return factory


def _short(text: str) -> str:
    return text if len(text) <= 40 else "…" + text[-39:]


# --- the card translation, both ways ------------------------------------------------------------------

def to_rhcp(cards: Cards) -> list[int]:
    """Our cards as RHCP-v2's 15 counts (``3 … A 2 * $``: the same order as our ranks)."""
    return list(cards.counts)


def from_rhcp(move: Sequence[int]) -> Cards | None:
    """RHCP-v2's 15 counts as our cards (None for its pass, all zeros).

    Raises:
        ProtocolError: When the counts are not a set of cards of one deck.
    """
    counts = [int(n) for n in move]
    if len(counts) != NUM_RANKS:
        raise ProtocolError(f"RHCP-v2 answered {len(counts)} counts, not {NUM_RANKS}")
    try:
        cards = Cards.from_counts(counts)
    except InvalidCardsError as exc:
        raise ProtocolError(f"RHCP-v2 answered no cards: {counts!r}") from exc
    return cards if cards else None


def rhcp_readable(combo: Combo) -> Cards:
    """``combo``'s cards as RHCP-v2's reader can take them: single wings of one rank (RULES §5: ``AAAAJJ`` a
    four + 2, ``33344455`` an airplane + singles), which it rejects, become the lowest ranks outside the
    combination's core, one each; any other play is its own cards.  Kind, length and main stay.
    """
    if combo.kind == Kind.FOUR_TWO_SINGLES:
        core, per = [combo.main], 4
    elif combo.kind == Kind.AIRPLANE_SINGLES:
        core, per = list(range(combo.main - combo.length + 1, combo.main + 1)), 3
    else:
        return Cards(combo.cards)
    counts = list(Cards(combo.cards).counts)
    for rank in core:
        counts[rank] -= per
    if all(n <= 1 for n in counts):
        return Cards(combo.cards)
    wings = [rank for rank in range(NUM_RANKS) if rank not in core][: sum(counts)]
    return Cards.from_ranks([rank for rank in core for _ in range(per)] + wings)


def rhcp_id(seat: int, landlord: int) -> int:
    """RHCP-v2's player id of ``seat``: 0 the landlord, 1 the seat after it, 2 the seat before it."""
    return (seat - landlord) % SEATS


# --- what RHCP-v2's seat sees --------------------------------------------------------------------------

@dataclass(slots=True)
class RhcpState:
    """The fields of RHCP-v2's ``GameState`` (game/engine.py), built from one seat's view.

    ``other_hand`` is its name for the cards this seat has not seen (the deck less its hand and every
    play); ``last_move``/``last_pid`` the play that stands (zeros and −1 when the seat leads), as
    :func:`rhcp_readable` shows it.
    """

    hand: list[int]
    out: list[int]
    up_out: list[int]
    down_out: list[int]
    self_out: list[int]
    other_hand: list[int]
    last_move: list[int]
    last_pid: int
    last_move_: list[int]
    last_last_move_: list[int]


class _Counted:
    """Another seat as RHCP-v2's ``game.players[i]`` may see it: how many cards it holds, not which.

    ``get_hand_card()`` answers a one-number vector whose sum (all ``RuleBasedModel`` reads of another
    player) is the count; the ranks stay hidden.
    """

    def __init__(self, count: int) -> None:
        self._count = [count]

    def get_hand_card(self) -> list[int]:
        return self._count


@dataclass(slots=True)
class _Table:
    """RHCP-v2's ``agent.game``: the players by its ids, and the play that stands."""

    players: list[Any]
    last_move: list[int]
    last_pid: int


class _Rank:
    """A card as RHCP-v2's ``Agent.set_hand_card`` takes it (``rank`` 1 = 3 … 15 = the red joker)."""

    __slots__ = ("rank",)

    def __init__(self, rank: int) -> None:
        self.rank = rank


def rhcp_state(view: PlayerView) -> RhcpState:
    """RHCP-v2's ``GameState`` for the seat of ``view``."""
    assert view.landlord is not None
    seat, landlord = view.seat, view.landlord
    plays = [(turn.seat, turn.play) for turn in view.history]
    last = [to_rhcp(Cards(play.cards)) if play is not None else [0] * NUM_RANKS for _, play in plays]
    table = view.table
    return RhcpState(
        hand=to_rhcp(view.hand),
        out=to_rhcp(view.played_cards()),
        up_out=to_rhcp(view.played_by((seat - 1) % SEATS)),
        down_out=to_rhcp(view.played_by((seat + 1) % SEATS)),
        self_out=to_rhcp(view.played_by(seat)),
        other_hand=to_rhcp(view.unseen()),
        last_move=to_rhcp(rhcp_readable(table)) if table is not None else [0] * NUM_RANKS,
        last_pid=rhcp_id(view.table_seat, landlord) if table is not None and view.table_seat is not None else -1,
        last_move_=last[-1] if last else [0] * NUM_RANKS,
        last_last_move_=last[-2] if len(last) > 1 else [0] * NUM_RANKS,
    )


def rhcp_decide(agent: RhcpAgent, view: PlayerView) -> Cards | None:
    """Ask an RHCP-v2 agent for the move of ``view``'s seat; its cards, or None for a pass.

    Its hand is set through its own ``set_hand_card``; the other seats are only counts; what it prints
    (every move, in its ``choose``) is swallowed.

    Raises:
        ProtocolError: When it fails (e.g. cannot read the play on the table) or answers cards it does
            not hold.
    """
    assert view.landlord is not None
    agent.set_hand_card([_Rank(rank + 1) for rank in view.hand.ranks()])
    own = rhcp_id(view.seat, view.landlord)
    players: list[Any] = [None] * SEATS
    for seat in range(SEATS):
        players[rhcp_id(seat, view.landlord)] = agent if seat == view.seat else _Counted(view.card_counts[seat])
    state = rhcp_state(view)
    agent.player_id = own
    agent.game = _Table(players, state.last_move, state.last_pid)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            move, _ = agent.choose(state)
    except Exception as exc:  # third-party code: any failure is a disagreement to report
        on = f" on {view.table.text}" if view.table is not None else " leading"
        raise ProtocolError(f"RHCP-v2 failed{on} with {view.hand}: {type(exc).__name__}: {exc}") from exc
    cards = from_rhcp(move)
    if cards is not None and not cards.issubset(view.hand):
        raise ProtocolError(f"RHCP-v2 played {cards}, which it does not hold ({view.hand})")
    return cards


def as_combo(game: Game, cards: Cards | None) -> Combo | None:
    """RHCP-v2's answer as our combination, checked by our rules.

    Following, the reading that beats the table; leading, a play our notation finds ambiguous is read as
    RHCP-v2 means it: a reading its rules know (``333444555666`` is four trios to it, not three with the
    single wings ``333``), then the highest main.

    Raises:
        ProtocolError: For a pass when leading, or cards our rules do not allow here.
    """
    if cards is None:
        if not game.can_pass():
            raise ProtocolError("RHCP-v2 passed when it leads")
        return None
    try:
        return game.resolve(cards)
    except AmbiguousPlayError as exc:
        return max(exc.readings, key=lambda c: (rhcp_readable(c).packed == c.cards, c.main, c.kind))
    except IllegalPlayError as exc:
        raise ProtocolError(f"RHCP-v2's play {cards} is not legal here: {exc}") from exc


# --- the games -----------------------------------------------------------------------------------------

def rlcard_available() -> bool:
    """Is rlcard installed (for its deal of each deck)?  Its tables loaded as :func:`rlcard_arena.available` does."""
    from tutor.bench import rlcard_arena

    return rlcard_arena.available()


def deal(deck: int, source: str) -> Game:
    """The game of deck ``deck``: RLCard 1.2.0's deal (``source="rlcard"``) or ours (``"ours"``), landlord 0."""
    if source == "rlcard":
        import rlcard

        from tutor.bench.rlcard_arena import _load_tables

        _load_tables(rlcard.__path__[0])
        from rlcard.games.doudizhu.utils import cards2str

        env: Any = rlcard.make("doudizhu", config={"seed": deck})
        env.reset()
        players = env.game.players
        hands = [Cards.parse(cards2str(p.current_hand)) for p in players]
        return Game.from_hands(hands, LANDLORD, kitty=Cards.parse(env.game.round.seen_cards))
    if source == "ours":
        return Game.with_landlord(deck, LANDLORD)
    raise ValueError(f"unknown deal source {source!r}")


def play_game(
    deck: int,
    level: str,
    ours_landlord: bool,
    model: AgentFactory,
    source: str = "rlcard",
    times: list[float] | None = None,
    games: list[Game] | None = None,
    translated: list[str] | None = None,
) -> tuple[bool, int]:
    """One game of ``deck``: (did our side win, bombs and rockets played).

    ``times`` receives the CPU seconds of each of our decisions; ``games`` the finished game;
    ``translated`` each play of ours that RHCP-v2 had to be shown with other wings (:func:`rhcp_readable`).
    """
    game = deal(deck, source)
    ours = [(seat == LANDLORD) == ours_landlord for seat in range(SEATS)]
    bots = [make_bot(level, deck) if ours[seat] else None for seat in range(SEATS)]
    agents = {seat: model(rhcp_id(seat, LANDLORD)) for seat in range(SEATS) if not ours[seat]}
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        bot = bots[seat]
        if bot is not None:
            start = time.process_time()
            move = bot.play(view)
            if times is not None:
                times.append(time.process_time() - start)
        else:
            if translated is not None and view.table is not None and rhcp_readable(view.table).packed != view.table.cards:
                translated.append(f"deck {deck}: {view.table.text}")
            try:
                move = as_combo(game, rhcp_decide(agents[seat], view))
            except ProtocolError as exc:
                raise ProtocolError(f"deck {deck}, seat {seat}: {exc}") from exc
        game.play(move)
    if games is not None:
        games.append(game)
    assert game.winner is not None
    return (game.winner == LANDLORD) == ours_landlord, game.bombs_played


def run(
    level: str,
    decks: int,
    model: AgentFactory,
    seed: int = 0,
    source: str = "rlcard",
    progress: Callable[[DealOutcome], None] | None = None,
    translated: list[str] | None = None,
) -> ArenaResult:
    """``decks`` decks (``seed`` … ``seed + decks − 1``), each played with the seats swapped.

    ``progress`` receives each deck's outcome as it ends (a long run's partial figures); ``translated``
    the plays of ours shown to RHCP-v2 with other wings.

    Raises:
        ValueError: For an unknown level or fewer than one deck.
        ProtocolError: When RHCP-v2 and our game disagree.
    """
    def play(deck: int, ours_landlord: bool, times: list[float]) -> tuple[bool, int]:
        return play_game(deck, level, ours_landlord, model, source, times, translated=translated)

    return run_swapped(level, RHCP, decks, seed, play, progress)

"""A lesson's position as the engine's :class:`~tutor.engine.game.Game`: the one play state.

A lesson shows a trick — your hand, often only the others' card counts, the
combination on the table — and the runner and the validator step it with the
learner's move and the scripted or solver replies.  They step the engine's
game (``apply(Play(move))``): the turn order, the table and the end are the
engine's (RULES §4), never counted here.

The game needs every hand.  A hand the lesson does not give is a *stand-in*:
the cards the lesson's script makes that seat play, then cards nobody is
shown, up to the count the lesson states (one card more than its plays when
it states none, so a stand-in never runs out by accident).  Nothing the
learner sees reads a stand-in: :func:`shown_hands` and :func:`shown_counts`
give only what the lesson gives, and the solver refuses a position with one
(:func:`solver_position`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tutor.engine.actions import Play
from tutor.engine.cards import Cards, packed_contains, unpack
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.lessons.model import SEATS, YOU, Setup
from tutor.lessons.moves import MoveSpec, illegal_reason, resolve
from tutor.solver import Position

Move = Combo | None


def setup_game(setup: Setup, plays: Mapping[int, int] | None = None) -> Game:
    """The engine game of a lesson position, the player to move first.

    Args:
        plays: For a seat whose hand the lesson does not give, the cards (packed)
            the lesson makes it play: its stand-in holds them.

    Raises:
        ValueError: For a position the engine refuses (a table without its seat,
            cards the deck does not hold).
    """
    plays = plays or {}
    rules = setup.rules
    pool = rules.deck_packed - setup.played().packed - (setup.gone.packed if setup.gone is not None else 0)
    for seat, hand in setup.hands.items():
        pool -= hand.packed
    for seat, cards in plays.items():
        if seat not in setup.hands:
            pool -= cards
    hands: list[Cards] = []
    for seat in range(rules.players):
        if seat in setup.hands:
            hands.append(setup.hands[seat])
            continue
        own = plays.get(seat, 0)
        count, held = setup.count(seat), len(Cards(own))
        padding, pool = _lowest(pool, max((count if count is not None else held + 1) - held, 0))
        hands.append(Cards(own + padding))
    # A lesson without a landlord (the combinations lessons) plays no game to its end for the
    # score: the mover stands in as the game's landlord, which nothing the lesson shows reads.
    landlord = setup.landlord if setup.landlord is not None else setup.to_move
    return Game.at_trick(hands, landlord, setup.to_move, setup.table, setup.table_by, setup.rules)


def _lowest(pool: int, n: int) -> tuple[int, int]:
    """The ``n`` lowest cards of ``pool`` (packed) and what is left (all of it if the pool is short)."""
    taken: list[int] = []
    for rank, have in enumerate(unpack(max(pool, 0))):
        k = min(have, n - len(taken))
        taken += [rank] * k
        if len(taken) == n:
            break
    part = Cards.from_ranks(taken).packed
    return part, (pool - part if packed_contains(pool, part) else pool)


def shown_hands(setup: Setup, game: Game) -> tuple[Cards | None, ...]:
    """The hands as the lesson shows them now (None where it gives none: never a stand-in)."""
    return tuple(game.hand(s) if s in setup.hands else None for s in range(game.players))


def shown_counts(setup: Setup, game: Game) -> tuple[int | None, ...]:
    """The card counts the lesson gives (by hand or stated), as they are now; None where it gives none."""
    return tuple(game.card_counts[s] if setup.count(s) is not None else None for s in range(game.players))


def solver_position(setup: Setup, game: Game | None = None) -> Position:
    """The open-hand solver position of ``game`` (the setup's start by default): every hand must be given.

    Raises:
        ValueError: When the lesson does not give every hand (the game holds stand-ins) or no landlord.
    """
    if not setup.fully_known:
        raise ValueError("the solver needs the landlord and every hand of the position")
    return Position.from_game(game if game is not None else setup_game(setup))


def you_won(setup: Setup, game: Game) -> bool:
    """The learner's side emptied a hand first (the learner alone when the lesson names no landlord)."""
    out = game.winner
    if out is None:
        return False
    if setup.landlord is None:
        return out == YOU
    return (out == setup.landlord) == (YOU == setup.landlord)


@dataclass(frozen=True)
class ScriptFault:
    """Why a scripted reply cannot be played: ``index`` of the reply, ``kind`` ``over``/``own_turn``/``illegal``."""

    index: int
    kind: str
    seat: int
    reason: str = ""


@dataclass(frozen=True)
class Script:
    """The game after the learner's move and the scripted replies, the replies as played, or the fault."""

    game: Game
    replies: tuple[tuple[int, Move], ...]
    fault: ScriptFault | None = None


def play_script(setup: Setup, move: Move, replies: Sequence[MoveSpec]) -> Script:
    """The learner plays ``move``, then the next seats play ``replies`` in the engine's turn order.

    A stand-in hand holds what its seat is scripted to play: the game is
    rebuilt from the setup with each reply's cards in the stand-in before it is
    replayed (a lesson's script is a handful of moves).
    """
    plays: dict[int, int] = {}
    done: list[tuple[int, Move]] = []
    while True:
        try:
            game = setup_game(setup, plays)
        except ValueError as error:  # the script's cards are not in the deck beside the others
            if not done:
                raise
            seat = done[-1][0]
            return Script(setup_game(setup), tuple(done), ScriptFault(len(done) - 1, "illegal", seat, str(error)))
        game.apply(Play(move))
        for _, played in done:
            game.apply(Play(played))
        i = len(done)
        if i == len(replies):
            return Script(game, tuple(done))
        spec = replies[i]
        seat = game.to_move
        if game.is_over:
            return Script(game, tuple(done), ScriptFault(i, "over", seat))
        if seat == YOU:
            return Script(game, tuple(done), ScriptFault(i, "own_turn", seat))
        hand = game.hand(seat) if seat in setup.hands else None
        reason = illegal_reason(hand, game.table, spec)
        if reason is None and hand is None and spec.cards is not None and setup.count(seat) is not None \
                and len(spec.cards) > game.card_counts[seat]:
            reason = f"{SEATS[seat]} holds only {game.card_counts[seat]} cards"
        if reason is not None:
            return Script(game, tuple(done), ScriptFault(i, "illegal", seat, reason))
        played = resolve(hand, game.table, spec)
        done.append((seat, played))
        if played is not None and seat not in setup.hands:
            plays[seat] = plays.get(seat, 0) + played.cards

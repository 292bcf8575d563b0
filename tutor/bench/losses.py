"""The deciding moment of a lost game, found after the game by the exact solver (issue 33).

The hard bot decides from its view; here, once the game is over, every hand is
open.  A lost landlord game is replayed from its start: at each landlord
decision with few enough cards in play, the exact solver says whether the
landlord still had a forced win and whether the move it played kept it.  With
all hands open a won position stays won until its owner errs (the other side's
moves cannot take a forced win away), so the first won position left by a
losing move is *the* deciding moment.  A loss with no such move inside the
horizon was already lost when the solver first saw it ("lost earlier"), or
the node budget never decided ("unknown").

benchmarks/hard_losses.py prints a table of these moments over many games, and compares the landlord's won
and lost decks by the hand it was dealt (:func:`strength`) and by when it led for the last time
(:func:`last_lead`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.cards import BIG_JOKER, NUM_RANKS, R2, SMALL_JOKER, Cards, packed_size
from tutor.engine.game import Game
from tutor.solver import Position, Solver

#: Verdicts of :func:`deciding_moment`.
BLUNDER, EARLIER, UNKNOWN = "blunder", "lost earlier", "unknown"


@dataclass(frozen=True, slots=True)
class Moment:
    """The deciding moment of one lost landlord game."""

    deck: int
    #: :data:`BLUNDER` (a won position left by a losing move), :data:`EARLIER` or :data:`UNKNOWN`.
    verdict: str
    #: "lead" or "follow" (blunders only).
    decision: str = ""
    #: The kind of the combination played, or "pass" (blunders only).
    kind: str = ""
    move: str = ""
    #: Up to four winning moves instead.
    winning: str = ""
    #: The trick (1 = the first lead) of the blunder, or of the first decision the solver saw lost.
    trick: int = 0
    landlord_cards: int = 0
    cards_in_play: int = 0


def start_of(game: Game) -> Game:
    """A fresh game at the start of ``game``'s play phase (the hands as dealt, the kitty taken)."""
    hands = list(game.hands_packed)
    for turn in game.history:
        if turn.play is not None:
            hands[turn.seat] += turn.play.cards
    if game.landlord is None:
        raise ValueError("the game has no landlord: nothing was played")
    return Game.from_hands([Cards(h) for h in hands], game.landlord, kitty=game.kitty, rules=game.rules)


def deciding_moment(game: Game, deck: int, horizon: int, nodes: int) -> Moment:
    """Replay ``game`` (a finished landlord loss) and find the landlord's first losing move from a won position.

    Only landlord decisions with at most ``horizon`` cards in play and more than one legal move are solved,
    each with at most ``nodes`` solver nodes.
    """
    replay = start_of(game)
    trick = 0
    decided = False
    for turn in game.history:
        if replay.table is None:
            trick += 1
        in_play = sum(replay.card_counts)
        if turn.seat == replay.landlord and in_play <= horizon and len(replay.legal_moves()) > 1:
            position = Position.from_game(replay, from_mover=True)
            result = Solver(max_nodes=nodes, rules=replay.rules).solve(position, "win", all_moves=True)
            if result.complete:
                decided = True
                left = replay.card_counts[turn.seat]
                if not result.mover_wins:
                    return Moment(deck, EARLIER, trick=trick, landlord_cards=left, cards_in_play=in_play)
                if turn.play not in result.winning_moves:
                    move = turn.play
                    return Moment(
                        deck,
                        BLUNDER,
                        "lead" if replay.table is None else "follow",
                        "pass" if move is None else move.kind.name.lower(),
                        "pass" if move is None else move.text,
                        " ".join("pass" if m is None else m.text for m in result.winning_moves[:4]),
                        trick,
                        left,
                        in_play,
                    )
        replay.play(turn.play)
    return Moment(deck, EARLIER if decided else UNKNOWN)


@dataclass(frozen=True, slots=True)
class Strength:
    """The landlord's hand as dealt (the kitty taken): what won and lost decks are compared by."""

    #: Plays in the planner's split of the 20 cards (:func:`tutor.bots.planner.plan_packed`): fewer is stronger.
    plays: int
    #: Bombs, the rocket counted as one.
    bombs: int
    #: Cards above the ace (2s and jokers): the cards that take the lead back.
    high: int
    #: The planner's score of the split.
    score: float


def strength(game: Game) -> Strength:
    """The landlord's hand at the start of ``game``'s play (see :class:`Strength`)."""
    from tutor.bots.planner import plan_packed

    start = start_of(game)
    assert start.landlord is not None
    hand = start.hands_packed[start.landlord]
    counts = [(hand >> (4 * r)) & 0xF for r in range(NUM_RANKS)]
    rocket = counts[SMALL_JOKER] and counts[BIG_JOKER]
    plan = plan_packed(hand, game.rules.decks)
    return Strength(
        plan.plays,
        sum(1 for c in counts if c == 4) + (1 if rocket else 0),
        counts[R2] + counts[SMALL_JOKER] + counts[BIG_JOKER],
        plan.score,
    )


@dataclass(frozen=True, slots=True)
class LastLead:
    """When the landlord led for the last time in a game."""

    #: The trick it led last (1 = the first lead).
    trick: int
    #: The tricks in the whole game.
    tricks: int
    #: The landlord's cards left just after that lead.
    cards_left: int


def last_lead(game: Game) -> LastLead:
    """The landlord's last lead in ``game``: in a lost game, the trick after which it never had the lead again."""
    replay = start_of(game)
    trick = last = left = 0
    for turn in game.history:
        if replay.table is None:
            trick += 1
            if turn.seat == replay.landlord and turn.play is not None:
                last = trick
                left = replay.card_counts[turn.seat] - packed_size(turn.play.cards)
        replay.play(turn.play)
    return LastLead(last, trick, left)

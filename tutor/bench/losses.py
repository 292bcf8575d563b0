"""The deciding moment of a lost game, found after the game by the exact solver (issue 33).

The hard bot decides from its view; here, once the game is over, every hand is
open.  A lost game is replayed from its start: at each decision of the losing
side (the landlord, or either farmer: the farmers win or lose as a team) with
few enough cards in play, the exact solver says whether that side still had a
forced win and whether the move played kept it.  With all hands open a won
position stays won until its owner errs (the other side's moves cannot take a
forced win away; for the farmers, the partner's moves are the owner's too), so
the first won position left by a losing move is *the* deciding moment.  A loss with no such move inside the
horizon was already lost when the solver first saw it ("lost earlier"), or
the node budget never decided ("unknown").

benchmarks/hard_losses.py prints a table of these moments over many games, and compares the landlord's won
and lost decks by the hand it was dealt (:func:`strength`) and by when it led for the last time
(:func:`last_lead`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tutor.engine.cards import BIG_JOKER, NUM_RANKS, R2, SMALL_JOKER, Cards, packed_size
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.view import PlayerView
from tutor.solver import Position, Solver

#: Verdicts of :func:`deciding_moment`.
BLUNDER, EARLIER, UNKNOWN = "blunder", "lost earlier", "unknown"
#: The sides whose losses :func:`deciding_moment` judges.
SIDES = ("landlord", "farmers")
#: Which farmer made the move: the one who plays right after the landlord, or the one just before it.
AFTER, BEFORE = "after", "before"


@dataclass(frozen=True, slots=True)
class Moment:
    """The deciding moment of one lost game (the landlord's, or the farmers')."""

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
    #: The farmers' losses: which farmer erred (:data:`AFTER` or :data:`BEFORE` the landlord), and its cards left.
    farmer: str = ""
    farmer_cards: int = 0
    #: The index in the game's history of the blunder (blunders only): where to rebuild the decision's view.
    turn: int = -1


def farmer_of(seat: int, landlord: int, players: int = 3) -> str:
    """:data:`AFTER` for the farmer who plays right after the landlord, else :data:`BEFORE`."""
    return AFTER if seat == (landlord + 1) % players else BEFORE


def start_of(game: Game) -> Game:
    """A fresh game at the start of ``game``'s play phase (the hands as dealt, the kitty taken)."""
    hands = list(game.hands_packed)
    for turn in game.history:
        if turn.play is not None:
            hands[turn.seat] += turn.play.cards
    if game.landlord is None:
        raise ValueError("the game has no landlord: nothing was played")
    return Game.from_hands([Cards(h) for h in hands], game.landlord, kitty=game.kitty, rules=game.rules)


def replay_to(game: Game, turn: int) -> Game:
    """``game`` from its play phase's start up to (not including) the ``turn``-th move of its history."""
    replay = start_of(game)
    for played in game.history[:turn]:
        replay.play(played.play)
    return replay


def winning_moves(game: Game, nodes: int) -> list[Combo | None] | None:
    """Every winning move of the side to move in ``game`` with all hands open (None: not decided in ``nodes``)."""
    result = Solver(max_nodes=nodes, rules=game.rules).solve(Position.from_game(game, from_mover=True), "win",
                                                             all_moves=True)
    if not result.complete:
        return None
    return list(result.winning_moves) if result.mover_wins else []


def deciding_moment(game: Game, deck: int, horizon: int, nodes: int, side: str = "landlord") -> Moment:
    """Replay ``game`` (a finished loss of ``side``) and find that side's first losing move from a won position.

    Only decisions of ``side`` ("landlord", or "farmers": either farmer, the team's win counted) with at most
    ``horizon`` cards in play and more than one legal move are solved, each with at most ``nodes`` solver nodes.
    """
    if side not in SIDES:
        raise ValueError(f"no side {side[:40]!r}: {' or '.join(SIDES)}")
    replay = start_of(game)
    trick = 0
    decided = False
    for index, turn in enumerate(game.history):
        if replay.table is None:
            trick += 1
        in_play = sum(replay.card_counts)
        ours = (turn.seat == replay.landlord) == (side == "landlord")
        if ours and in_play <= horizon and len(replay.legal_moves()) > 1:
            winning = winning_moves(replay, nodes)
            if winning is not None:
                decided = True
                assert replay.landlord is not None
                left = replay.card_counts[replay.landlord]
                farmer = "" if side == "landlord" else farmer_of(turn.seat, replay.landlord, len(replay.card_counts))
                own = replay.card_counts[turn.seat] if farmer else 0
                if not winning:
                    return Moment(deck, EARLIER, trick=trick, landlord_cards=left, cards_in_play=in_play)
                if turn.play not in winning:
                    move = turn.play
                    return Moment(
                        deck,
                        BLUNDER,
                        "lead" if replay.table is None else "follow",
                        "pass" if move is None else move.kind.name.lower(),
                        "pass" if move is None else move.text,
                        " ".join("pass" if m is None else m.text for m in winning[:4]),
                        trick,
                        left,
                        in_play,
                        farmer,
                        own,
                        index,
                    )
        replay.play(turn.play)
    return Moment(deck, EARLIER if decided else UNKNOWN)


def redecided(game: Game, moment: Moment, decide: Callable[[PlayerView], Combo | None], nodes: int) -> bool | None:
    """At the blunder ``moment`` of ``game``: does ``decide`` (a bot's ``play``, given the erring seat's view
    rebuilt there) play one of the winning moves the solver finds with open hands in ``nodes`` nodes?

    None when ``moment`` is not a blunder or the solver does not decide.  How a setting is judged on the
    decisions that lost today's games (benchmarks/hard_losses.py ``--redecide``), without playing a deck again:
    only the bot decides from its view; the open hands only judge.
    """
    if moment.verdict != BLUNDER or moment.turn < 0:
        return None
    replay = replay_to(game, moment.turn)
    winning = winning_moves(replay, nodes)
    if winning is None:
        return None
    return decide(replay.view(replay.to_move)) in winning


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

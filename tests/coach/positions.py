"""Positions for the coach's tests: games with known hidden hands, seen from seat 0."""

from __future__ import annotations

import random

from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.moves import legal_moves
from tutor.engine.view import Turn
from tutor.solver import table_reading


def _single(rank: int) -> Combo:
    return table_reading(Cards.from_ranks([rank]))


def dump_history(discards: dict[int, list[int]], then: int) -> list[Turn]:
    """Each seat plays its discards as singles, one trick per card, ``then`` winning the last trick.

    Only the count matters to the coach (a card counter), so the tricks are
    each one card and two passes; ``then`` leads next.
    """
    history: list[Turn] = []
    order = [(s, r) for s in range(3) if s != then for r in discards.get(s, [])]
    order += [(then, r) for r in discards.get(then, [])]
    for seat, rank in order:
        history.append(Turn(seat, _single(rank)))
        history.extend(Turn((seat + k) % 3, None) for k in (1, 2))
    return history


def determined(seed: int) -> tuple[Game, int]:
    """A random small position in which seat 0's view determines every hidden hand.

    Seat 0 is a farmer; the landlord holds only kitty cards it has not played
    (everyone saw them), and every other card has been played, so the
    partner holds exactly what is left.  Returns the game and the landlord.
    """
    rng = random.Random(seed)
    while True:
        deck = Cards(FULL_DECK.packed).ranks()
        rng.shuffle(deck)
        landlord = rng.choice((1, 2))
        partner = 3 - landlord
        sizes = {0: rng.randint(1, 6), landlord: rng.randint(1, 3), partner: rng.randint(1, 6)}
        hands: dict[int, list[int]] = {}
        pos = 0
        for seat in (0, landlord, partner):
            hands[seat] = sorted(deck[pos : pos + sizes[seat]])
            pos += sizes[seat]
        rest = deck[pos:]
        # The kitty: the landlord's hand plus cards it played, of ranks it does not hold.
        filler = [r for r in rest if r not in hands[landlord]][: 3 - sizes[landlord]]
        if len(filler) < 3 - sizes[landlord]:
            continue
        for r in filler:
            rest.remove(r)
        kitty = Cards.from_ranks(hands[landlord] + filler)
        discards = {landlord: filler, 0: rest[: len(rest) // 2], partner: rest[len(rest) // 2 :]}
        if not discards[0]:
            continue
        history = dump_history(discards, 0)
        # Half the time the seat before seat 0 (seat 2) leads first, so seat 0 must answer.
        if rng.random() < 0.5 and len(hands[2]) > 1:
            lead = rng.choice(legal_moves(Cards.from_ranks(hands[2])))
            if lead.size < len(hands[2]):
                history = dump_history(discards, 2)
                history.append(Turn(2, lead))
                hands[2] = Cards(Cards.from_ranks(hands[2]).packed - lead.cards).ranks()
        game = Game.from_hands(
            [Cards.from_ranks(hands[s]) for s in range(3)],
            landlord,
            1,
            kitty,
            history=history,
        )
        if game.to_move != 0:
            continue
        return game, landlord


def puzzle_game(players: str, table: str | None = None, table_by: int | None = None) -> Game:
    """A puzzle's open-hand position as a game seen by the player to move (seat 0, listed first).

    Every card not in a hand or on the table has been played (a history of
    singles), so the learner counts exactly the cards the puzzle leaves out.
    When the learner is a farmer and the landlord holds at most three cards,
    those are the landlord's unplayed kitty cards (the rest of the kitty is
    played), so the view determines every hidden hand.
    """
    from tutor.solver import Position, Role

    pos = Position.parse(players, table, table_by)
    hands = list(pos.hands)
    landlord = next(i for i, r in enumerate(pos.roles) if r is Role.LANDLORD)
    used = sum(h.packed for h in hands) + (pos.table.cards if pos.table is not None else 0)
    gone = Cards(FULL_DECK.packed - used).ranks()
    kitty = None
    discards: dict[int, list[int]] = {0: [], 1: [], 2: []}
    held = hands[landlord].ranks()
    if landlord != 0 and len(held) <= 3:
        unseen = set(hands[1].ranks() + hands[2].ranks())
        filler = [r for r in gone if r not in unseen][: 3 - len(held)]
        for r in filler:
            gone.remove(r)
        kitty = Cards.from_ranks(held + filler)
        discards[landlord] = filler
    others = [s for s in range(3) if kitty is None or s != landlord]
    for k, r in enumerate(gone):
        discards[others[k % len(others)]].append(r)
    by = pos.table_by
    if pos.table is None:
        history = dump_history(discards, 0)
    elif by == 2:
        history = [*dump_history(discards, 2), Turn(2, pos.table)]
    else:
        history = [*dump_history(discards, 1), Turn(1, pos.table), Turn(2, None)]
    return Game.from_hands(hands, landlord, 1, kitty, history=history)

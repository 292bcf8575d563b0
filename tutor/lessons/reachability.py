"""Proving that a lesson position can arise in a real game (issue 21), of three seats or four (RULES §12.4).

A position a lesson shows is a *claim*: "a game can come to this".  Counting
cards is not enough — a farmer holding 8 cards while the landlord makes his
very first lead is within every hand size and still impossible, because the
landlord leads first (RULES §3) and nobody can shed a card before that.  So
this module does not look for reasons to refuse; it builds a **witness**: a
whole deal (17, 17 and the landlord's 20 cards with the face-up kitty among
them; with four players 25 each and the landlord's 33: the lesson's rules say), an auction the landlord wins with the position's bid, and every play
from the first lead to the position, and then replays it move by move through
:class:`tutor.engine.game.Game` — the one stepping game state every other part
uses.  A position is *proven reachable* when the replay ends exactly there: the
same hands, the same card counts, the same player to move, the same play to
beat.

What the witness may choose is what the lesson leaves open: the cards of the
hands it does not show, and — unless ``history_complete`` says the history is
the whole game — the tricks played before its history.  Those earlier tricks
are made of single cards (one per play, each beating the last), planned by a
small search over who holds the lead and how many cards each seat still has to
shed.  A seat that must lead (or answer in a trick it must have won) has to
have played a card before, so a witness exists exactly when the lead can be
handed round that way; when the search finds none, the position is reported
with the reason the lead could not reach its owner.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from tutor.engine.cards import NUM_RANKS, Cards, rank_char
from tutor.engine.combos import Combo, readings
from tutor.engine.game import Game
from tutor.engine.trick import Trick
from tutor.engine.view import Turn
from tutor.lessons.model import Setup

#: A trick of the prefix: who plays, in order (each a single higher than the one before).
Shape = tuple[int, ...]
#: Marks of the prefix's last trick when it is still open at the lesson's first turn: the lesson's
#: turns start with a pass (``OPEN``), or with a single that answers the prefix's last one (``ANSWERED``).
OPEN, ANSWERED = -1, -2


@dataclass(frozen=True)
class Witness:
    """A game that reaches a lesson position: the deal and every turn up to it."""

    hands: tuple[Cards, ...]
    kitty: Cards
    turns: tuple[Turn, ...]


class Unreachable(ValueError):
    """No game reaches the position; the message says why (one line)."""


def _single(rank: int) -> Combo:
    return next(r for r in readings(Cards.from_ranks([rank])))


def _shapes(leader: int, players: int) -> list[tuple[Shape, int]]:
    """Tricks of singles led by ``leader`` at a table of ``players``: (who plays, in order; who leads next).

    The lead alone, one other seat beating it, two others beating it in turn (in seat order), and one
    other seat answering with the leader beating that — for three seats exactly the six tricks of a
    two-opponent table."""
    others = [(leader + k) % players for k in range(1, players)]
    return [
        ((leader,), leader),  # a lead the others pass
        *(((leader, a), a) for a in others),  # one seat beats it
        *(((leader, a, b), b) for i, a in enumerate(others) for b in others[i + 1:]),  # two beat it in turn
        *(((leader, a, leader), leader) for a in others),  # a seat answers, the leader beats that
    ]


@lru_cache(maxsize=4096)
def _plan(leader: int, left: tuple[int, ...], goal: int) -> tuple[Shape, ...] | None:
    """Closed tricks that shed exactly ``left`` cards per seat (one count a seat) and end with ``goal`` to lead."""
    if not any(left):
        return () if leader == goal else None
    for shape, winner in _shapes(leader, len(left)):
        need = [shape.count(s) for s in range(len(left))]
        if any(n > have for n, have in zip(need, left)):
            continue
        rest = _plan(winner, tuple(have - n for have, n in zip(left, need)), goal)
        if rest is not None:
            return (shape, *rest)
    return None


def _suffix(setup: Setup) -> list[Turn]:
    """The turns the lesson gives: its history, then the play to beat and the passes after it."""
    turns = list(setup.history)
    if setup.table is not None and setup.table_by is not None and not setup._table_in_history():
        turns.append(Turn(setup.table_by, setup.table))
        players = setup.rules.players
        seat = (setup.table_by + 1) % players
        while seat != setup.to_move:
            turns.append(Turn(seat, None))
            seat = (seat + 1) % players
    return turns


def _counts(cards: Cards) -> list[int]:
    return list(cards.counts)


def build_witness(setup: Setup) -> Witness:
    """A whole game that reaches ``setup`` (see the module docstring).

    Raises:
        Unreachable: When no such game exists (or none of the kind this search builds).
    """
    landlord = setup.landlord
    if landlord is None:
        raise Unreachable("a position in the play needs a landlord")
    rules = setup.rules
    seats, names = range(rules.players), rules.seat_layout
    held = [setup.count(s) for s in seats]
    if any(h is None for h in held):
        missing = ", ".join(names[s] for s in seats if held[s] is None)
        raise Unreachable(f"give the cards or a count for {missing}: a real table has them")
    suffix = _suffix(setup)
    dealt = [rules.hand_size + (rules.kitty_size if s == landlord else 0) for s in seats]
    shown = [_counts(setup.hands[s]) if s in setup.hands else [0] * NUM_RANKS for s in seats]
    later = [[0] * NUM_RANKS for _ in seats]
    for turn in suffix:
        if turn.play is not None:
            for r, n in enumerate(turn.play.as_cards().counts):
                later[turn.seat][r] += n
    shed = [dealt[s] - int(held[s] or 0) - sum(later[s]) for s in seats]
    for s in seats:
        if shed[s] < 0:
            raise Unreachable(f"{names[s]} holds and plays more cards than are dealt ({dealt[s]})")
    if setup.history_complete and any(shed):
        raise Unreachable("with the whole history given, every card dealt must be in a hand or the history")
    pool = list(rules.deck)
    for part in (*shown, *later):
        for r, n in enumerate(part):
            pool[r] -= n
    if any(n < 0 for n in pool):
        raise Unreachable("more cards of a rank than the deck holds")
    # The kitty is part of the landlord's 20 (or 33) cards: what the lesson does not show him
    # holding or playing must come from the unseen cards, into his hand.
    forced = [0] * NUM_RANKS
    if setup.kitty is not None:
        for r, n in enumerate(setup.kitty.counts):
            need = n - shown[landlord][r] - later[landlord][r]
            if need > 0:
                if need > pool[r]:
                    raise Unreachable(f"the kitty's {rank_char(r)} is shown with a farmer; the landlord took the kitty")
                forced[r] = need
    plan = _prefix_plan(setup, suffix, landlord, shed)
    # A prefix single the lesson's first play answers must be lower than it.
    ceiling = suffix[0].play.main if plan and plan[-1][-1] == ANSWERED and suffix[0].play else None
    start = [[a + b for a, b in zip(shown[s], later[s])] for s in seats]
    hands_pool: list[int] | None = None
    reserved = [0] * NUM_RANKS
    if setup.gone is not None:  # the earlier tricks play exactly the cards gone; the hidden hands hold the rest
        gone = _counts(setup.gone)
        if any(g > p for g, p in zip(gone, pool)):
            raise Unreachable("a card gone is also in a hand, the history or the table")
        if sum(gone) != sum(shed):
            raise Unreachable(f"{sum(gone)} cards gone, but the hands and the history leave {sum(shed)} played before")
        hands_pool = [p - g for p, g in zip(pool, gone)]
        if landlord not in setup.hands:  # a kitty card still unseen: in his hidden hand when it can be
            reserved = [min(f, h) for f, h in zip(forced, hands_pool)]
            hands_pool = [h - r for h, r in zip(hands_pool, reserved)]
        forced = [f - r for f, r in zip(forced, reserved)]
        if any(f > g for f, g in zip(forced, gone)):
            raise Unreachable("the kitty's cards are neither in the landlord's hand nor among the cards gone")
        pool = gone
    deal, tricks = _assign(setup, plan, pool, forced, held, start, landlord, hands_pool, reserved, ceiling)
    turns = [*_prefix_turns(plan, tricks, setup.rules.players), *suffix]
    return _replayed(setup, deal, turns, landlord)


def _prefix_plan(setup: Setup, suffix: list[Turn], landlord: int, shed: list[int]) -> list[Shape]:
    """The tricks before the lesson's turns: who plays each single."""
    opener = suffix[0] if suffix else None
    players, names = setup.rules.players, setup.rules.seat_layout
    left = tuple(shed)
    if opener is None or opener.play is not None:
        goal = opener.seat if opener is not None else setup.to_move
        plan = _plan(landlord, left, goal)
        if plan is None and opener is not None and opener.play is not None and opener.play.size == 1:
            # A single need not open its trick: it may answer a lower single the seat before led.
            before = (opener.seat - 1) % players
            if left[before]:
                rest = list(left)
                rest[before] -= 1
                answered = _plan(landlord, tuple(rest), before)
                if answered is not None:
                    return [*answered, (before, ANSWERED)]
        if plan is None:
            raise Unreachable(_why(landlord, goal, left, setup))
        return list(plan)
    # The lesson's turns start with a pass: the prefix ends with a trick still open,
    # led by the seat before the passer (one of its own cards).
    owner = (opener.seat - 1) % players
    if not left[owner]:
        raise Unreachable(f"{names[opener.seat]} passes first, so {names[owner]} must have played a card before")
    rest = list(left)
    rest[owner] -= 1
    plan = _plan(landlord, tuple(rest), owner)
    if plan is None:
        raise Unreachable(_why(landlord, owner, tuple(rest), setup))
    return [*plan, (owner, OPEN)]


def _why(landlord: int, goal: int, left: tuple[int, ...], setup: Setup) -> str:
    names = setup.rules.seat_layout
    if left[landlord] == 0 and any(left):
        return (f"the landlord ({names[landlord]}) has played nothing before these turns, so nobody has"
                f" (the landlord leads first, RULES §3); the farmers must still hold {setup.rules.hand_size} cards")
    if left[goal] == 0 and goal != landlord:
        return (f"{names[goal]} leads here but has never played a card, so never won a trick"
                " (only the winner of a trick leads the next)")
    return "the lead cannot pass round the table so that every seat has played the cards it is missing"


def _assign(
    setup: Setup, plan: list[Shape], pool: list[int], forced: list[int], held: list[int | None],
    shown: list[list[int]], landlord: int, hands_pool: list[int] | None = None,
    reserved: list[int] | None = None, ceiling: int | None = None,
) -> tuple[list[list[int]], list[list[int]]]:
    """Concrete cards: the deal (rank counts per seat) and the ranks of each prefix trick's singles.

    A prefix trick is a rising run of singles, so it needs as many *different* ranks as it has
    plays.  Taking the lowest ranks first runs dry at the end: when the top ranks are in the lesson's
    hands (both jokers with one farmer, say) the last tricks find only cards of one rank left.  So
    the tricks are filled largest first, each from the ranks with the most cards still unplaced —
    the greedy that splits a multiset into groups of distinct elements whenever any split exists
    (Gale–Ryser) — and the kitty's unseen cards go into the landlord's plays.

    ``hands_pool``: when the lesson says which cards are gone, the earlier tricks play exactly those
    (``pool``) and the hidden hands are dealt from this; ``reserved`` are kitty cards kept for the
    landlord's hidden hand.  ``ceiling``: the last trick's single must be lower (the lesson's first play
    answers it).
    """
    free = list(pool)
    deal = [list(shown[s]) for s in range(len(shown))]
    for r, n in enumerate(forced):  # the kitty's unseen cards go to the landlord first
        free[r] -= n
    kept = list(forced)  # landlord cards still to place (in a prefix play or his unseen hand)
    tricks: list[list[int]] = [[] for _ in plan]
    order = sorted(range(len(plan)), key=lambda i: -len(_seats(plan[i])))
    if ceiling is not None:  # the bounded trick first, while low ranks are plenty
        order.remove(len(plan) - 1)
        order.insert(0, len(plan) - 1)
    for index in order:
        seats = _seats(plan[index])
        top = ceiling if ceiling is not None and index == len(plan) - 1 else NUM_RANKS
        ranks = _trick_ranks(free, kept, seats.index(landlord) if landlord in seats else None, len(seats), top)
        if ranks is None:
            raise Unreachable("the unseen cards are too few to play the tricks before these turns")
        for seat, rank in zip(seats, ranks):
            deal[seat][rank] += 1
        tricks[index] = ranks
    rest = free if hands_pool is None else list(hands_pool)
    for s in range(len(shown)):
        if s in setup.hands:
            continue
        want = int(held[s] or 0)
        for source in ([kept, list(reserved or [0] * NUM_RANKS), rest] if s == landlord else [rest]):
            for r in range(NUM_RANKS):
                take = min(source[r], want)
                deal[s][r] += take
                source[r] -= take
                want -= take
    if any(kept):
        raise Unreachable("the kitty's cards cannot all have gone to the landlord")
    if hands_pool is not None and (any(free) or any(rest)):
        raise Unreachable("the cards gone cannot all have been played before these turns")
    return deal, tricks


def _seats(shape: Shape) -> list[int]:
    """Who plays a single in a prefix trick, in order (-1 marks a trick left open)."""
    return [s for s in shape if s >= 0]


def _trick_ranks(free: list[int], kept: list[int], at: int | None, size: int,
                 top: int = NUM_RANKS) -> list[int] | None:
    """``size`` different ranks, rising, taken out of ``free``: the ranks with the most cards left.

    ``at`` is the landlord's place in the trick: a kitty card still to place (``kept``) goes there
    when ranks below and above it can fill the other places.  Only ranks below ``top`` are used.
    """
    def fullest(ranks: range, n: int) -> list[int] | None:
        have = [r for r in ranks if free[r] > 0]
        if len(have) < n:
            return None
        return sorted(sorted(have, key=lambda r: (-free[r], r))[:n])

    if at is not None:
        for r in range(top):
            if kept[r] > 0:
                below, above = fullest(range(r), at), fullest(range(r + 1, top), size - at - 1)
                if below is not None and above is not None:
                    kept[r] -= 1
                    for q in (*below, *above):
                        free[q] -= 1
                    return [*below, r, *above]
    ranks = fullest(range(top), size)
    if ranks is not None:
        for q in ranks:
            free[q] -= 1
    return ranks


def _prefix_turns(plan: list[Shape], tricks: list[list[int]], players: int) -> Iterator[Turn]:
    """The prefix as turns: the planned seats play their singles in turn order, the others pass."""
    for shape, ranks in zip(plan, tricks):
        seats = _seats(shape)
        still_open = shape[-1] < 0
        seat, done, trick = seats[0], 0, Trick()
        # Until the planned plays are made and, for a closed trick, the lead comes back (engine/trick.py).
        while done < len(seats) or (not still_open and not trick.leading):
            play = _single(ranks[done]) if done < len(seats) and seat == seats[done] else None
            yield Turn(seat, play)
            done += play is not None
            trick, seat = trick.after(seat, play, players)  # the engine's trick rule, as Game.push steps it


def _replayed(setup: Setup, deal: list[list[int]], turns: list[Turn], landlord: int) -> Witness:
    """Replay the witness through the engine and compare its end with the lesson's position."""
    rules, names = setup.rules, setup.rules.seat_layout
    hands = tuple(Cards.from_counts(d, rules.deck) for d in deal)
    kitty = setup.kitty if setup.kitty is not None else Cards.from_ranks(hands[landlord].ranks()[:rules.kitty_size])
    dealt = [rules.hand_size + (rules.kitty_size if s == landlord else 0) for s in range(rules.players)]
    if [len(h) for h in hands] != dealt:
        raise Unreachable(f"the deal comes out as {[len(h) for h in hands]} cards, not {dealt}")
    game = Game.from_hands(hands, landlord, setup.bid or 1, kitty, rules=rules)
    for turn in turns:
        if game.is_over:
            raise Unreachable("the game is over before the position is reached")
        if turn.seat != game.to_move:
            raise Unreachable(f"{names[turn.seat]} plays out of turn: it is {names[game.to_move]}'s turn")
        try:
            game.play(turn.play)
        except ValueError as error:
            raise Unreachable(f"{names[turn.seat]} cannot play {turn.play.text if turn.play else 'pass'}: {error}")
    if game.is_over:
        raise Unreachable("the game is over before the position is reached")
    _compare(setup, game)
    return Witness(hands, kitty, tuple(turns))


def _compare(setup: Setup, game: Game) -> None:
    names = setup.rules.seat_layout
    for s in range(setup.rules.players):
        if s in setup.hands and game.hand(s) != setup.hands[s]:
            raise Unreachable(f"the replay leaves {names[s]} with {game.hand(s)}, not {setup.hands[s]}")
        if game.card_counts[s] != setup.count(s):
            raise Unreachable(f"the replay leaves {names[s]} with {game.card_counts[s]} cards, not {setup.count(s)}")
    if game.to_move != setup.to_move:
        raise Unreachable(f"the replay ends with {names[game.to_move]} to move, not {names[setup.to_move]}")
    table = game.table
    if (table is None) != (setup.table is None) or (
            table is not None and setup.table is not None
            and (table.cards != setup.table.cards or game.table_seat != setup.table_by)):
        raise Unreachable("the replay ends with another play to beat than the lesson's")


def proven_reachable(setup: Setup) -> str | None:
    """None when a witness game reaches ``setup``, else why not (one line)."""
    try:
        build_witness(setup)
    except Unreachable as error:
        return str(error)
    return None

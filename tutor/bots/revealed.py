"""What the others' answers revealed: measured odds of a pass, given the hand it was made with.

A player facing a single, a pair or a trio either answers it or passes, and
how often it passes depends on how many ranks it could have answered with: a
farmer who passed on a low pair rarely held many higher pairs.  Here every such
decision in a history is a :class:`Follow` event, and the chance of what the
player did — pass or answer — given a hand is read from :data:`PASS_RATES`,
measured on real games (``benchmarks/sampling_weights.py`` counts them and
prints this table; docs/bots.md gives the figures).  The product over a
seat's events is the likelihood of a sampled hand; :mod:`tutor.bots.sampling`
uses it to weight its deals (Bayes: the deal as dealt, times how well it
explains the play).

The hand a player held at an event is rebuilt from a sample: what the sample
gives it now plus everything it played after the event.  Only public facts go
into an event (the table, who played it, the card counts, the pass), so the
weights read nothing a view cannot see.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tutor.engine.cards import NUM_RANKS
from tutor.engine.cards import packed_size as _size
from tutor.engine.combos import Kind
from tutor.engine.trick import Turn, tables_faced

#: Cards of one rank an answer needs, by the kind of the table (the kinds whose answer is a higher rank).
NEED = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIO: 3, Kind.TRIO_SINGLE: 3, Kind.TRIO_PAIR: 3}
#: The highest bucket of answering ranks counted apart, by ``need`` (more are counted as this many).
TOP = {1: 4, 2: 3, 3: 2}
#: The player whose table it was holds at most this many cards after playing it: passing is dangerous.
DANGER_CARDS = 2

_NIBBLES = sum(1 << (4 * r) for r in range(NUM_RANKS))

#: What a cell is: (need, the table is the partner's, danger, answering ranks bucket).
Cell = tuple[int, bool, bool, int]
Rates = Mapping[Cell, tuple[float, int]]

# P(pass | cell) and the decisions it was counted on, measured by benchmarks/sampling_weights.py on decks
# 1000–1399 played both ways (800 games, our medium level against RLCard's rule agent in RLCard's environment),
# Laplace-smoothed: (passes + 1) / (decisions + 2).  Cells with no answering rank are not listed (a pass is forced).
#: RLCard's rule agent: it answers whenever it can, a pass says it could not.
RULE_AGENT: dict[Cell, tuple[float, int]] = {
    (1, False, False, 1): (0.001, 819),
    (1, False, False, 2): (0.002, 600),
    (1, False, False, 3): (0.002, 418),
    (1, False, False, 4): (0.001, 1382),
    (1, False, True, 1): (0.014, 71),
    (1, False, True, 2): (0.028, 34),
    (1, False, True, 3): (0.071, 12),
    (1, False, True, 4): (0.200, 3),
    (1, True, False, 1): (0.003, 366),
    (1, True, False, 2): (0.003, 325),
    (1, True, False, 3): (0.004, 269),
    (1, True, False, 4): (0.001, 825),
    (1, True, True, 1): (0.020, 48),
    (1, True, True, 2): (0.026, 37),
    (1, True, True, 3): (0.042, 22),
    (1, True, True, 4): (0.050, 18),
    (2, False, False, 1): (0.003, 308),
    (2, False, False, 2): (0.005, 215),
    (2, False, False, 3): (0.003, 337),
    (2, False, True, 1): (0.037, 25),
    (2, False, True, 2): (0.200, 3),
    (2, True, False, 1): (0.004, 224),
    (2, True, False, 2): (0.007, 149),
    (2, True, False, 3): (0.005, 182),
    (2, True, True, 1): (0.100, 8),
    (3, False, False, 1): (0.035, 140),
    (3, False, False, 2): (0.014, 69),
    (3, False, True, 1): (0.250, 2),
    (3, True, False, 1): (0.014, 67),
    (3, True, False, 2): (0.056, 16),
    (3, True, True, 1): (0.333, 1),
}
#: Our medium level: it passes by choice (on its partner's tables above all).
MEDIUM: dict[Cell, tuple[float, int]] = {
    (1, False, False, 1): (0.278, 764),
    (1, False, False, 2): (0.357, 659),
    (1, False, False, 3): (0.206, 484),
    (1, False, False, 4): (0.113, 2100),
    (1, False, True, 1): (0.007, 133),
    (1, False, True, 2): (0.012, 83),
    (1, False, True, 3): (0.027, 35),
    (1, False, True, 4): (0.015, 66),
    (1, True, False, 1): (0.972, 284),
    (1, True, False, 2): (0.988, 246),
    (1, True, False, 3): (0.988, 168),
    (1, True, False, 4): (0.999, 729),
    (1, True, True, 1): (0.857, 12),
    (1, True, True, 2): (0.933, 13),
    (1, True, True, 3): (0.857, 5),
    (1, True, True, 4): (0.950, 18),
    (2, False, False, 1): (0.520, 408),
    (2, False, False, 2): (0.409, 348),
    (2, False, False, 3): (0.231, 605),
    (2, False, True, 1): (0.034, 27),
    (2, False, True, 2): (0.071, 12),
    (2, False, True, 3): (0.125, 6),
    (2, True, False, 1): (0.992, 117),
    (2, True, False, 2): (0.990, 95),
    (2, True, False, 3): (0.995, 193),
    (2, True, True, 1): (0.889, 7),
    (2, True, True, 2): (0.875, 6),
    (2, True, True, 3): (0.889, 7),
    (3, False, False, 1): (0.712, 220),
    (3, False, False, 2): (0.578, 100),
    (3, False, True, 1): (0.125, 6),
    (3, False, True, 2): (0.333, 1),
    (3, True, False, 1): (0.935, 60),
    (3, True, False, 2): (0.931, 27),
    (3, True, True, 1): (0.833, 4),
}
#: Both together.
POOLED: dict[Cell, tuple[float, int]] = {
    (1, False, False, 1): (0.134, 1583),
    (1, False, False, 2): (0.187, 1259),
    (1, False, False, 3): (0.111, 902),
    (1, False, False, 4): (0.068, 3482),
    (1, False, True, 1): (0.005, 204),
    (1, False, True, 2): (0.008, 117),
    (1, False, True, 3): (0.020, 47),
    (1, False, True, 4): (0.014, 69),
    (1, True, False, 1): (0.426, 650),
    (1, True, False, 2): (0.428, 571),
    (1, True, False, 3): (0.383, 437),
    (1, True, False, 4): (0.469, 1554),
    (1, True, True, 1): (0.194, 60),
    (1, True, True, 2): (0.269, 50),
    (1, True, True, 3): (0.207, 27),
    (1, True, True, 4): (0.500, 36),
    (2, False, False, 1): (0.297, 716),
    (2, False, False, 2): (0.253, 563),
    (2, False, False, 3): (0.148, 942),
    (2, False, True, 1): (0.019, 52),
    (2, False, True, 2): (0.059, 15),
    (2, False, True, 3): (0.125, 6),
    (2, True, False, 1): (0.344, 341),
    (2, True, False, 2): (0.390, 244),
    (2, True, False, 3): (0.515, 375),
    (2, True, True, 1): (0.471, 15),
    (2, True, True, 2): (0.875, 6),
    (2, True, True, 3): (0.889, 7),
    (3, False, False, 1): (0.448, 360),
    (3, False, False, 2): (0.345, 169),
    (3, False, True, 1): (0.100, 8),
    (3, False, True, 2): (0.333, 1),
    (3, True, False, 1): (0.450, 127),
    (3, True, False, 2): (0.600, 43),
    (3, True, True, 1): (0.714, 5),
}


@dataclass(frozen=True, slots=True)
class Follow:
    """Seat ``seat`` faced a table it could answer only with ``need`` cards of a rank in ``above``, and passed or not."""

    seat: int
    #: Cards the seat played at and after this decision (packed): its hand then is its hand now plus these.
    later: int
    need: int
    #: Nibble mask of the ranks above the table's.
    above: int
    partner: bool
    danger: bool
    passed: bool


def answering_ranks(hand: int, need: int, above: int) -> int:
    """Ranks in ``above`` of which ``hand`` (packed) holds at least ``need`` cards."""
    if need == 1:
        has = hand | hand >> 1 | hand >> 2
    elif need == 2:
        has = hand >> 1 | hand >> 2
    else:
        has = hand >> 2 | (hand & hand >> 1)
    return (has & above & _NIBBLES).bit_count()


def follows(
    history: Sequence[Turn], players: int, landlord: int, counts_now: Sequence[int], skip: int | None = None
) -> list[Follow]:
    """The follow events of ``history`` (every seat but ``skip``), with the cards each seat played after them.

    ``counts_now`` are the card counts after the history (they give the counts at each turn, for danger).
    A bomb played on such a table is not an event (it says nothing of the ranks).
    """
    counts = list(counts_now)
    later = [0] * players
    after_turn: list[tuple[int, ...]] = [()] * len(history)
    later_at: list[int] = [0] * len(history)
    for i in range(len(history) - 1, -1, -1):
        after_turn[i] = tuple(counts)
        turn = history[i]
        if turn.play is not None:
            later[turn.seat] += turn.play.cards
            counts[turn.seat] += _size(turn.play.cards)
        later_at[i] = later[turn.seat]
    events: list[Follow] = []
    table_counts: dict[int, int] = {}
    for i, (turn, table, table_seat) in enumerate(tables_faced(history, players)):
        if turn.play is not None and not Kind(turn.play.kind).is_bomb:
            table_counts[turn.seat] = after_turn[i][turn.seat]
        if turn.seat == skip or table is None or table_seat is None:
            continue
        need = NEED.get(Kind(table.kind))
        if need is None or (turn.play is not None and Kind(turn.play.kind).is_bomb):
            continue
        above = _NIBBLES & ~((1 << (4 * (table.main + 1))) - 1)
        partner = turn.seat != landlord and table_seat != landlord
        danger = table_counts.get(table_seat, 99) <= DANGER_CARDS
        events.append(Follow(turn.seat, later_at[i], need, above, partner, danger, turn.play is None))
    return events


def cell(event: Follow, hand: int) -> Cell:
    """The cell of ``event`` when the seat held ``hand`` (packed) before it."""
    ranks = min(answering_ranks(hand, event.need, event.above), TOP[event.need])
    return event.need, event.partner, event.danger, ranks




def log_likelihood(events: Sequence[Follow], hidden: Mapping[int, int], rates: Mapping[int, Rates]) -> float:
    """log P(what the seats did | the hands ``hidden`` gives them now), each seat's by its ``rates``.

    Events of seats ``hidden`` or ``rates`` does not hold, and cells a table does not list, add nothing.
    """
    total = 0.0
    for event in events:
        hand = hidden.get(event.seat)
        table = rates.get(event.seat)
        if hand is None or table is None:
            continue
        found = table.get(cell(event, hand + event.later))
        if found is None:
            continue
        rate = found[0]
        total += math.log(rate if event.passed else 1.0 - rate)
    return total


#: The tables by name (``HardBot.revealed_rates``).  "none" is the control: the same number of draws and a
#: random pick among them, no information (what changing only the random deals does to the arena's figures).
TABLES: dict[str, Rates] = {"rule-agent": RULE_AGENT, "medium": MEDIUM, "pooled": POOLED, "none": {}}

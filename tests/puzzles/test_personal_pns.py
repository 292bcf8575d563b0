"""The scan's second try with the proof-number search (issue 30, round 13: ``personal._settle_open``): where one
winning play is proven and first moves stay open, each open move is proven once more by ``Solver.prove`` within
its own counted budget — the same verdicts as the plain search, never a guess."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tutor.engine.cards import DECK_COUNTS, NUM_RANKS, Cards
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.puzzles import personal
from tutor.solver import Position, Role, Solver
from tutor.solver.team_native import available

pytestmark = pytest.mark.skipif(not available(), reason="the compiled three-player search is not built")


def _truth(pos: Position) -> personal.Verdicts:
    """Every first move's verdict by the plain search, without a budget."""
    solver = Solver(rules=STANDARD)
    return {move: solver.is_winning_move(pos, move) for move in pos.legal_moves()}


def _random_position(rng: random.Random) -> Position:
    """Three random hands of 1-9 cards (a random landlord), to move: seat 0 after a random play of seat 1 or 2,
    or any seat leading."""
    deck = [r for r in range(NUM_RANKS) for _ in range(DECK_COUNTS[r])]
    rng.shuffle(deck)
    hands = []
    for _ in range(3):
        size = rng.randint(1, 9)
        hands.append(Cards.from_ranks(deck[:size]))
        deck = deck[size:]
    roles = [Role.FARMER] * 3
    roles[rng.randrange(3)] = Role.LANDLORD
    if rng.random() < 0.5:
        table = rng.choice(lead_moves_packed(Cards.from_ranks(deck[: rng.randint(1, 6)]).packed))
        return Position(tuple(hands), tuple(roles), 0, table, rng.choice((1, 2)), rules=STANDARD)
    return Position(tuple(hands), tuple(roles), rng.randrange(3), None, None, rules=STANDARD)


def _one_winner(seed: int) -> tuple[Position, personal.Verdicts]:
    """A random three-player position with one winning play among four legal moves at least."""
    rng = random.Random(seed)
    while True:
        pos = _random_position(rng)
        if pos.is_over or len(pos.legal_moves()) < 4:
            continue
        truth = _truth(pos)
        if len({personal._play_of(m) for m, v in truth.items() if v}) == 1 and all(v is not None
                                                                                 for v in truth.values()):
            return pos, truth


def _opened(truth: personal.Verdicts) -> personal.Verdicts:
    """The winning move proven, the others open (as a scan whose budget ran out)."""
    return {move: True if verdict else None for move, verdict in truth.items()}


@pytest.fixture
def second_try(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second try switched on at round 13's measured budget (it is off by default: it made no puzzle)."""
    monkeypatch.setattr(personal, "PNS_MOVE_NODES", personal.PNS_TRY_NODES)


def test_the_second_try_is_off_by_default() -> None:
    assert personal.PNS_MOVE_NODES == 0 and personal.PNS_TRY_NODES > 0


@pytest.mark.usefixtures("second_try")
def test_the_open_moves_are_settled_as_the_plain_search_settles_them() -> None:
    for seed in range(3):
        pos, truth = _one_winner(seed)
        budget = [personal.PNS_NODES]
        entry: dict[str, Any] = {}
        opened = _opened(truth)
        settled = personal._settle_open(personal.scan_factory(), pos, opened, budget, entry)
        assert settled == truth, pos.format()
        assert entry["pns"]["settled"] == sum(v is None for v in opened.values()) > 0 and entry["unproven"] == 0
        assert budget[0] == personal.PNS_NODES - entry["pns"]["nodes"]  # counted against the game's budget


@pytest.mark.usefixtures("second_try")
def test_no_second_try_without_budget_or_with_two_winning_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    pos, truth = _one_winner(0)
    opened = _opened(truth)
    entry: dict[str, Any] = {}
    assert personal._settle_open(personal.scan_factory(), pos, opened, [0], entry) == opened
    two = dict(opened)
    other = next(m for m, v in opened.items() if v is None and personal._play_of(m) is not None)
    two[other] = True  # a second winning play: no only move, nothing to settle
    assert personal._settle_open(personal.scan_factory(), pos, two, [personal.PNS_NODES], {}) == two
    monkeypatch.setattr(personal, "PNS_MOVE_NODES", 0)  # switched off
    assert personal._settle_open(personal.scan_factory(), pos, opened, [personal.PNS_NODES], {}) == opened


def test_a_move_beyond_the_budget_stays_open_and_stops_the_try(monkeypatch: pytest.MonkeyPatch) -> None:
    """One expanded position a move settles no real position: the first open move stays open (None, not a
    guess) and the others are not tried."""
    monkeypatch.setattr(personal, "PNS_MOVE_NODES", 1)
    for seed in range(3):
        pos, truth = _one_winner(seed)
        entry: dict[str, Any] = {}
        settled = personal._settle_open(personal.scan_factory(), pos, _opened(truth), [10**6], entry)
        assert all(settled[m] is truth[m] or settled[m] is None for m in truth), pos.format()
        assert entry["pns"]["nodes"] <= 2 * (entry["pns"]["settled"] + 1)

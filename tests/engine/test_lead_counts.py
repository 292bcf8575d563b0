"""The perft file tests/data/lead_counts.txt: fixed hands → number of lead moves.

The counts were made by the brute-force constructor (tests/engine/ddz_reference.py),
not by the engine; the engine must reproduce every one.
"""

from __future__ import annotations

from tests.engine.ddz_reference import counts_of, perft_hands, read_lead_counts, reference_lead_moves

from tutor.engine.cards import Cards
from tutor.engine.moves import lead_moves_packed

ROWS = read_lead_counts()


def test_lead_counts_file_has_about_200_hands_up_to_20_cards() -> None:
    assert len(ROWS) >= 200
    assert max(len(hand) for hand, _ in ROWS) == 20
    assert len({hand for hand, _ in ROWS}) == len(ROWS)


def test_engine_lead_move_counts_match_the_perft_file() -> None:
    wrong = [
        (hand, expected, len(lead_moves_packed(Cards.parse(hand).packed)))
        for hand, expected in ROWS
        if len(lead_moves_packed(Cards.parse(hand).packed)) != expected
    ]
    assert wrong == []


def test_perft_file_is_what_the_reference_makes() -> None:
    """Guards the file against hand edits: same hands, same counts, as regenerated."""
    assert [hand for hand, _ in ROWS] == perft_hands()
    for hand, expected in ROWS:
        assert len(reference_lead_moves(counts_of(hand))) == expected, hand

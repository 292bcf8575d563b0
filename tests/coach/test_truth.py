"""Truth tests: the coach never flags a proven only-winning move, and flags classic blunders.

The named positions are puzzles of the library (their ids) whose only winning
move — proven by the solver here — goes against a rule of thumb: it beats the
partner's play, plays a bomb or the rocket, or spends a 2.  They are copied in
(hands, table) so that the test does not change when the library does.
"""

from __future__ import annotations

import pytest

from tests.coach.positions import puzzle_game
from tutor.coach.advice import FLAGGED, judge
from tutor.coach.describe import describe, to_view
from tutor.puzzles.model import find_move
from tutor.solver import Position, Solver

ONLY_WINS = [
    # id, theme, players (turn order, the learner first), table, played by, the only winning move
    ("245692", "beats_partner", "F:8888KK L:2 F:357TA", "A", 2, "8888"),
    ("2f87ec", "beats_partner", "F:333377 F:7J L:A", "Q", 1, "3333"),
    ("20973f", "beats_partner", "F:TTQQQQ F:457J L:A", "9", 1, "QQQQ"),
    ("2576a9", "beats_partner", "F:9999JJ F:358T L:A", "8", 1, "9999"),
    ("c4dde6", "beats_partner", "F:57777A L:J2 F:6", "9", 2, "A"),
    ("16da12", "beats_partner", "F:QQQQA2 L:772XD F:5789T", "A", 2, "2"),
    ("7e572b", "bomb", "F:TTTTQQ L:KK F:3357QX", "9222", 1, "TTTT"),
    ("32fa45", "bomb", "F:99JJJJ F:782 L:4", "4222", 2, "JJJJ"),
    ("607de3", "bomb", "F:667777 F:3K22 L:8", "999K", 2, "7777"),
    ("6f0624", "bomb", "F:33AAAA F:38 L:K", "9JJJQQQD", 2, "AAAA"),
    ("372b1f", "bomb", "F:KAXD F:45 L:J", "77799", 2, "XD"),
    ("7dc65a", "bomb", "F:334XD F:389T L:7", "QQQA", 2, "XD"),
    ("310972", "spends_2", "F:TQQ222 L:D F:33589T", "4KKK", 1, "T222"),
    ("3272f0", "spends_2", "F:QQ2 L:33K222 F:3589TJ", None, None, "2"),
    ("42d5ce", "spends_2", "F:Q22 F:678TTQ L:9KKK2X", None, None, "22"),
    ("a2b098", "spends_2", "F:JJ2 F:334689 L:TTTQK2", "8", 2, "2"),
    ("e99eb0", "spends_2", "F:77K222 F:7789TQ L:QQ2", "5TTT", 2, "K222"),
    ("26ff47", "spends_2", "F:JJ2 F:6TQKAA L:KK2", None, None, "2"),
]


@pytest.mark.parametrize("ident, theme, players, table, by, move", ONLY_WINS, ids=[r[0] for r in ONLY_WINS])
def test_the_only_winning_move_is_never_flagged(
    ident: str, theme: str, players: str, table: str | None, by: int | None, move: str
) -> None:
    position = Position.parse(players, table, by)
    only = find_move(position, move)
    assert Solver(max_nodes=2_000_000).winning_moves(position) == [only], f"{ident}: not the only win"
    view = puzzle_game(players, table, by).view(0)
    verdict, _ = judge(view, only)
    assert verdict.level not in FLAGGED, f"{ident} ({theme}): {move} called a {verdict.level}"
    assert verdict.explanation is None


def _determined(hand: str, trick: str, landlord_cards: str, partner: str, landlord: str) -> object:
    """A view in which the landlord holds only its unplayed kitty cards and the partner the rest."""
    from tutor.engine.cards import FULL_DECK, Cards

    held = Cards.parse(hand).packed + Cards.parse(landlord_cards).packed + Cards.parse(partner).packed
    played = Cards.parse(trick.replace("right:", "").replace("left:", "").replace("pass", "").replace(",", ""))
    gone = Cards(FULL_DECK.packed - held - played.packed)
    unseen = set(Cards.parse(landlord_cards + partner).ranks())
    filler = [r for r in gone.ranks() if r not in unseen][: 3 - len(landlord_cards)]
    kitty = Cards.parse(landlord_cards).packed + Cards.from_ranks(filler).packed
    right_n, left_n = (len(landlord_cards), len(partner)) if landlord == "right" else (len(partner), len(landlord_cards))
    return to_view(describe(hand, landlord, f"right={right_n},left={left_n}", trick, str(gone), str(Cards(kitty))))


BLUNDERS = [
    # A single into a one-card landlord (Right, plays next) when a pair was available.
    ("single_into_one_card_landlord", ("55A", "", "9", "3", "right"), "5", "leads_single_when_landlord_has_one"),
    # Bombing the partner's winning play (the landlord passed) into the landlord's rocket.
    ("bomb_on_partner_into_rocket", ("55553", "right:9,left:pass", "KXD", "4", "left"), "5555", "smothers_partner_with_bomb"),
    # The example: passing lets the one-card landlord (playing next) go out.
    ("pass_lets_landlord_out", ("233", "left:5", "9", "4", "right"), "pass", None),
]


@pytest.mark.parametrize("name, where, move, explanation", BLUNDERS, ids=[b[0] for b in BLUNDERS])
def test_classic_blunders_are_flagged(name: str, where: tuple[str, ...], move: str, explanation: str | None) -> None:
    from tutor.engine.moves import legal_moves

    view = _determined(*where)  # type: ignore[arg-type]
    played = None if move == "pass" else next(m for m in legal_moves(view.hand, view.table) if m.text == move)
    verdict, ev = judge(view, played)  # type: ignore[arg-type]
    assert verdict.level == "blunder" and verdict.loss == 1.0, (name, verdict)
    assert ev.best.win_chance == 1.0
    assert (verdict.explanation.code if verdict.explanation else None) == explanation

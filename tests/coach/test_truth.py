"""Truth tests: the coach never flags a proven only-winning move, and flags classic blunders.

The named positions are puzzles of the library (their ids) whose only winning
move — proven by the solver here — goes against a rule of thumb: it beats the
partner's play, plays a bomb or the rocket, or spends a 2.  They are copied in
(hands, table) so that the test does not change when the library does: 2f87ec,
20973f and 2576a9 left the library in issue 14 (no real game reaches them) and
stay here as positions.

The blunders are positions in which the learner's view determines every hidden
hand, so the solver proves the move loses before the coach is asked about it.
"""

from __future__ import annotations

import pytest

from tests.coach.positions import puzzle_game
from tutor.bots.search import sample_position
from tutor.coach.advice import FLAGGED, judge
from tutor.coach.describe import describe, to_view
from tutor.engine.cards import packed_size
from tutor.engine.rules import STANDARD
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
    # Every other puzzle of the library (issue 14's) whose only win beats the partner, bombs or spends a 2,
    # with the learner a farmer and the landlord on at most 3 cards (so the view determines the hands).
    ("00a6f2", "bomb", "F:JQAXD F:8A L:7", "777K", 2, "XD"),
    ("039f71", "bomb", "F:79J2XD L:7T F:38", "555JJ", 1, "XD"),
    ("131e75", "bomb", "F:69KXD L:3A F:35JQ22", "AAA2", 1, "XD"),
    ("146937", "bomb", "F:339999 F:KX L:8", "T222", 2, "9999"),
    ("306eff", "spends_2", "F:KAA22 F:5679JQ L:2", "T", 2, "2"),
    ("38582e", "beats_partner", "F:QQK222 L:A F:5", "6", 2, "2"),
    ("3e1715", "beats_partner", "F:445KX L:8KA F:567", "9", 2, "K"),
    ("5a10f5", "bomb", "F:58TQXD F:42 L:6", "55JJAAAA", 2, "XD"),
    ("6fd82c", "bomb", "F:4557XD L:4 F:6KA", "789TJQKA", 1, "XD"),
    ("7033ca", "beats_partner", "F:38JJJJ L:A2 F:69A", "5", 2, "8"),
    ("8f0c92", "beats_partner", "F:779JQ2 L:T2 F:QQ2", "5", 2, "2"),
    ("95865e", "beats_partner", "F:779TT2 L:Q2 F:688JQQ", "5", 2, "2"),
    ("9aae6a", "bomb", "F:JQK2XD F:49 L:3", "888K", 2, "XD"),
    ("b43c38", "bomb", "F:JQA2XD L:T F:3T", "55566672", 1, "XD"),
    ("b59ca7", "beats_partner", "F:JJJQKA F:78 L:TA", "9", 1, "A"),
    ("b7f801", "bomb", "F:J2XD F:458QK L:2", "5QQQ", 2, "XD"),
    ("f660c1", "bomb", "F:99QQQQ L:A F:357T22", "8", 1, "QQQQ"),
]


@pytest.mark.parametrize("ident, theme, players, table, by, move", ONLY_WINS, ids=[r[0] for r in ONLY_WINS])
def test_the_only_winning_move_is_never_flagged(
    ident: str, theme: str, players: str, table: str | None, by: int | None, move: str
) -> None:
    position = Position.parse(players, table, by)
    only = find_move(position, move)
    assert Solver(max_nodes=2_000_000, rules=STANDARD).winning_moves(position) == [only], f"{ident}: not the only win"
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
    # The example: passing lets the one-card landlord (playing next) go out; the reason (issue 29)
    # is proven by its counterfactual: the 2 keeps the trick on the farmers' side.
    ("pass_lets_landlord_out", ("233", "left:5", "9", "4", "right"), "pass", "passes_partner_beatable"),
    # RULES §11 mistake 1: the straight 34567 takes a 5 out of 5555 and loses — the landlord (Left,
    # J X D) rockets it and goes out with the J; kept whole, the bomb answers the rocket's lead later.
    ("bomb_broken_for_a_straight", ("55553467", "", "JXD", "A", "left"), "34567", "breaks_bomb_for_straight"),
]


@pytest.mark.parametrize("name, where, move, explanation", BLUNDERS, ids=[b[0] for b in BLUNDERS])
def test_classic_blunders_are_flagged(name: str, where: tuple[str, ...], move: str, explanation: str | None) -> None:
    from tutor.engine.moves import legal_moves

    view = _determined(*where)  # type: ignore[arg-type]
    played = None if move == "pass" else next(m for m in legal_moves(view.hand, view.table) if m.text == move)
    # The view determines the hidden hands, so the solver settles it: the move loses, another wins.
    hidden = _hidden(where)
    assert packed_size(sum(hidden.values())) == sum(view.card_counts) - len(view.hand)
    proven = Solver(max_nodes=2_000_000, rules=STANDARD).solve(sample_position(view, hidden), "win", all_moves=True, line=False)
    assert proven.complete and proven.winning_moves and played not in proven.winning_moves, name
    verdict, ev = judge(view, played)  # type: ignore[arg-type]
    assert verdict.level == "blunder" and verdict.loss == 1.0, (name, verdict)
    assert ev.best.win_chance == 1.0 and ev.best.move in proven.winning_moves
    assert (verdict.explanation.code if verdict.explanation else None) == explanation


def _hidden(where: tuple[str, ...]) -> dict[int, int]:
    """The hidden hands of a :func:`_determined` position: {seat: packed cards}."""
    from tutor.engine.cards import Cards

    _, _, landlord_cards, partner, landlord = where
    seat = 1 if landlord == "right" else 2
    return {seat: Cards.parse(landlord_cards).packed, 3 - seat: Cards.parse(partner).packed}


def test_breaking_a_bomb_for_a_losing_straight_is_explained_in_the_coach_s_words() -> None:
    """The coach's remark on the move: a blunder, the better move, and RULES §11's bomb/straight advice."""
    from tutor.coach import Coach
    from tutor.engine.moves import legal_moves
    from tutor.i18n import speaking

    view = _determined("55553467", "", "JXD", "A", "left")
    straight = next(m for m in legal_moves(view.hand, view.table) if m.text == "34567")
    coach = Coach(rules=STANDARD)
    remark = coach.move_remark(view, straight, None, 20, 4)
    assert remark is not None
    [(_, number, verdict)] = coach.verdicts
    assert number == 4 and verdict.level == "blunder" and verdict.explanation is not None
    assert verdict.explanation.code == "breaks_bomb_for_straight"
    assert dict(verdict.explanation.values)["bomb"] == "5555"
    with speaking("en"):
        text = remark.render()
    assert text.startswith("Blunder") and "5555" in text and "straight" in text.lower()
    with speaking("ru"):
        russian = remark.render()
    assert "5555" in russian and "{" not in russian and russian != text

"""The wildcard game (RULES §12.3): one test per rule sentence, through Rules, readings, beats, the move
generator and Game (tutor/engine/combos.py, wild_moves.py, moves.py, deal.py, game.py)."""

from __future__ import annotations

import itertools
import pickle

import pytest

from tutor.engine.cards import Cards, pack, rank_char, unpack
from tutor.engine.combos import Combo, Kind, beats, readings, stand_ins
from tutor.engine.deal import deal
from tutor.engine.game import Game, replay
from tutor.engine.moves import legal_moves
from tutor.engine.record import GameRecord
from tutor.engine.rules import ROB_WILD, STANDARD, WILD, Rules, variant

R = {c: i for i, c in enumerate("3456789TJQKA2XD")}


def wild(rank: str) -> Rules:
    return STANDARD.with_wild(R[rank])


def kinds(cards: str, rank: str) -> list[tuple[str, str, bool, int]]:
    return [(Kind(r.kind).label, rank_char(r.main), r.soft, r.length) for r in readings(Cards.parse(cards), wild(rank))]


def reading(cards: str, rank: str, kind: Kind) -> Combo:
    return next(r for r in readings(Cards.parse(cards), wild(rank)) if r.kind == kind)


def test_rule_12_3_the_deal_number_fixes_the_wild_rank_and_it_is_never_a_joker() -> None:
    drawn = [deal(n, WILD).wild_rank for n in range(200)]
    assert all(0 <= r <= 12 for r in drawn) and len(set(drawn)) == 13  # every rank 3…2 is drawn, no joker
    assert drawn == [deal(n, WILD).wild_rank for n in range(200)]  # same deal, same wild rank
    for n in range(20):  # drawn after the deal: the cards are the classic deal's
        assert deal(n, WILD).hands == deal(n, STANDARD).hands and deal(n, STANDARD).wild_rank == -1
    game = Game(7, WILD)
    assert game.rules.wild_rank == deal(7, WILD).wild_rank and game.view(1).rules.wild_rank == game.rules.wild_rank


def test_rule_12_3_a_redeal_draws_the_next_deals_wild_rank_and_undo_restores_it() -> None:
    game = Game(3, WILD)
    first = game.rules.wild_rank
    for _ in range(3):
        game.make_bid(0)
    assert game.deal_number == 4 and game.rules.wild_rank == deal(4, WILD).wild_rank
    game.undo()
    assert game.rules.wild_rank == first


def test_rule_12_3_a_wild_card_stands_for_any_rank_3_to_2_inside_a_combination() -> None:
    assert ("bomb", "7", True, 1) in kinds("7779", "9")  # 7 7 7 [9 as 7]: a soft bomb
    assert ("trio_single", "7", False, 1) in kinds("7779", "9")  # or the 9 as itself: a trio + 1
    assert ("pair", "2", False, 1) in kinds("29", "9")  # a wild card may stand for a 2
    assert kinds("X9", "9") == []  # never for a joker
    soft = reading("7779", "9", Kind.BOMB)
    assert soft.wild == pack([0, 0, 0, 0, 1]) and soft.soft
    assert [(rank_char(r), w if w is None else rank_char(w)) for r, w in stand_ins(soft)] == [
        ("7", None), ("7", None), ("7", None), ("7", "9")]


def test_rule_12_3_wild_cards_played_as_their_own_rank_alone_or_together_are_ordinary() -> None:
    assert kinds("9", "9") == [("single", "9", False, 1)]
    assert kinds("99", "9") == [("pair", "9", False, 1)]
    assert kinds("9999", "9") == [("bomb", "9", False, 1)]  # the four wild cards: a hard bomb of the wild rank
    assert ("trio_single", "9", False, 1) in kinds("9995", "9")  # wild cards as themselves inside a play


def test_rule_12_3_chains_use_wild_cards_for_missing_ranks_and_stop_at_the_ace() -> None:
    assert ("straight", "8", False, 5) in kinds("45689", "9")  # 4 5 6 [9 as 7] 8
    assert ("straight", "A", False, 5) in kinds("TJQK9", "9")  # [9 as A] on top, or as 9 below
    assert not any(k == "straight" and m == "2" for k, m, _, _ in kinds("JQKA9", "9"))  # never up to the 2
    assert ("pair_chain", "5", False, 3) in kinds("334459", "9")
    assert not any(k == "straight" for k, *_ in kinds("JQKA2", "9"))  # a natural 2 never joins
    assert ("airplane", "8", False, 2) in kinds("777889", "9")


def test_rule_12_3_a_hard_bomb_beats_a_soft_bomb_of_the_same_rank_otherwise_bombs_compare_by_rank() -> None:
    rules = wild("9")
    soft7 = reading("7779", "9", Kind.BOMB)
    hard7 = readings(Cards.parse("7777"), rules)[0]
    soft8 = reading("8889", "9", Kind.BOMB)
    hard9 = readings(Cards.parse("9999"), rules)[0]
    rocket = readings(Cards.parse("XD"), rules)[0]
    assert beats(hard7, soft7, rules) and not beats(soft7, hard7, rules)
    assert beats(soft8, hard7, rules) and not beats(hard7, soft8, rules)  # soft or hard: the rank decides
    assert beats(hard9, soft8, rules) and not beats(soft7, reading("7799", "9", Kind.BOMB), rules)
    assert beats(rocket, soft8, rules) and not beats(soft8, rocket, rules)
    assert beats(soft7, readings(Cards.parse("8883"), rules)[0], rules)  # a soft bomb is a bomb
    # The generator: on a soft 7, a hard 7 follows; on a hard 7, a soft 7 does not.
    assert Cards.parse("7777").packed in {m.cards for m in legal_moves(Cards.parse("77773"), soft7, rules)}
    assert all(m.kind != Kind.BOMB for m in legal_moves(Cards.parse("79"), hard7, rules) if m is not None)


def test_rule_12_3_every_bomb_soft_or_hard_doubles_the_game() -> None:
    rules = wild("9")
    game = Game.from_hands(["7779", "3", "4"], landlord=0, rules=rules)
    game.play(reading("7779", "9", Kind.BOMB))
    assert game.is_over and game.score().multiplier == 2  # the soft bomb ×2 (a custom position: no spring)
    assert game.score().factors.count("bomb") == 1


def test_rule_12_3_the_player_chooses_the_reading_when_following() -> None:
    rules = wild("9")
    game = Game.from_hands(["45", "666345", "7779"], landlord=1, rules=rules)
    game.play_cards("6663")
    options = [m for m in game.legal_moves() if m is not None and m.text == "7779"]
    assert sorted(Kind(m.kind).label for m in options) == ["bomb", "trio_single"]
    game.play(next(m for m in options if m.kind == Kind.TRIO_SINGLE))  # not turned into the bomb
    assert game.history[-1].play is not None and game.history[-1].play.kind == Kind.TRIO_SINGLE
    assert game.bombs_played == 0


def _subsets(counts: tuple[int, ...]) -> list[int]:
    return [pack(c) for c in itertools.product(*[range(n + 1) for n in counts]) if any(c)]


@pytest.mark.parametrize(
    ("hand", "rank", "table"),
    [("34567999", "9", "8883"), ("77788TT9", "T", "66655"), ("3344QQ22", "2", "TTJJQQ"), ("5566789X", "8", "4445"), ("399995", "9", "4445")],
)
def test_rule_12_3_the_move_generator_lists_every_reading_readings_defines(hand: str, rank: str, table: str) -> None:
    rules = wild(rank)
    packed = Cards.parse(hand).packed
    defined: dict[tuple[int, int, int], Combo] = {}
    for sub in _subsets(unpack(packed)):
        for r in readings(sub, rules):
            key = (r.cards, int(r.kind), r.length)
            if key not in defined or r.main > defined[key].main:
                defined[key] = r
    lead = legal_moves(packed, None, rules)
    assert {(m.cards, int(m.kind), m.length): (m.main, m.soft) for m in lead} == {
        k: (r.main, r.soft) for k, r in defined.items()}
    on = max(readings(Cards.parse(table), rules), key=lambda r: r.main)
    follow = legal_moves(packed, on, rules)
    want = {k: (r.main, r.soft) for k, r in defined.items() if beats(r, on, rules)}
    assert {(m.cards, int(m.kind), m.length): (m.main, m.soft) for m in follow} == want


def test_rule_12_3_a_wildcard_game_records_its_wild_rank_and_replays() -> None:
    game = Game(5, ROB_WILD)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    data = game.record().to_json()
    assert '"wild_rank": ' in data and '"wild": "random_rank"' in data
    again = replay(GameRecord.from_json(data))
    assert again.state_key() == game.state_key() and again.rules == game.rules
    assert pickle.loads(pickle.dumps(game.history)) == game.history  # stand-in plays pickle (the web's saved games)
    assert variant("rob", False, wildcard=True) is ROB_WILD and STANDARD.to_json() == Rules().to_json()
    assert "wild" not in STANDARD.to_json()


def test_rule_12_3_a_wild_rank_must_be_a_rank_3_to_2() -> None:
    with pytest.raises(ValueError, match="wild_rank"):
        Rules(wild_rank=13)
    with pytest.raises(ValueError, match="wild"):
        Rules(wild="sometimes")

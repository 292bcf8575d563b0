"""RULES §5 (the 14 combinations) and §6 (beating, readings) for tutor/engine/combos.py."""

from __future__ import annotations

import pytest
from tests.engine.ddz_reference import constructions, reference_beats, reference_readings
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import DECK_COUNTS, Cards, parse_rank
from tutor.engine.combos import Combo, Kind, beats, best_beating_reading, readings, why_not_beats


def kinds(text: str) -> set[tuple[str, int, str]]:
    """Readings of ``text`` as (label, length, main character)."""
    return {(Kind(c.kind).label, c.length, "3456789TJQKA2XD"[c.main]) for c in readings(Cards.parse(text))}


def combo(text: str, kind: str, length: int = 1, main: str | None = None) -> Combo:
    """The reading of ``text`` with this kind (and main, when several)."""
    matching = [
        c
        for c in readings(Cards.parse(text))
        if Kind(c.kind).label == kind and c.length == length and (main is None or c.main == parse_rank(main))
    ]
    assert len(matching) == 1, (text, kind, matching)
    return matching[0]


# --- RULES §5: one test per kind of the 14 -------------------------------------------


def test_rule_5_kind_1_single() -> None:
    assert kinds("7") == {("single", 1, "7")}
    assert kinds("D") == {("single", 1, "D")}


def test_rule_5_kind_2_pair() -> None:
    assert kinds("99") == {("pair", 1, "9")}
    assert kinds("98") == set()


def test_rule_5_kind_3_trio() -> None:
    assert kinds("QQQ") == {("trio", 1, "Q")}


def test_rule_5_kind_4_trio_single() -> None:
    assert kinds("QQQ5") == {("trio_single", 1, "Q")}
    assert kinds("222X") == {("trio_single", 1, "2")}


def test_rule_5_kind_5_trio_pair() -> None:
    assert kinds("QQQ55") == {("trio_pair", 1, "Q")}
    assert kinds("QQQXD") == set()


def test_rule_5_kind_6_straight() -> None:
    assert kinds("34567") == {("straight", 5, "7")}
    assert kinds("3456789TJQKA") == {("straight", 12, "A")}
    assert kinds("3456") == set()


def test_rule_5_kind_7_pair_chain() -> None:
    assert kinds("334455") == {("pair_chain", 3, "5")}
    assert kinds("3344") == set()


def test_rule_5_kind_8_airplane() -> None:
    assert kinds("777888") == {("airplane", 2, "8")}
    assert kinds("777999") == set()


def test_rule_5_kind_9_airplane_singles() -> None:
    assert kinds("7778883K") == {("airplane_singles", 2, "8")}


def test_rule_5_kind_10_airplane_pairs() -> None:
    assert kinds("77788833KK") == {("airplane_pairs", 2, "8")}


def test_rule_5_kind_11_four_two_singles() -> None:
    assert kinds("999935") == {("four_two_singles", 1, "9")}


def test_rule_5_kind_12_four_two_pairs() -> None:
    assert kinds("99993355") == {("four_two_pairs", 1, "9")}


def test_rule_5_kind_13_bomb() -> None:
    assert kinds("8888") == {("bomb", 1, "8")}


def test_rule_5_kind_14_rocket() -> None:
    assert kinds("XD") == {("rocket", 1, "D")}


def test_rule_5_there_are_14_kinds_with_the_json_labels() -> None:
    assert [k.label for k in Kind] == [
        "single", "pair", "trio", "trio_single", "trio_pair", "straight", "pair_chain", "airplane",
        "airplane_singles", "airplane_pairs", "four_two_singles", "four_two_pairs", "bomb", "rocket",
    ]  # fmt: skip


# --- RULES §5: chains and wings ---------------------------------------------------------


def test_rule_5_no_2_or_joker_in_chains() -> None:
    assert kinds("TJQKA") == {("straight", 5, "A")}
    assert kinds("JQKA2") == set()
    assert kinds("QQKKAA") == {("pair_chain", 3, "A")}
    assert kinds("KKAA22") == set()
    assert kinds("AAA222") == set()
    assert kinds("AAA22234") == set()
    assert kinds("KKKAAA34") == {("airplane_singles", 2, "A")}
    assert kinds("A2XD3") == set()


def test_rule_5_no_joker_pair() -> None:
    assert kinds("XD") == {("rocket", 1, "D")}  # a rocket, never a pair
    assert kinds("QQQXD") == set()  # so not a trio + pair either
    assert kinds("777888XD33") == set()


def test_rule_5_wing_never_has_main_rank() -> None:
    assert kinds("3333") == {("bomb", 1, "3")}  # not a trio + 1 with a 3 as wing
    assert kinds("33334") == set()
    assert kinds("33344455") == {("airplane_singles", 2, "4")}
    assert kinds("33334445") == set()  # a 3 as wing of the 333444 airplane
    assert kinds("33334444") == set()  # neither four + 2 pairs (same rank) nor an airplane


def test_rule_5_single_wings_may_repeat() -> None:
    assert kinds("77788833") == {("airplane_singles", 2, "8")}
    assert kinds("999933") == {("four_two_singles", 1, "9")}
    assert ("airplane_singles", 3, "5") in kinds("333444555666")


def test_rule_5_two_jokers_never_two_single_wings() -> None:
    assert kinds("9999XD") == set()
    assert kinds("777888XD") == set()
    assert kinds("9999XA") == {("four_two_singles", 1, "9")}


def test_rule_5_pair_wings_different_ranks() -> None:
    assert kinds("99993333") == set()
    assert kinds("7778883333") == set()  # 777888 + 3333: two pairs of one rank
    assert kinds("7778883344") == {("airplane_pairs", 2, "8")}


def test_rule_5_wings_never_mixed() -> None:
    assert kinds("999933K") == set()  # four + one pair + one single
    assert kinds("777888335") == set()
    assert kinds("777888999334") == {("airplane_singles", 3, "9")}  # 33 + 4 as three singles


def test_rule_5_four_two_is_not_a_bomb() -> None:
    four_two = combo("999935", "four_two_singles")
    assert Kind.BOMB not in {c.kind for c in readings(four_two.cards)}
    assert not beats(four_two, combo("33", "pair"))
    assert not beats(four_two, combo("3333", "bomb"))
    assert beats(combo("TTTT34", "four_two_singles"), four_two)
    assert not beats(combo("TTTT3344", "four_two_pairs"), four_two)  # other kind
    assert beats(combo("3333", "bomb"), four_two)
    assert beats(combo("XD", "rocket"), four_two)


# --- RULES §6: beating and readings -----------------------------------------------------


def test_rule_6_rocket_beats_everything() -> None:
    rocket = combo("XD", "rocket")
    for table in ["3", "22", "2222", "3456789TJQKA", "KKKAAA2233", "99993355"]:
        for reading in readings(Cards.parse(table)):
            assert beats(rocket, reading)
            assert not beats(reading, rocket)
    assert not beats(rocket, rocket)
    assert why_not_beats(combo("2222", "bomb"), rocket) == "nothing beats the rocket"


def test_rule_6_bomb_order() -> None:
    bombs = [combo(c * 4, "bomb") for c in "3456789TJQKA2"]
    for i, low in enumerate(bombs):
        for high in bombs[i + 1 :]:
            assert beats(high, low)
            assert not beats(low, high)
    assert beats(bombs[0], combo("3456789TJQKA", "straight", 12))
    assert not beats(bombs[0], bombs[0])


def test_rule_6_same_kind_same_length() -> None:
    assert beats(combo("45678", "straight", 5), combo("34567", "straight", 5))
    assert not beats(combo("456789", "straight", 6), combo("34567", "straight", 5))
    assert not beats(combo("99", "pair"), combo("888", "trio"))
    assert not beats(combo("QQQ55", "trio_pair"), combo("JJJ3", "trio_single"))
    assert beats(combo("KKKAAA33", "airplane_singles", 2), combo("333444KA", "airplane_singles", 2))
    assert not beats(combo("34567", "straight", 5), combo("34567", "straight", 5))
    assert "units" in why_not_beats(combo("456789", "straight", 6), combo("34567", "straight", 5))


def test_rule_6_readings_333444555666() -> None:
    assert kinds("333444555666") == {
        ("airplane", 4, "6"),
        ("airplane_singles", 3, "5"),  # 333444555 + 6 6 6
        ("airplane_singles", 3, "6"),  # 444555666 + 3 3 3
    }


def test_rule_6_follow_takes_highest_beating_reading() -> None:
    cards = Cards.parse("333444555666")
    # Against a table topped by 5 (the lowest possible) only the 6-topped reading beats.
    best = best_beating_reading(cards, combo("333444555789", "airplane_singles", 3))
    assert best == Combo(cards.packed, Kind.AIRPLANE_SINGLES, 3, parse_rank("6"))
    # Against a table topped by 6 none does.
    assert best_beating_reading(cards, combo("444555666789", "airplane_singles", 3)) is None
    assert best_beating_reading(cards, combo("333444555666", "airplane", 4)) is None


def test_rule_6_a_play_under_a_lower_reading_is_what_the_next_player_must_beat() -> None:
    lower = combo("333444555666", "airplane_singles", 3, "5")
    higher = combo("333444555666", "airplane_singles", 3, "6")
    assert beats(higher, lower)
    assert beats(combo("444555666777", "airplane_singles", 3, "6"), lower)


def test_rule_6_no_reading_for_non_combinations() -> None:
    for text in ["34", "3345", "3456", "33345", "XD3", ""]:
        assert readings(Cards.parse(text)) == []


# --- property tests against the independent constructor ---------------------------------

@st.composite
def small_sets(draw: st.DrawFn) -> tuple[int, ...]:
    """Any card set of 1 to 20 cards: each rank's count drawn in turn, never past 20 cards in all.

    (The counts were drawn as one tuple filtered to 1-20 cards before: most draws held more, and Hypothesis threw
    away more draws than it kept and gave up on many runs: docs/testing.md, round 14.)
    """
    counts: list[int] = []
    for most in DECK_COUNTS:
        counts.append(draw(st.integers(0, min(most, 20 - sum(counts)))))
    if not any(counts):
        counts[draw(st.integers(0, len(counts) - 1))] = 1
    return tuple(counts)


@st.composite
def shaped_sets(draw: st.DrawFn) -> tuple[int, ...]:
    """Card sets biased towards combinations: a few ranks, mostly 3s and 4s of a kind."""
    counts = [0] * 15
    for _ in range(draw(st.integers(1, 6))):
        rank = draw(st.integers(0, 14))
        counts[rank] = min(DECK_COUNTS[rank], draw(st.sampled_from([1, 2, 3, 3, 4])))
    if draw(st.booleans()):
        low = draw(st.integers(0, 10))
        high = draw(st.integers(low + 1, min(11, low + 5)))
        for rank in range(low, high + 1):
            counts[rank] = max(counts[rank], draw(st.sampled_from([1, 2, 3, 3])))
    return tuple(counts)


def _engine_readings(counts: tuple[int, ...]) -> set[tuple[str, int, int]]:
    return {(Kind(c.kind).label, c.length, c.main) for c in readings(Cards.from_counts(counts))}


@settings(max_examples=200, deadline=None)
@given(st.one_of(small_sets(), shaped_sets()))
def test_rule_5_readings_agree_with_brute_force_construction(counts: tuple[int, ...]) -> None:
    assert _engine_readings(counts) == reference_readings(counts)


@st.composite
def combination_pairs(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two card sets that ARE combinations (ones the reference builds from drawn hands).

    Plain drawn sets are rarely combinations, so the loops below would mostly run empty;
    half the time the second shares a kind with the first (any length), the case beating is about.
    """
    first = constructions(draw(st.one_of(small_sets(), shaped_sets())))
    a = draw(st.sampled_from(sorted(first)))
    second = constructions(draw(st.one_of(small_sets(), shaped_sets())))
    if draw(st.booleans()):
        same = {kind for kind, _, _ in first[a]}
        second = {cards: r for cards, r in {**first, **second}.items() if same & {kind for kind, _, _ in r}}
    return a, draw(st.sampled_from(sorted(second)))


# 300 examples (150 before round 14): the cheaper draws of small_sets pay for them, and with 150 the new draws
# missed a bomb beating the same bomb (`>=` for `>`), which 300 catch (docs/testing.md, round 14).
@settings(max_examples=300, deadline=None)
@given(combination_pairs())
def test_rule_6_beats_agrees_with_the_rules_on_every_pair_of_readings(
    pair: tuple[tuple[int, ...], tuple[int, ...]]
) -> None:
    a, b = pair
    assert readings(Cards.from_counts(a)) and readings(Cards.from_counts(b))
    for play in readings(Cards.from_counts(a)):
        for table in readings(Cards.from_counts(b)):
            expected = reference_beats((Kind(play.kind).label, play.length, play.main),
                                       (Kind(table.kind).label, table.length, table.main))  # fmt: skip
            assert beats(play, table) == expected


@pytest.mark.parametrize("label", [k.label for k in Kind])
def test_kind_from_label_round_trip(label: str) -> None:
    assert Kind.from_label(label).label == label


def test_kind_from_label_names_the_bad_label() -> None:
    with pytest.raises(ValueError, match="'plane'"):
        Kind.from_label("plane")

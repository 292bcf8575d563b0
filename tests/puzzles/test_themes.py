"""One test per theme predicate, on hand-written positions and lines."""

from __future__ import annotations

from tutor.puzzles.themes import (
    PREDICATES,
    MainLine,
    Theme,
    as_farmer,
    as_landlord,
    beat_or_pass,
    bomb_finish,
    boss_moves_first,
    chain_play,
    feed_the_partner,
    heads_up,
    landlord_one_card,
    long_endgame,
    pass_to_win,
    rocket,
    split_combination,
    tag,
    team_endgame,
    title_for,
    two_play_win,
    wing_choice,
)

from .helpers import make_puzzle


def line(players: str, moves: list[str], beat: str | None = None, beat_by: int | None = None) -> MainLine:
    return MainLine(make_puzzle(players, moves, beat, beat_by))


def test_every_theme_has_exactly_one_predicate() -> None:
    assert set(PREDICATES) == set(Theme)


def test_heads_up_and_team_endgame() -> None:
    two = line("L:33 F:4", ["33"])
    three = line("L:33 F:4 F:5", ["33"])
    assert heads_up(two) and not team_endgame(two)
    assert team_endgame(three) and not heads_up(three)


def test_as_landlord_and_as_farmer() -> None:
    assert as_landlord(line("L:33 F:4", ["33"]))
    assert as_farmer(line("F:33 L:4", ["33"]))


def test_bomb_finish_bomb_then_out() -> None:
    assert bomb_finish(line("L:33334444 F:5", ["3333", "pass", "4444"]))
    assert not bomb_finish(line("L:3344 F:5", ["33", "pass", "44"]))


def test_rocket_in_the_solution() -> None:
    assert rocket(line("L:XD3 F:5", ["XD", "pass", "3"]))
    assert not rocket(line("L:X3 F:5", ["X", "pass", "3"]))


def test_two_play_win_and_long_endgame() -> None:
    two = line("L:33A F:5", ["A", "pass", "33"])
    four = line("L:3A2XD F:4", ["XD", "pass", "2", "pass", "A", "pass", "3"])
    assert two_play_win(two) and not long_endgame(two)
    assert long_endgame(four) and not two_play_win(four)


def test_boss_moves_first_needs_an_unbeatable_play_that_is_not_the_last() -> None:
    assert boss_moves_first(line("L:2A3 F:KQ", ["2", "pass", "A", "pass", "3"]))
    assert not boss_moves_first(line("L:K3 F:A", ["K", "A"]))  # the farmer beats it


def test_feed_the_partner_partner_goes_out() -> None:
    # Farmer 0 leads a low single, the landlord passes, the partner goes out with its 4.
    assert feed_the_partner(line("F:3K L:2 F:4", ["3", "pass", "4"]))
    assert not feed_the_partner(line("F:3 L:2 F:4", ["3"]))


def test_landlord_one_card_only_for_the_farmers() -> None:
    assert landlord_one_card(line("F:33 L:2 F:4", ["33"]))
    assert not landlord_one_card(line("L:2 F:33", ["2"]))


def test_beat_or_pass_and_pass_to_win() -> None:
    with_table = line("F:AA9 L:QQ2", ["pass", "QQ", "AA", "pass", "9"], beat="3", beat_by=1)
    assert beat_or_pass(with_table)
    assert pass_to_win(with_table)
    assert not pass_to_win(line("F:AA9 L:QQ2", ["9", "2"], beat="3", beat_by=1))


def test_split_combination_breaks_a_pair() -> None:
    assert split_combination(line("L:33A F:4", ["3", "4"]))
    assert not split_combination(line("L:33A F:4", ["33", "pass", "A"]))


def test_wing_choice_needs_another_wing_with_the_same_body() -> None:
    assert wing_choice(line("L:3334A F:5", ["3334", "pass", "A"]))
    assert not wing_choice(line("L:3334 F:5", ["3334"]))


def test_chain_play_for_straights_pair_chains_and_airplanes() -> None:
    assert chain_play(line("L:345678 F:9", ["34567", "pass", "8"]))
    assert not chain_play(line("L:33 F:4", ["33"]))


def test_tag_aggregates_in_enum_order_and_titles_follow() -> None:
    puzzle = make_puzzle("L:33334444 F:5", ["3333", "pass", "4444"])
    themes = tag(puzzle)
    assert themes == ["heads_up", "as_landlord", "bomb_finish", "two_play_win", "boss_moves_first"]
    assert title_for(themes, puzzle) == "Landlord to move: bomb finish"

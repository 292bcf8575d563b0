"""ddz classify / moves / deal (tutor/cli/rules_commands.py), driven through click's CliRunner."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.ddz_reference import (
    constructions,
    counts_of,
    random_hand,
    reference_follow_moves,
    reference_lead_moves,
    text_of,
)
from tutor.cli.main import main
from tutor.engine.deal import deal as engine_deal

RANKS = "3456789TJQKA2XD"
ENV = {"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"}


def run(*args: str) -> Result:
    return CliRunner(env=ENV).invoke(main, list(args), catch_exceptions=False)


def as_reference(objects: list[dict[str, object]]) -> set[tuple[tuple[int, ...], str, int, int]]:
    """JSON moves → the reference's (counts, kind, length, main), checking the JSON shape."""
    out = set()
    for obj in objects:
        assert set(obj) == {"cards", "kind", "length", "main"}
        cards, main = str(obj["cards"]), str(obj["main"])
        assert cards == text_of(counts_of(cards)), "cards must be canonical, low to high"
        assert len(main) == 1
        out.add((counts_of(cards), str(obj["kind"]), int(obj["length"]), RANKS.index(main)))  # type: ignore[call-overload]
    return out


# --- classify ----------------------------------------------------------------------------


def test_classify_lists_every_reading_as_json() -> None:
    result = run("classify", "6665554443 33", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [
        {"cards": "333444555666", "kind": "airplane", "length": 4, "main": "6"},
        {"cards": "333444555666", "kind": "airplane_singles", "length": 3, "main": "5"},
        {"cards": "333444555666", "kind": "airplane_singles", "length": 3, "main": "6"},
    ]


def test_classify_human_output_names_the_kinds() -> None:
    result = run("classify", "QQQ5")
    assert result.exit_code == 0
    assert "trio + 1" in result.stdout


def test_classify_not_a_combination_exits_1_and_says_so() -> None:
    result = run("classify", "34")
    assert result.exit_code == 1
    assert "34 is not a combination" in result.stdout
    result = run("classify", "34", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == []


# --- moves -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20))
def test_moves_json_is_exactly_the_reference_lead_moves(seed: int, size: int) -> None:
    hand = random_hand(random.Random(seed), size)
    result = run("moves", text_of(hand), "--json")
    assert result.exit_code == 0
    objects = json.loads(result.stdout)
    assert len(objects) == len(as_reference(objects)), "duplicates"
    assert as_reference(objects) == reference_lead_moves(hand)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_moves_json_with_beat_is_exactly_the_reference_follow_moves(seed: int) -> None:
    rng = random.Random(seed)
    deck_hand = random_hand(rng, 34)
    cards = [r for r, n in enumerate(deck_hand) for _ in range(n)]
    rng.shuffle(cards)
    hand = counts_of("".join(sorted((RANKS[r] for r in cards[:17]), key=RANKS.index)))
    other = counts_of("".join(sorted((RANKS[r] for r in cards[17:]), key=RANKS.index)))
    table_cards, table_readings = rng.choice(sorted(constructions(other).items()))
    kind, length, main = max(sorted(table_readings), key=lambda r: (r[0], r[1], r[2]))
    # The command takes the highest reading of the chosen kind, like a play does.
    main = max(m for k, n, m in table_readings if k == kind)
    result = run("moves", text_of(hand), "--beat", text_of(table_cards), "--beat-kind", kind, "--json")
    assert result.exit_code == 0, result.output
    assert as_reference(json.loads(result.stdout)) == reference_follow_moves(hand, (kind, length, main))


def test_moves_beat_with_several_readings_says_so_and_lists_them() -> None:
    result = run("moves", "777888999TTTJQKA", "--beat", "333444555666")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: ") and "3 readings" in lines[0]
    assert len(lines) == 4 and all("--beat-kind" in line for line in lines[1:])
    result = run("moves", "777888999TTTJQKA", "--beat", "333444555666", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)
    assert "readings" in error["error"] and len(error["readings"]) == 3


def test_moves_beat_kind_chooses_the_reading() -> None:
    result = run("moves", "777888999JQ", "--beat", "333444555666", "--beat-kind", "airplane", "--json")
    assert json.loads(result.stdout) == []
    result = run("moves", "777888999TTTJQKA", "--beat", "333444555666", "--beat-kind", "airplane", "--json")
    assert [m["cards"] for m in json.loads(result.stdout)] == ["777888999TTT"]


def test_moves_human_output_fits_80_columns_without_colour() -> None:
    result = run("moves", "33344455566677788XD2")
    assert result.exit_code == 0
    assert "\x1b[" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    for label in ["single", "airplane + singles of 3", "rocket"]:
        assert label in result.stdout


def test_moves_nothing_beats_the_rocket() -> None:
    result = run("moves", "2222", "--beat", "XD")
    assert result.exit_code == 0
    assert "pass" in result.stdout.lower()


# --- deal --------------------------------------------------------------------------------


def test_deal_json_is_the_engine_deal() -> None:
    result = run("deal", "42", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    dealt = engine_deal(42)
    assert data == {
        "number": 42,
        "hands": [str(h) for h in dealt.hands],
        "kitty": str(dealt.kitty),
        "first_bidder": dealt.first_bidder,
    }
    assert sorted(counts_of("".join(data["hands"]) + data["kitty"])) == sorted((4,) * 13 + (1, 1))


def test_deal_human_output_shows_hands_kitty_and_first_bidder() -> None:
    result = run("deal", "0")
    assert result.exit_code == 0
    dealt = engine_deal(0)
    for hand in (*dealt.hands, dealt.kitty):
        assert str(hand) in result.stdout
    assert "First to bid" in result.stdout


def test_rules_12_4_deal_for_four_players_shows_four_hands_of_25_and_a_kitty_of_8() -> None:
    data = json.loads(run("deal", "1", "--players", "4", "--json").stdout)
    assert [len(h) for h in data["hands"]] == [25] * 4 and len(data["kitty"]) == 8
    assert sorted(counts_of("".join(data["hands"]) + data["kitty"])) == sorted((8,) * 13 + (2, 2))
    human = run("deal", "1", "--players", "4")
    assert human.exit_code == 0 and "across" in human.stdout and all(h in human.stdout for h in data["hands"])


# --- bad input: exit 2, one line naming the problem, never a traceback ---------------------


@pytest.mark.parametrize(
    "args, named",
    [
        (["classify", "33Z"], "'Z'"),
        (["classify", ""], "no cards"),
        (["classify", "33333"], "too many"),
        (["moves", "3?"], "'?'"),
        (["moves", "3344", "--beat", "34"], "'34'"),
        (["moves", "3344", "--beat", "5Y"], "'Y'"),
        (["moves", "3344", "--beat", "55", "--beat-kind", "plane"], "'plane'"),
        (["moves", "3344", "--beat", "55", "--beat-kind", "trio"], "trio"),
        (["moves", "3344", "--beat-kind", "pair"], "--beat"),
        (["moves", "3333", "--beat", "33"], "3"),
        (["deal", "abc"], "'abc'"),
        (["deal", "-1"], "'-1'"),
        (["deal", "1.5"], "'1.5'"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], named: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert named in lines[0]
    assert "Traceback" not in result.output


def test_rule_12_3_classify_wild_names_every_reading_with_its_stand_ins() -> None:
    result = run("classify", "7779", "--wild", "9")
    assert result.exit_code == 0
    assert "soft bomb" in result.output and "7 7 7 [9 as 7]" in result.output and "trio + 1" in result.output
    found = json.loads(run("classify", "7779", "--wild", "9", "--json").output)
    assert {"cards": "7779", "kind": "bomb", "length": 1, "main": "7", "as": "7", "soft": True} in found
    assert json.loads(run("classify", "7779", "--json").output) == [
        {"cards": "7779", "kind": "trio_single", "length": 1, "main": "7"}]  # without --wild: the classic game
    bad = run("classify", "77", "--wild", "X")
    assert bad.exit_code == 2 and "--wild 'X'" in bad.output


def test_rule_12_3_moves_wild_lists_the_stand_in_plays_and_both_readings_when_following() -> None:
    lead = json.loads(run("moves", "45689", "--wild", "9", "--json").output)
    assert {"cards": "45689", "kind": "straight", "length": 5, "main": "8", "as": "7"} in lead
    follow = json.loads(run("moves", "7779", "--wild", "9", "--beat", "6663", "--json").output)
    assert sorted(m["kind"] for m in follow) == ["bomb", "trio_single"]  # the player chooses (RULES §12.3)
    shown = run("moves", "7779", "--wild", "9", "--beat", "6663")
    assert "soft bomb" in shown.output and "7779 (7 7 7 [9 as 7])" in shown.output

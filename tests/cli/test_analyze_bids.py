"""``ddz analyze --hand … --auction …``: a bidding position judged by expected score (issue 13; RULES §3, §7)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tutor.cli.main import main

STRONG = "33456789TJQKA22XD"


def _run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.stdout, result.stderr


def test_rule_3_candidates_are_pass_and_the_bids_above_the_high_bid_with_expected_scores() -> None:
    code, out, _ = _run(["analyze", "--hand", STRONG, "--auction", "right:1,left:pass", "--move", "pass", "--json"])
    assert code == 0, out
    data = json.loads(out)
    assert {"candidates", "move", "remarks", "samples"} <= set(data) and data["unit"] == "base stake"
    assert sorted(c["move"] for c in data["candidates"]) == ["2", "3", "pass"]
    scores = [c["expected_score"] for c in data["candidates"]]
    assert scores == sorted(scores, reverse=True) and data["candidates"][0]["move"] == "3"
    assert data["move"]["move"] == "pass" and data["move"]["verdict"] in ("inaccuracy", "mistake", "blunder")
    assert data["move"]["loss"] == pytest.approx(scores[0] - data["move"]["expected_score"], abs=1e-3)
    assert data["move"]["noise"] >= 0 and isinstance(data["move"]["flagged"], bool)  # issue 20: the noise of the loss


def test_the_in_game_bid_hint_and_analyze_agree_on_the_first_candidate() -> None:
    from tutor.coach import Coach
    from tutor.engine.deal import deal
    from tutor.engine.game import Game

    number = next(n for n in range(100) if deal(n).first_bidder == 0)
    view = Game(number).view(0)
    first = Coach(True, rules=view.rules).bid_hints(view)[0][0]
    code, out, _ = _run(["analyze", "--hand", str(view.hand), "--auction", "", "--json"])
    assert code == 0 and json.loads(out)["candidates"][0]["move"] == ("pass" if first == 0 else str(first))


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--auction", "right:4"], "bad --auction part"),
        (["--auction", "you:1"], "your own is --move"),
        (["--auction", "left:1,right:2"], "right then left"),
        (["--auction", "right:1"], "right then left"),
        (["--auction", "right:2,left:1"], "must be higher than 2"),
        (["--auction", "right:1,left:3"], "ends the auction"),
        (["--auction", "right:pass,left:2", "--move", "1"], "not a bid you can make"),
        (["--auction", "", "--move", "four"], "bad --move"),
        (["--auction", "", "--landlord", "right"], "--hand and --auction only"),
    ],
)
def test_bad_auction_descriptions_are_one_line_exit_2(extra: list[str], says: str) -> None:
    code, out, err = _run(["analyze", "--hand", STRONG, *extra])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_a_bidding_hand_is_the_17_dealt_cards() -> None:
    code, _, err = _run(["analyze", "--hand", "3456789TJQKA22XD", "--auction", ""])
    assert code == 2 and "holds 16 cards" in err and len(err.strip().splitlines()) == 1


def test_the_bidding_analysis_reads_in_russian() -> None:
    code, out, _ = _run(["analyze", "--hand", STRONG, "--auction", "right:1,left:pass", "--lang", "ru"])
    assert code == 0 and "Ожидаемый счёт" in out and "ставка 3" in out and "пас" in out


def test_a_stored_games_bid_is_analyzed_with_at_0(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.sessions.test_mistakes_bids import _bid_3_game, _stored
    from tutor.store import Store

    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    with Store.open() as store:
        game_id = _stored(store, _bid_3_game())
    code, out, _ = _run(["analyze", str(game_id), "--at", "0", "--json"])
    assert code == 0, out
    data = json.loads(out)
    assert data["move"]["move"] == "3" and data["move"]["verdict"] in ("inaccuracy", "mistake", "blunder")
    assert [c["move"] for c in data["candidates"]][0] != "3"
    code, out, _ = _run(["analyze", str(game_id), "--at", "0", "--move", "pass"])
    assert code == 0 and "Your choice pass: 0 points" in out


def test_the_others_bid_as_the_level_given() -> None:
    """--level: the rest of the auction by that level's bid policy (a game at an easy table)."""
    args = ["analyze", "--hand", "3345567899TJQKA2X", "--auction", "right:1,left:pass", "--json"]
    medium, easy = _run(args), _run([*args, "--level", "easy"])
    assert medium[0] == easy[0] == 0
    assert json.loads(medium[1]) != json.loads(easy[1])  # other samples explain the bids, other auctions follow
    code, _, err = _run(["analyze", "--hand", "233", "--landlord", "right", "--counts", "right=1,left=1",
                         "--level", "easy"])  # fmt: skip
    assert code == 2 and "--level is for a bidding position" in err

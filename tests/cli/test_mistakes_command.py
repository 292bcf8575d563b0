"""``ddz mistakes GAME_ID`` and the final card's "learn from your mistakes": replay, accept good moves, store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.coach.positions import puzzle_game
from tutor.cli.main import main
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore


@pytest.fixture()
def blunder_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """A stored game: we (a farmer) lead a single 5 into the one-card landlord, who goes out."""
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    game = puzzle_game("F:55A L:9 F:3")
    game.play(next(m for m in game.legal_moves() if m.text == "5"))
    game.play(next(m for m in game.legal_moves() if m.text == "9"))
    assert game.is_over
    score = game.score()
    with Store.open() as store:
        return GameStore(store).finish(
            FinishedGame(deal=0, level="hard", role="farmer", won=False, bid=1, multiplier=score.multiplier,
                         cost=score.cost, delta=score.deltas[0], scored=False, hints=0, undos=0,
                         record=game.record().to_dict())  # fmt: skip
        )


def test_the_blunder_is_listed_with_the_better_move(blunder_game: int) -> None:
    result = CliRunner().invoke(main, ["mistakes", str(blunder_game), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["move_number"], r["move"], r["verdict"]) for r in rows] == [(1, "5", "blunder")]
    assert rows[0]["better"] in ("55", "A") and rows[0]["better_chance"] == 1.0
    # Issue 20: the moment keeps the precision it was measured with (here every sample agreed).
    assert rows[0]["noise"] == 0.0 and 0 < rows[0]["win_chance_noise"] <= 0.07


def test_replaying_accepts_a_good_move_and_remembers_it(blunder_game: int) -> None:
    result = CliRunner().invoke(main, ["mistakes", str(blunder_game)], input="5\nA\n")
    assert result.exit_code == 0, result.output
    assert "there is better" in result.output and "Good: A wins 100%" in result.output
    with Store.open() as store:
        (moment,) = MistakeStore(store).for_game(blunder_game)
    assert moment.solved and moment.tries == 2


def test_bad_game_ids_are_one_line() -> None:
    for args in (["mistakes", "abc"], ["mistakes", "424242"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1

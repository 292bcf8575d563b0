"""``ddz store export`` / ``import``: one learner's data, SQLite → PostgreSQL → SQLite without a change (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.store import Store
from tutor.store.club import Club
from tutor.store.games import GameStore

from tests.store.filling import fill


def _ddz(home: Path, *args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"DDZ_HOME": str(home), "DDZ_DB": ""})


def _body(path: Path) -> list[str]:
    """The export's rows and end line (the header says when and whose: it differs by design)."""
    return path.read_text(encoding="utf-8").splitlines()[1:]


def test_a_learner_moves_sqlite_to_postgresql_to_sqlite_losslessly(tmp_path: Path, pg_cluster: Any) -> None:
    first, second = tmp_path / "home1", tmp_path / "home2"
    with Store.open(first / "ddz.sqlite3") as store:
        fill(store, "x")
        store.set_setting("ratio", 0.1 + 0.2)  # a float that only an exact writer keeps
    out = _ddz(first, "store", "export", str(tmp_path / "a.jsonl"))
    assert out.exit_code == 0 and "Exported 11 rows of learner local" in out.output, out.output
    url = pg_cluster.url()
    with Club.open(url) as club:
        club.users.add("anna", "long-enough")
    out = _ddz(first, "store", "import", str(tmp_path / "a.jsonl"), "--learner", "anna", "--db", url)
    assert out.exit_code == 0 and "Imported 11 rows into learner anna" in out.output, out.output
    assert _ddz(first, "store", "export", str(tmp_path / "b.jsonl"), "--learner", "anna", "--db", url).exit_code == 0
    assert _body(tmp_path / "b.jsonl") == _body(tmp_path / "a.jsonl")
    assert json.loads((tmp_path / "b.jsonl").read_text().splitlines()[0])["learner"] == "anna"
    assert _ddz(second, "store", "import", str(tmp_path / "b.jsonl")).exit_code == 0
    assert _ddz(second, "store", "export", str(tmp_path / "c.jsonl")).exit_code == 0
    assert _body(tmp_path / "c.jsonl") == _body(tmp_path / "a.jsonl")
    with Store.open(second / "ddz.sqlite3") as store:  # and it plays on: the game in progress resumes
        games = GameStore(store)
        (open_game,) = games.unfinished()
        games.claim(open_game.id, version=open_game.version)
        games.save_current({"tag": "x", "open": True, "more": 1})
        assert store.get_setting("ratio") == 0.1 + 0.2 and games.running_score() == 10


def test_bad_files_are_one_line_exit_2_and_import_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Store.open(home / "ddz.sqlite3") as store:
        fill(store, "x")
    good = tmp_path / "good.jsonl"
    assert _ddz(home, "store", "export", str(good)).exit_code == 0
    lines = good.read_text(encoding="utf-8").splitlines()
    fresh = tmp_path / "fresh"
    cases = {
        "truncated": (lines[:-2], "incomplete"),
        "no end": (lines[:-1], "incomplete"),
        "not json": ([lines[0], "{oops", *lines[1:]], "line 2 cannot be imported (not JSON)"),
        "a wrong type": ([line.replace('"won": 1', '"won": "yes"') for line in lines], "games.won"),
        "another format": (['{"format": "other"}', *lines[1:]], "is not a ddz-tutor export"),
        "a newer version": ([lines[0].replace('"version": 1', '"version": 9'), *lines[1:]], "version '9'"),
        "an unknown table": ([lines[0], '{"table": "users", "row": {}}', *lines[1:]], "not a table row"),
    }
    for name, (changed, words) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join(changed) + "\n", encoding="utf-8")
        out = _ddz(fresh, "store", "import", str(path))
        assert out.exit_code == 2 and words in out.output and len(out.output.strip().splitlines()) == 1, (name, out.output)
    with Store.open(fresh / "ddz.sqlite3") as store:
        assert GameStore(store).history() == [] and store.settings() == {}
    out = _ddz(home, "store", "import", str(good))  # into a learner with data: refused, unless --replace
    assert out.exit_code == 2 and "--replace" in out.output
    assert _ddz(home, "store", "import", str(good), "--replace").exit_code == 0
    with Store.open(home / "ddz.sqlite3") as store:
        assert len(GameStore(store).history()) == 1 and len(GameStore(store).unfinished()) == 1


@pytest.mark.parametrize(("lang", "n", "words"), [("en", 1, "1 row of"), ("en", 14, "14 rows of"),
                                                 ("ru", 1, "1 строка"), ("ru", 3, "3 строки"), ("ru", 14, "14 строк"),
                                                 ("ru", 21, "21 строка")])
def test_the_counts_are_plural_right(lang: str, n: int, words: str) -> None:
    from tutor.i18n import speaking, t

    with speaking(lang):
        assert words in t("store.exported", n=n, learner="anna", path="a.jsonl")

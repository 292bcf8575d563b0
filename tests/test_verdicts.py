"""The verdict cache of the costly proofs (tests/verdicts.py): a changed source or input is proven again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tests.verdicts as verdicts


def test_a_verdict_holds_only_while_every_recorded_source_is_unchanged(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verdicts, "ROOT", tmp_path)
    monkeypatch.setattr(verdicts, "FOLDER", tmp_path / "verdicts")
    source = tmp_path / "solver.py"
    source.write_text("WIN = True\n")
    key = verdicts.digest({"puzzle": "L:3 F:4", "max_nodes": 10})
    (tmp_path / "verdicts").mkdir()
    (tmp_path / "verdicts" / "check.json").write_text(json.dumps({
        "sources": {"solver.py": verdicts._file_hash(source)}, "verdicts": {key: {"id": "a"}}}))
    assert verdicts.Verdicts("check").get(key) == {"id": "a"}
    assert verdicts.Verdicts("check").get(verdicts.digest({"puzzle": "L:3 F:5", "max_nodes": 10})) is None
    source.write_text("WIN = False\n")
    stale = verdicts.Verdicts("check")
    assert stale.get(key) is None and "solver.py" in stale.note()
    source.unlink()
    assert verdicts.Verdicts("check").get(key) is None
    assert verdicts.Verdicts("missing").get(key) is None


def test_the_verdict_files_record_the_solver_and_the_engine() -> None:
    """Written by ``python -m tests.verdicts`` in a process that ran the checks: their code is recorded."""
    for check, needed in (("puzzles", "tutor/solver/_native.c"), ("lessons", "tutor/lessons/validate.py")):
        data = json.loads((verdicts.FOLDER / f"{check}.json").read_text())
        assert needed in data["sources"] and "tutor/engine/cards.py" in data["sources"]
        assert data["verdicts"]

"""``ddz users add|list|remove`` on a club's database (a SQLite file here: the command is the same on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def run(args: list[str], stdin: str = "") -> Any:
    from click.testing import CliRunner

    from tutor.cli.main import main

    return CliRunner().invoke(main, args, input=stdin)


def test_add_list_remove_with_the_password_from_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "club.sqlite3")
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    added = run(["users", "add", "anna", "--db", db], "a-long-secret\n")
    assert added.exit_code == 0, added.output
    assert added.output.strip() == "added learner anna" and "a-long-secret" not in added.output
    monkeypatch.setenv("DDZ_DB", db)  # the variable does what --db does
    assert run(["users", "add", "maria", "--teacher"], "another-secret\n").exit_code == 0
    twice = run(["users", "add", "anna"], "a-long-secret\n")
    assert twice.exit_code == 2 and twice.output.strip().endswith("an account named anna already exists")
    short = run(["users", "add", "ivan"], "short\n")
    assert short.exit_code == 2 and "shorter than 8" in short.output
    empty = run(["users", "add", "ivan"], "")
    assert empty.exit_code == 2 and "no password" in empty.output
    listed = run(["users", "list"])
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert lines[1].split() == ["anna", "learner"] and lines[2].split() == ["maria", "teacher"]
    assert lines[-1] == "2 accounts"
    from tutor.store.club import Club

    with Club.open(db) as club:
        assert club.users.verify("anna", "a-long-secret") is not None
    gone = run(["users", "remove", "anna"])
    assert gone.exit_code == 0 and "removed anna" in gone.output
    unknown = run(["users", "remove", "anna"])
    assert unknown.exit_code == 2 and "no account is named 'anna'" in unknown.output
    assert run(["users", "list"]).output.splitlines()[-1] == "1 account"


def test_without_a_database_the_commands_say_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DDZ_DB", raising=False)
    result = run(["users", "list"])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "--db" in result.output
    workers = run(["serve", "--no-open", "--workers", "2"])
    assert workers.exit_code == 2 and "--workers needs club mode" in workers.output

"""``ddz users add|list|remove`` on a club's database (a SQLite file here: the command is the same on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 at its smallest parameters: these tests check the commands (who is added, asked, changed, printed),
    not the hash's cost, which tests/store/test_club.py checks with the real hasher.  The default parameters cost
    ~0.15 s of CPU a hash or a check, 14 of them here: ~2 s of this file's 2.4 (round 15)."""
    from tests.web.test_club import cheap_hashes

    cheap_hashes(monkeypatch)


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
    gone = run(["users", "remove", "anna", "--yes"])
    assert gone.exit_code == 0 and "removed anna" in gone.output
    unknown = run(["users", "remove", "anna", "--yes"])
    assert unknown.exit_code == 2 and "no account is named 'anna'" in unknown.output
    assert run(["users", "list"]).output.splitlines()[-1] == "1 account"


def test_without_a_database_the_commands_say_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DDZ_DB", raising=False)
    result = run(["users", "list"])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "--db" in result.output
    workers = run(["serve", "--no-open", "--workers", "2"])
    assert workers.exit_code == 2 and "--workers needs club mode" in workers.output


def test_remove_asks_first_and_scripts_say_yes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_DB", str(tmp_path / "club.sqlite3"))
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    assert run(["users", "add", "anna"], "a-long-secret\n").exit_code == 0
    asked = run(["users", "remove", "anna"])  # no terminal to ask at: refused, nothing removed
    assert asked.exit_code == 2 and "--yes" in asked.output and len(asked.output.strip().splitlines()) == 1
    assert "anna" in run(["users", "list"]).output
    import click

    import tutor.cli.users

    monkeypatch.setattr(tutor.cli.users, "can_ask", lambda: True)

    monkeypatch.setattr(click, "confirm", lambda *args, **kwargs: False)
    kept = run(["users", "remove", "anna"])
    assert kept.exit_code == 2 and "nothing removed" in kept.output
    assert run(["users", "remove", "anna", "--yes"]).exit_code == 0
    assert "anna" not in run(["users", "list"]).output


def test_passwd_and_unlock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.store.club import Club
    from tutor.store.sign_ins import SignInFailures

    db = str(tmp_path / "club.sqlite3")
    monkeypatch.setenv("DDZ_DB", db)
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    assert run(["users", "add", "Anna"], "a-long-secret\n").exit_code == 0
    with Club.open(db) as club:
        token = club.users.create_session(club.users.get("anna").id)
        with club.scratch() as store:
            SignInFailures(store).failed("name:anna", "addr:10.0.0.1")
            SignInFailures(store).failed("name:anna", "addr:10.0.0.1")
    changed = run(["users", "passwd", "anna"], "a-new-secret-1\n")
    assert changed.exit_code == 0 and changed.output.strip() == "new password for Anna; their sign-ins have ended"
    unlocked = run(["users", "unlock", "ANNA"])
    assert unlocked.exit_code == 0 and unlocked.output.strip() == "Anna: 2 failed sign-ins forgotten; they can sign in now"
    with Club.open(db) as club:
        assert club.users.verify("anna", "a-new-secret-1") is not None and club.users.verify("anna", "a-long-secret") is None
        assert club.users.user_for_session(token) is None
        with club.scratch() as store:
            assert SignInFailures(store).count("name:anna", __import__("datetime").timedelta(days=1)) == 0
            assert SignInFailures(store).count("addr:10.0.0.1", __import__("datetime").timedelta(days=1)) == 2
    assert run(["users", "unlock", "nobody"]).exit_code == 2


def test_import_a_class_from_csv_with_passwords_printed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.store.club import Club

    db = str(tmp_path / "club.sqlite3")
    monkeypatch.setenv("DDZ_DB", db)
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    bad = tmp_path / "bad.csv"
    bad.write_text("name;class\nivan;7b\nmaria;7 b\n", encoding="utf-8")
    refused = run(["users", "import", str(bad)])
    assert refused.exit_code == 2 and refused.output.startswith("error: 'bad.csv' line 3: '7 b' cannot name a class")
    sheet = tmp_path / "7b.csv"
    sheet.write_text("\ufeffName,Class,Role\nivan,7b,\nМария,7b|chess,\n\nolga,7b,teacher\n", encoding="utf-8")
    done = run(["users", "import", str(sheet)])
    assert done.exit_code == 0, done.output
    printed = dict(line.split() for line in done.output.splitlines()[:3])
    assert sorted(printed) == ["ivan", "olga", "Мария"] and "3 accounts added" in done.output
    with Club.open(db) as club:
        assert all(club.users.verify(name, password) for name, password in printed.items())
        olga = club.users.get("olga")
        assert olga.is_teacher and club.users.classes_of(club.users.get("Мария").id) == ["7b", "chess"]
    again = run(["users", "import", str(sheet)])
    assert again.exit_code == 2 and "already exists: nothing added" in again.output
    listed = run(["users", "list"]).output
    assert "7b, chess" in listed and listed.count("teacher") == 1

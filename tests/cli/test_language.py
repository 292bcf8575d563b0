"""The language can always be set (issue 11): ``--lang`` > ``DDZ_LANG`` > remembered > English.

``ddz play --lang ru`` remembers Russian; that must stay a default that
``--lang`` and ``DDZ_LANG`` override on every command that prints words
(stats, history and replay used to be stuck in it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tutor.cli.help_text import TranslatedHelp, choose_language
from tutor.cli.main import main
from tutor.store import Store
from tests.cli.test_help_text import command_tree

EN_STATS, RU_STATS = "Your games", "Ваши партии"


@pytest.fixture
def russian_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.delenv("DDZ_LANG", raising=False)
    with Store.open() as store:
        store.set_setting("lang", "ru")
    yield tmp_path


def run(args: list[str], lang_env: str | None = None) -> str:
    env = {"DDZ_LANG": lang_env} if lang_env is not None else {}
    result = CliRunner().invoke(main, args, env=env)
    return result.output


def test_the_remembered_language_is_the_default(russian_remembered: Path) -> None:
    assert RU_STATS in run(["stats"])


@pytest.mark.parametrize("command", [["stats"], ["history"], ["replay", "99"]])
def test_lang_overrides_the_remembered_language(russian_remembered: Path, command: list[str]) -> None:
    english = run([*command, "--lang", "en"])
    assert "Ваши" not in english and "Законченных" not in english and "Партии" not in english
    assert any(word in english for word in (EN_STATS, "No finished game"))


@pytest.mark.parametrize("command", [["stats"], ["history"], ["replay", "99"]])
def test_ddz_lang_overrides_the_remembered_language(russian_remembered: Path, command: list[str]) -> None:
    english = run(command, lang_env="en")
    assert any(word in english for word in (EN_STATS, "No finished game")), english


def test_lang_beats_ddz_lang(russian_remembered: Path) -> None:
    assert RU_STATS in run(["stats", "--lang", "ru"], lang_env="en")
    assert EN_STATS in run(["stats", "--lang", "en"], lang_env="ru")


def test_lang_on_the_ddz_group_reaches_the_command(russian_remembered: Path) -> None:
    assert EN_STATS in run(["--lang", "en", "stats"])


def test_commands_without_the_store_speak_the_language_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    assert "Как можно прочитать" in run(["classify", "33", "--lang", "ru"])
    assert "Как можно прочитать" in run(["classify", "33"], lang_env="ru")
    assert "Readings of" in run(["classify", "33"])
    # Errors too.
    assert "номер раздачи" in run(["deal", "x", "--lang", "ru"])
    assert not list(tmp_path.iterdir())  # none of these opened the store


def test_every_command_has_lang() -> None:
    for path, ctx in command_tree():
        assert isinstance(ctx.command, TranslatedHelp)
        names = {p.name for p in ctx.command.get_params(ctx) if isinstance(p, click.Option)}
        assert "lang" in names, f"ddz {' '.join(path)} has no --lang"


def test_precedence_without_a_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DDZ_LANG", raising=False)
    assert choose_language(None) == "en"
    assert choose_language("ru") == "ru"
    assert choose_language("xx") == "en"
    monkeypatch.setenv("DDZ_LANG", "en")
    assert choose_language("ru") == "en"
    assert choose_language("ru", given="ru") == "ru"
    monkeypatch.setenv("DDZ_LANG", "klingon")
    assert choose_language("ru") == "ru"


@pytest.mark.parametrize(("args", "russian"), [
    (["play", "--level", "x"], "неверное значение '--level': 'x' — выберите одно из: 'easy', 'medium', 'hard'."),
    (["history", "--limit", "-3"], "неверное значение '--limit' / '-n': -3 вне допустимого диапазона"),
    (["stats", "--bogus"], "нет параметра '--bogus'."),
    (["solve"], "не хватает аргумента 'PLAYERS...'."),
    (["replay"], "не хватает аргумента 'GAME_ID'."),  # was 'INTEGER', the type's name (round 14)
    (["puzzle", "replay", "zzz"], "лишние аргументы (zzz)"),
    (["nosuchcmd"], "нет команды 'nosuchcmd'."),
])
def test_click_usage_errors_speak_the_language_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     args: list[str], russian: str) -> None:
    """click words its usage errors in English only; with --lang ru the line is Russian, exit 2, one line."""
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.delenv("DDZ_LANG", raising=False)
    result = CliRunner().invoke(main, [*args, "--lang", "ru"])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert russian in result.output, result.output
    english = CliRunner().invoke(main, args)
    assert english.exit_code == 2 and "неверное" not in english.output and "нет " not in english.output


@pytest.mark.parametrize(("args", "russian"), [
    (["classify", "3z"], "неверная карта 'z' в '3z'"),
    (["classify", "33333"], "слишком много '3' в '33333': 5 (в колоде 4)"),
    (["solve", "zzz"], "игрок 'zzz' записывается как РОЛЬ:КАРТЫ"),
])
def test_the_engines_messages_speak_the_language_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       args: list[str], russian: str) -> None:
    """The engine words its errors in English; the command's edge says them in Russian under --lang ru."""
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.delenv("DDZ_LANG", raising=False)
    result = CliRunner().invoke(main, [*args, "--lang", "ru"])
    assert result.exit_code == 2 and russian in result.output, result.output
    assert "bad card" in CliRunner().invoke(main, ["classify", "3z"]).output  # English as the engine says it


@pytest.mark.parametrize("args", [
    ["solve", "zzz"],                 # our UserError (the engine's message said at the edge)
    ["play", "--level", "x"],         # click's usage error
    ["learn", "nosuchlesson"],        # a command's own refusal
    ["puzzles", "validate", "/nonexistent/ddz-no-such-file.yaml"],  # click's path check
])
def test_the_error_line_begins_in_the_language_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     args: list[str]) -> None:
    """Round 14: a Russian error line began with the English «error:»; it reads «ошибка: …» now, English "error: …"."""
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.delenv("DDZ_LANG", raising=False)
    russian = CliRunner().invoke(main, [*args, "--lang", "ru"])
    assert russian.exit_code == 2 and russian.output.startswith("ошибка: "), russian.output
    assert russian.output.count("\n") == 1, russian.output
    by_env = CliRunner().invoke(main, args, env={"DDZ_LANG": "ru"})
    assert by_env.output.startswith("ошибка: "), by_env.output
    english = CliRunner().invoke(main, args)
    assert english.exit_code == 2 and english.output.startswith("error: "), english.output

"""Digits that are digits, end to end (issue 32): ``ddz learn ²``, ``ddz mistakes ²``,
``ddz analyze ² --at 0`` and ``²`` at the bid prompt of ``ddz play`` are each one line, never
Python's "invalid literal for int()" (``str.isdigit()`` is true for superscripts and circled
digits).  The parsers themselves are held to it one by one in tests/test_files_numbers.py."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.cli.main import main

LOOKALIKES = st.sampled_from(["²", "①", "１２", "٣", "1²", "⑨9"]) | st.characters(
    categories=["Nd", "No", "Nl"]).filter(lambda c: c not in "0123456789")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=LOOKALIKES, command=st.sampled_from([["learn", "{}"], ["mistakes", "{}"], ["analyze", "{}", "--at", "0"],
                                                 ["puzzle", "random", "--rating", "{}"], ["deal", "{}"],
                                                 ["solve", "L:33 F:44", "--beat", "{}"]]))
def test_a_number_that_is_not_ascii_digits_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              text: str, command: list[str]) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(main, [text if arg == "{}" else arg for arg in command])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, (command, text, result.output)
    assert "int()" not in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=LOOKALIKES)
def test_a_lookalike_digit_at_the_bid_prompt_is_asked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            text: str) -> None:
    monkeypatch.setenv("DDZ_HOME", tempfile.mkdtemp(dir=tmp_path))  # a fresh store: no saved game to resume
    result = CliRunner().invoke(main, ["play", "--deal", "5", "--level", "easy"],
                               input=f"{text}\nquit\n")
    assert "int()" not in result.output and "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.output.count("Your bid") == 2, result.output  # asked again after the refusal

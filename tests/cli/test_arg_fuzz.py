"""Every option and argument of every command, given hostile values from a fixed corpus (issue 23).

Long names (a 300-character file name, a 5,000-character path), bytes that are not UTF-8, an
empty string, numbers that are not numbers: each is one line and an exit status, never a
traceback.  ``serve`` (it would listen) and ``play`` (it waits at the table) are tested on
their own (tests/cli/test_serve.py, test_bad_input.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tutor.cli.main import main

CORPUS = ["", "x" * 300, "/" + "d" * 5000, "\udcff\udcfe", "9" * 5000]
SKIPPED = {"serve", "play"}


def _commands(group: click.Group, prefix: list[str]) -> Iterator[tuple[list[str], click.Command]]:
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from _commands(command, [*prefix, name])
        elif command is not None and " ".join([*prefix, name]) not in SKIPPED:
            yield [*prefix, name], command


def _runs() -> Iterator[list[str]]:
    for path, command in _commands(main, []):
        required = ["x" for p in command.params if isinstance(p, click.Argument) and p.required]
        for param in command.params:
            if isinstance(param, click.Option) and (param.is_flag or param.name == "help"):
                continue
            for value in CORPUS:
                yield [*path, param.opts[0], value, *required] if isinstance(param, click.Option) \
                    else [*path, value]


def test_no_argument_makes_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    runs = list(_runs())
    assert len(runs) > 300, "every command's options are fuzzed"
    bad = []
    for args in runs:
        result = CliRunner().invoke(main, args, input="")
        failed = result.exception is not None and not isinstance(result.exception, SystemExit)
        lines = [line for line in result.output.splitlines() if line.strip()]
        if failed or "Traceback" in result.output or (result.exit_code != 0 and any(len(x) > 300 for x in lines)):
            bad.append(([a[:20] for a in args], repr(result.exception)[:120]))
    assert bad == []
    assert not any(p.name.startswith("x" * 40) for p in tmp_path.iterdir()), "a refused --out wrote nothing"
    # `ddz store export FILE` writes FILE, a path it is given (the current folder here): its job, not a stray file.
    named = {a for args in runs if args[:2] == ["store", "export"] for a in args[2:] if not a.startswith("-")}
    assert set(os.listdir(tmp_path)) <= {"home"} | named

"""An instant start (issue 11): what ``ddz`` imports, not how long it takes.

Speed itself is measured by ``ddz bench startup`` (timed tests would flake on a
shared machine); what keeps it fast is checked here: the modules a start
imports.  Each case runs in a fresh interpreter, since this one has imported
everything already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module

import pytest
from click.testing import CliRunner

from tutor.cli.main import COMMAND_MODULES, main

#: Heavy or unrelated to starting: none of these may be imported by ``ddz --help`` / ``--version``.
HEAVY = ("tutor.solver", "tutor.bots", "tutor.coach", "tutor.store", "tutor.lessons", "tutor.puzzles",
         "tutor.bench", "tutor.engine", "tutor.web", "rich", "jsonschema", "sqlite3", "multiprocessing",
         "starlette", "uvicorn", "httpx")  # fmt: skip


def imported_by(args: list[str] | None) -> set[str]:
    """The modules loaded by importing tutor.cli.main and, when ``args`` is given, running ``ddz ARGS``."""
    run = "" if args is None else f"\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass"
    code = f"import sys, json\nfrom tutor.cli.main import main{run}\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


@pytest.mark.parametrize("args", [None, ["--version"], ["--help"], []], ids=["import", "version", "help", "bare"])
def test_starting_imports_nothing_heavy(args: list[str] | None) -> None:
    assert heavy(imported_by(args)) == []


def test_help_reads_only_the_help_catalogue() -> None:
    modules = imported_by(["--help"])
    assert "yaml" in modules  # the texts come from help.yaml ...
    assert "tutor.cli.solve" not in modules and "tutor.cli.play" not in modules  # ... not from the commands


def test_classify_needs_neither_solver_nor_bots_nor_store() -> None:
    modules = imported_by(["classify", "333444555666"])
    assert "tutor.engine.combos" in modules
    assert not [m for m in modules if m.startswith(("tutor.solver", "tutor.bots", "tutor.store", "tutor.coach",
                                                    "jsonschema", "sqlite3", "multiprocessing"))]  # fmt: skip


def test_importing_the_engine_builds_no_move_tables() -> None:
    code = "import tutor.engine.moves as m, sys; sys.exit(0 if m._STANDARD_TABLES is None else 1)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_every_lazy_command_is_where_the_table_says() -> None:
    by_module: dict[str, set[str]] = {}
    for name, module in COMMAND_MODULES.items():
        by_module.setdefault(module, set()).add(name)
    for module, names in by_module.items():
        assert {command.name for command in import_module(module).COMMANDS} == names, module


def test_help_lists_every_command_without_loading_it() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    for name in COMMAND_MODULES:
        assert f"\n  {name} " in out, name


def test_bench_startup_prints_medians_and_the_import_profile() -> None:
    res = CliRunner().invoke(main, ["bench", "startup", "-n", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    commands = {c["command"]: c for c in data["commands"]}
    assert set(commands) == {"ddz --version", "ddz --help", "ddz classify 333444555666"}
    for figures in commands.values():
        assert figures["median_seconds"] > 0 and len(figures["runs_seconds"]) == 1
        assert figures["modules_imported"] > 10 and figures["heaviest_imports_ms"]
    assert commands["ddz classify 333444555666"]["target_seconds"] == 0.3

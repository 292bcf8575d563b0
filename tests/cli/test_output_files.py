"""Nothing is written outside DDZ_HOME and the paths the user names (issue 16).

``ddz puzzles generate`` writes to ``--out`` or to the current folder, never into
the installed package (that changed the daily puzzle); ``ddz bench solver
--write`` rewrites the benchmark file only in a source checkout; output files
are replaced atomically without following a symlink planted at the target or
at the old fixed temporary name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor import paths
from tutor.bench import solver_bench
from tutor.cli.main import main


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    return tmp_path / "ddz"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}


def test_generate_without_out_writes_to_the_current_folder_never_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = paths.puzzles_dir()
    before = _snapshot(shipped)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    result = run("puzzles", "generate", "-n", "1", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert [p.name for p in work.iterdir()] == ["generated-3.yaml"]
    assert _snapshot(shipped) == before


def test_generate_replaces_a_planted_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "shared" / "out.yaml"
    out.parent.mkdir()
    out.symlink_to(victim)
    Path(f"{out}.tmp").symlink_to(victim)
    result = run("puzzles", "generate", "-n", "1", "--seed", "3", "--out", str(out))
    # The planted link at the target is not a puzzle file: refused in one line, or replaced — never written through.
    assert victim.read_text() == "precious"
    assert result.exit_code in (0, 2) and result.output.count("\n") <= 1, result.output


def test_generate_to_a_folder_that_does_not_exist_is_refused_before_any_work(tmp_path: Path) -> None:
    result = run("puzzles", "generate", "-n", "50", "--out", str(tmp_path / "missing" / "x.yaml"))
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "cannot write" in result.output and "--out" in result.output


def test_bench_write_refuses_outside_a_checkout_and_leaves_the_file_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    target = solver_bench.endgames_file()
    before = target.read_bytes()
    monkeypatch.setattr("tutor.cli.bench_solver.checkout_root", lambda: None)
    result = run("bench", "solver", "--write", "--quick")
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert "checkout" in result.output and target.read_bytes() == before


def test_an_installed_layout_is_not_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert paths.checkout_root() == Path(paths.__file__).resolve().parents[1]
    installed = tmp_path / "site-packages" / "tutor"
    installed.mkdir(parents=True)
    monkeypatch.setattr(paths, "_PACKAGE", installed)
    assert paths.checkout_root() is None

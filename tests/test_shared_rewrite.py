"""The workers' shared assert rewriting (tests/shared_rewrite.py) writes what pytest itself would load."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

from tests.shared_rewrite import rewritten_files, share

SOURCE = "def test_lists():\n    got = [1, 2]\n    assert got == [1, 3]\n"


@pytest.fixture()
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Four fresh test modules, nothing cached (this machine's environment may turn bytecode writing off)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    made = []
    for name in ("test_a.py", "test_b.py", "test_c.py", "test_d.py"):
        (tmp_path / name).write_text(SOURCE + f"# {name}\n", encoding="utf-8")
        made.append(tmp_path / name)
    return made


def cached(source: Path) -> types.CodeType | None:
    return _read_pyc(source, source.parent / "__pycache__" / (source.name[:-3] + PYC_TAIL))


def test_the_pyc_is_the_rewritten_module_pytest_loads(files: list[Path], pytestconfig: pytest.Config) -> None:
    assert share(pytestconfig, files, "gw1", 2) == 4  # alone, a worker goes round the whole list
    namespace: dict[str, object] = {"__name__": "test_a"}
    code = cached(files[0])
    assert code is not None
    exec(code, namespace)  # noqa: S102 - the module pytest would import
    with pytest.raises(AssertionError) as failed:
        namespace["test_lists"]()  # type: ignore[operator]
    assert "[1, 2] == [1, 3]" in str(failed.value)  # the rewritten assert explains itself; a plain one says nothing


def test_a_worker_stops_where_the_next_workers_share_began(files: list[Path], pytestconfig: pytest.Config) -> None:
    assert share(pytestconfig, files[2:3], "gw0", 2) == 1  # as if gw1 had started at the third file
    assert share(pytestconfig, files, "gw0", 2) == 2  # gw0: the first two, then the third is cached
    assert [cached(source) is not None for source in files] == [True, True, True, False]


def test_nothing_is_done_outside_a_worker_or_without_bytecode(files: list[Path], pytestconfig: pytest.Config,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert share(pytestconfig, files, "", 0) == 0
    assert share(pytestconfig, files, "gw0", 1) == 0  # one worker: it collects alone, nothing to share
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert share(pytestconfig, files, "gw0", 2) == 0
    assert not any(cached(source) for source in files)


def test_the_shared_files_are_the_suites_test_modules() -> None:
    found = rewritten_files()
    assert Path(__file__).resolve() in found
    assert all(path.name.startswith("test_") and path.suffix == ".py" for path in found)
    assert found == sorted(found)

"""The suite's own settings hold in every process of the run (pytest-xdist workers included)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

from tests.conftest import PROFILE


def test_the_hypothesis_profile_is_loaded_in_this_process() -> None:
    current = settings.default
    assert current.deadline is None
    assert HealthCheck.too_slow in current.suppress_health_check
    assert current.derandomize == (PROFILE == "ci")


def test_this_process_has_its_own_data_folder() -> None:
    home = Path(os.environ["DDZ_HOME"])
    assert home.is_relative_to(tempfile.gettempdir())
    assert home.name.startswith(f"ddz-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-")


def test_the_default_run_hands_out_whole_files_in_the_suites_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-xdist reorders files by their number of tests unless told not to: LONGEST_FIRST would be ignored."""
    from tests import conftest

    class Options:
        numprocesses: object = None
        dist = "no"
        loadscopereorder = True
        usepdb = False

    class Config:
        args = ["tests"]
        option = Options()
        pluginmanager = SimpleNamespace(hasplugin=lambda name: True)

        def getoption(self, name: str, default: object = None) -> object:
            return getattr(self.option, name, default)

    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    config = Config()
    conftest.pytest_cmdline_main(config)  # type: ignore[arg-type]
    assert (config.option.numprocesses, config.option.dist, config.option.loadscopereorder) == ("auto", "loadfile", False)

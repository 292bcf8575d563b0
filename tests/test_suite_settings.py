"""The suite's own settings hold in every process of the run (pytest-xdist workers included)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

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

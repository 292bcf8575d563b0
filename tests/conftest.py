"""Suite-wide settings: a Hypothesis profile that cannot flake.

The machine the suite runs on is shared (two cores, other jobs running), so
nothing in the suite may depend on timing:

* **Hypothesis** runs under the ``ddz`` profile: no per-example deadline (a
  busy machine makes any example slow), and the health checks that fire on
  a slow or unlucky run rather than on a bad test are off — ``too_slow``
  (timing), ``data_too_large`` (an unlucky draw of the unique-card lists runs
  over Hypothesis's buffer: those draws are discarded, the others still run)
  and ``filter_too_much`` (the small-set strategies of tests/engine reject
  most raw draws by design).  With ``CI`` set the ``ci`` profile also
  derandomizes (the same examples on every run, no example database), so a
  CI run is reproducible; locally the examples vary and a failure prints the
  seed to reproduce it.  ``--hypothesis-profile`` chooses another profile.
  Test-level ``@settings(max_examples=…)`` keep their counts and inherit the rest.

(The load tests' busy loops are in tests/busy.py.)
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ddz",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
settings.register_profile("ci", parent=settings.get_profile("ddz"), derandomize=True, database=None)
PROFILE = "ci" if os.environ.get("CI") else "ddz"
settings.load_profile(PROFILE)


def _hypothesis_line() -> str:
    current = settings.default
    seed = "derandomized (fixed examples)" if current.derandomize else "random (a failure prints its seed)"
    return (
        f"hypothesis settings: profile {PROFILE!r} (CI={os.environ.get('CI', '')!r}), {seed}, "
        f"deadline={current.deadline}, suppressed health checks: "
        f"{', '.join(sorted(h.name for h in current.suppress_health_check))}"
    )


def pytest_report_header(config: pytest.Config) -> str:
    return _hypothesis_line()


def pytest_sessionstart(session: pytest.Session) -> None:
    """The header is not shown with ``-q`` (the project's default): print the profile line anyway."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and session.config.get_verbosity() < 0:
        reporter.write_line(_hypothesis_line())


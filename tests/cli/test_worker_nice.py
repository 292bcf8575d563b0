"""``ddz worker`` yields the CPU to the web (issue 35, the load table): on the web node's machine, the coach's
jobs take what the requests leave.  ``--nice 0`` keeps the priority it was started with."""

from __future__ import annotations

import os
from typing import Any

import pytest
from click.testing import CliRunner

from tutor.cli.main import main


def test_a_worker_lowers_its_priority_by_default(pg_cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.web import coachqueue

    niced: list[int] = []
    taken: list[str] = []
    monkeypatch.setattr(os, "nice", lambda n: niced.append(n) or 0)  # this test process keeps its own priority
    monkeypatch.setattr(coachqueue, "run", lambda url, **_: taken.append(url))  # no jobs taken: started, then ends
    url = pg_cluster.url()
    result = CliRunner().invoke(main, ["worker", "--db", url])
    assert result.exit_code == 0 and niced == [10] and taken == [url], result.output
    result = CliRunner().invoke(main, ["worker", "--db", url, "--nice", "0"])
    assert result.exit_code == 0 and niced == [10] and len(taken) == 2, result.output
    result = CliRunner().invoke(main, ["worker", "--db", url, "--nice", "20"])
    assert result.exit_code == 2 and len(taken) == 2

"""How fast ``ddz`` starts: medians over fresh processes, and where the import time goes.

Every run is a new interpreter (a warm one would hide exactly the cost being
measured: imports, catalogue loading, table building).  The command run is the
installed ``ddz`` script when it sits next to this interpreter, else the same
entry point through ``python -c``.  The import profile comes from
``python -X importtime`` on the same command.

Targets (issue 11): ``--help`` and ``--version`` under 0.15 s, ``classify`` under
0.3 s, median wall time on an idle two-core machine.  A busy machine is slower:
the load average is reported with the figures.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

#: The commands timed, and their targets in seconds (median wall time).
COMMANDS: tuple[tuple[tuple[str, ...], float], ...] = (
    (("--version",), 0.15),
    (("--help",), 0.15),
    (("classify", "333444555666"), 0.3),
)
_ENTRY = "import sys; from tutor.cli.main import main; sys.exit(main())"


@dataclass
class Timing:
    """One command's figures: every run's wall seconds, the median, the target."""

    args: tuple[str, ...]
    target: float
    seconds: list[float] = field(default_factory=list)
    #: CPU seconds (user + system) of each run: what the start costs, whatever else the machine does.
    cpu: list[float] = field(default_factory=list)
    import_ms: float = 0.0
    modules: int = 0
    heaviest: list[tuple[str, float]] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu) if self.cpu else 0.0

    @property
    def met(self) -> bool:
        return self.median < self.target

    def to_json(self) -> dict[str, object]:
        return {
            "command": "ddz " + " ".join(self.args),
            "median_seconds": round(self.median, 4),
            "runs_seconds": [round(s, 4) for s in self.seconds],
            "median_cpu_seconds": round(self.cpu_median, 4),
            "target_seconds": self.target,
            "met": self.met,
            "import_ms": round(self.import_ms, 1),
            "modules_imported": self.modules,
            "heaviest_imports_ms": [[name, round(ms, 1)] for name, ms in self.heaviest],
        }


def command_line(args: tuple[str, ...]) -> list[str]:
    """How to run ``ddz ARGS`` in a fresh process (the installed script when there is one)."""
    script = Path(sys.executable).with_name("ddz")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script), *args]
    return [sys.executable, "-c", _ENTRY, *args]


def _environment() -> dict[str, str]:
    # English and no colour: the same work on every machine; DDZ_HOME untouched (no command here opens it).
    env = dict(os.environ)
    env.pop("DDZ_LANG", None)
    env["NO_COLOR"] = "1"
    return env


def time_once(args: tuple[str, ...]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh ``ddz ARGS`` (output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command_line(args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=_environment(), check=False)  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def import_profile(args: tuple[str, ...], top: int = 5) -> tuple[float, int, list[tuple[str, float]]]:
    """(total import ms, modules imported, the ``top`` heaviest by cumulative ms among the
    modules imported directly by ``ddz`` or its command) from ``python -X importtime``."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", _ENTRY, *args], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, env=_environment(), check=False)  # fmt: skip
    rows: list[tuple[str, int, float, float]] = []
    for line in run.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        self_us, cumulative_us, name = line[len("import time:"):].split("|", 2)
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((name.strip(), depth, float(self_us) / 1000, float(cumulative_us) / 1000))
    total = sum(self_ms for _, _, self_ms, _ in rows)
    outermost = sorted((r for r in rows if r[1] == 0), key=lambda r: -r[3])
    return total, len(rows), [(name, cumulative) for name, _, _, cumulative in outermost[:top]]


def measure(runs: int, commands: tuple[tuple[tuple[str, ...], float], ...] = COMMANDS) -> list[Timing]:
    """Each command ``runs`` times in fresh processes (interleaved, so that a burst of
    load on the machine hits every command alike), then its import profile."""
    timings = [Timing(args, target) for args, target in commands]
    for _ in range(runs):
        for timing in timings:
            wall, cpu = time_once(timing.args)
            timing.seconds.append(wall)
            timing.cpu.append(cpu)
    for timing in timings:
        timing.import_ms, timing.modules, timing.heaviest = import_profile(timing.args)
    return timings


def load_average() -> tuple[float, float, float] | None:
    """The machine's 1, 5 and 15 minute load averages (None where unknown)."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):  # pragma: no cover - not POSIX
        return None

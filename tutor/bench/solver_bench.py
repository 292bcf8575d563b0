"""``ddz bench solver``: solve every position of ``benchmarks/endgames.yaml``.

Each position runs in a fresh Python subprocess so that its peak memory
(``ru_maxrss`` of that process, interpreter included) belongs to it alone and
no transposition table carries over from the previous position.  The result
is checked against the file's known ``result`` and ``winning_moves``; a
mismatch is flagged, never hidden.  Speed targets (issue 3) are judged here,
not in the unit tests.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import statistics
import sys
import sysconfig
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.files import atomic_write_text, load_yaml_file
from tutor.paths import benchmarks_dir

#: Seconds allowed per position (full run, and with --quick).
FULL_LIMIT = 120.0
QUICK_LIMIT = 5.0


def endgames_file() -> Path:
    return benchmarks_dir() / "endgames.yaml"


def load_positions(path: Path | None = None) -> list[dict[str, Any]]:
    data = load_yaml_file(path or endgames_file())
    return list(data["positions"])


@dataclass
class Measured:
    """One benchmark row."""

    id: str
    players: int
    cards: int
    result: str | None
    winning_moves: list[str] | None
    seconds: float
    cpu_seconds: float
    nodes: int
    peak_mb: float
    runs: list[float]
    workers: int
    native: bool
    known: str | None
    known_moves: list[str] | None
    status: str  # ok / MISMATCH / unknown-known / timeout

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def nodes_per_cpu_second(self) -> float:
        """Nodes per second of CPU time (workers included): the speed on a loaded machine."""
        return self.nodes / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": self.players,
            "max_hand": self.cards,
            "result": self.result,
            "winning_moves": self.winning_moves,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "nodes": self.nodes,
            "nodes_per_second": round(self.nodes_per_second),
            "peak_mb": round(self.peak_mb, 1),
            "runs_seconds": self.runs,
            "workers": self.workers,
            "native": self.native,
            "known": self.known,
            "status": self.status,
        }


def _pss_kb(pid: int) -> int:
    """Proportional set size of a process (shared pages split among sharers), in kB."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


class _MemorySampler(threading.Thread):
    """Samples the memory of this process and its worker processes every 250 ms.

    The sum of their proportional set sizes counts each shared page once (the
    workers are forked and share their parent's pages until they write), which
    their separate peak RSS figures would count once per process.
    """

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_kb = 0
        self.stop = threading.Event()

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.wait(0.25):
            total = _pss_kb(me) + sum(_pss_kb(c) for c in _children(me))
            self.peak_kb = max(self.peak_kb, total)


def solve_one(entry: dict[str, Any], max_seconds: float, workers: int | None = None) -> dict[str, Any]:
    """Solve one position in this process (the subprocess side).

    CPU time includes the worker processes that big positions fork
    (:mod:`tutor.solver.parallel`).  Peak memory is the larger of this
    process's peak RSS and the peak of the summed proportional set sizes of
    this process and its workers (sampled every 250 ms, rarely enough not to
    slow the search down; Linux).
    """
    from tutor.solver import Position, Solver, native

    pos = Position.parse(entry["players"], beat=entry.get("beat"), beat_by=entry.get("beat_by"))
    sampler = _MemorySampler()
    sampler.start()
    cpu = time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    solver = Solver(max_seconds=max_seconds, workers=workers, rules=pos.rules)
    res = solver.solve(pos, all_moves=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - cpu + (after.ru_utime + after.ru_stime) - (kids.ru_utime + kids.ru_stime)
    sampler.stop.set()
    sampler.join()
    peak_kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, sampler.peak_kb)
    result = None if res.mover_wins is None else ("mover_wins" if res.mover_wins else "mover_loses")
    moves = sorted("pass" if m is None else m.text for m in res.winning_moves) if res.complete else None
    return {
        "result": result,
        "winning_moves": moves,
        "seconds": res.seconds,
        "cpu_seconds": cpu,
        "nodes": res.nodes,
        "peak_mb": peak_kb / 1024.0,
        "complete": res.complete,
        "players": pos.players,
        "cards": max(len(h) for h in pos.hands),
        "workers": solver.workers,
        "native": native.available(),
    }


def _run_once(
    entry: dict[str, Any], max_seconds: float, workers: int | None, library: Path | None = None
) -> dict[str, Any]:
    from tutor.solver.native import LIBRARY_VARIABLE

    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop(LIBRARY_VARIABLE, None)
    if library is not None:
        env[LIBRARY_VARIABLE] = str(library)
    proc = subprocess.run(
        [sys.executable, "-m", "tutor.bench.solver_bench", json.dumps(entry), str(max_seconds), str(workers or 0),
         str(os.getpid())],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed for {entry.get('id')!r}: {proc.stderr.strip()[-400:]}")
    return dict(json.loads(proc.stdout))


def measure(entry: dict[str, Any], max_seconds: float, workers: int | None = None, repeat: int = 1) -> Measured:
    """Solve one position ``repeat`` times, each in a fresh subprocess, and
    compare with what is known.  Times, nodes and memory are the medians of
    the runs (the machine is shared: one run can be slow); the answer must
    be the same every time."""
    return _summarise(entry, [_run_once(entry, max_seconds, workers) for _ in range(max(1, repeat))])


def measure_against(
    entry: dict[str, Any], library: Path, max_seconds: float, workers: int | None = None, repeat: int = 1
) -> tuple[Measured, Measured]:
    """(baseline, this build): the position solved with the core built at
    ``library`` and with this package's, the runs taking turns (baseline,
    ours, baseline, ours, …) so that a change in the machine's load falls on
    both alike."""
    base: list[dict[str, Any]] = []
    ours: list[dict[str, Any]] = []
    for _ in range(max(1, repeat)):
        base.append(_run_once(entry, max_seconds, workers, library))
        ours.append(_run_once(entry, max_seconds, workers))
    return _summarise(entry, base), _summarise(entry, ours)


def build_baseline(path: Path, into: Path) -> Path:
    """The compiled core to compare with: ``path`` itself when it is a built
    library, else ``path`` (a ``_native.c``, e.g. main's) compiled into the
    folder ``into`` with the flags of the package's own build (hatch_build.py).

    Raises:
        BaselineError: The compiler or the Python headers are missing, or the source does not compile.
    """
    target = path if path.suffix != ".c" else _compile(path, into)
    from tutor.solver.native import LIBRARY_VARIABLE

    check = subprocess.run(
        [sys.executable, "-c", "from tutor.solver import native; native._native.TwoSearch"],
        capture_output=True, text=True, env={**os.environ, LIBRARY_VARIABLE: str(target)}, check=False,
    )  # fmt: skip
    if check.returncode != 0:
        lines = check.stderr.strip().splitlines()
        raise BaselineError(lines[-1] if lines else f"{path} is not a build of the solver core")
    return target


def _compile(path: Path, into: Path) -> Path:
    """``path`` (a ``_native.c``) compiled into the folder ``into``, as hatch_build.py compiles the package's."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    include = sysconfig.get_paths().get("include")
    if not compiler or not include or not (Path(include) / "Python.h").exists():
        raise BaselineError("no C compiler or Python headers to build the baseline")
    target = into / ("_native" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    # The source's own folder comes first for its ``#include "..."`` files (_nudge.c); this package's solver
    # folder is the fallback, for a lone copy of a ``_native.c`` that includes them.
    here = Path(__file__).resolve().parents[1] / "solver"
    command = [compiler, "-O2", "-shared", "-fPIC", f"-I{include}", f"-I{here}", str(path), "-o", str(target)]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        detail = (getattr(exc, "stderr", "") or str(exc)).strip()
        raise BaselineError(detail.splitlines()[0] if detail else type(exc).__name__) from exc
    return target


class BaselineError(Exception):
    """The baseline core could not be built (the message says why, in one line)."""


def _summarise(entry: dict[str, Any], runs: list[dict[str, Any]]) -> Measured:
    """One row from the runs of a position: the medians, and the answer checked against the known one."""
    got = dict(runs[0])
    for field_name in ("seconds", "cpu_seconds", "nodes", "peak_mb"):
        got[field_name] = statistics.median(r[field_name] for r in runs)
    if any((r["result"], r["winning_moves"], r["complete"]) != (got["result"], got["winning_moves"], got["complete"])
           for r in runs):  # fmt: skip
        got["result"] = "differs between runs"
    got["runs"] = [round(r["seconds"], 3) for r in runs]
    known = entry.get("result")
    known_moves = entry.get("winning_moves")
    if got["result"] is None or not got["complete"]:
        status = "timeout"
    elif known is None:
        status = "new"
    elif known != got["result"]:
        status = "MISMATCH"
    elif known_moves is not None and got["winning_moves"] is not None and sorted(known_moves) != got["winning_moves"]:
        status = "MISMATCH"
    else:
        status = "ok"
    return Measured(
        id=str(entry["id"]),
        players=got["players"],
        cards=got["cards"],
        result=got["result"] if got["complete"] else None,
        winning_moves=got["winning_moves"],
        seconds=got["seconds"],
        cpu_seconds=got["cpu_seconds"],
        nodes=int(got["nodes"]),
        peak_mb=got["peak_mb"],
        runs=got["runs"],
        workers=got["workers"],
        native=got["native"],
        known=known,
        known_moves=known_moves,
        status=status,
    )


def target_seconds(row: Measured) -> float | None:
    """The issue-3 time target for a position (None: just solve it)."""
    if row.players == 2:
        return 0.5 if row.cards <= 13 else 3.0
    return 30.0 if row.cards >= 8 else None


MEASURED_BEGIN = "# --- measured by ddz-tutor (`ddz bench solver --write`; do not edit by hand) ---"
MEASURED_END = "# --- end of measured ---"


def update_file(rows: list[Measured], path: Path | None = None) -> None:
    """Write what we measured back into the benchmark file, keeping its comments.

    * A position whose ``result`` is null gets the result we measured, marked
      ``result_source: ddz-tutor`` (ours, not an independent confirmation),
      and its winning moves.
    * A comment block at the end lists every position's figures (seconds,
      nodes, peak memory) from this run.
    """
    path = path or endgames_file()
    text = path.read_text(encoding="utf-8")
    by_id = {r.id: r for r in rows}
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("- {id:") and "result: null" in line:
            ident = stripped[len("- {id:") :].split(",", 1)[0].strip()
            row = by_id.get(ident)
            if row is not None and row.result is not None and row.status != "timeout":
                moves = ", ".join(f'"{m}"' for m in (row.winning_moves or []))
                line = line.replace(
                    "result: null", f"result: {row.result}, result_source: ddz-tutor, winning_moves: [{moves}]"
                )
        lines.append(line)
    text = "\n".join(lines) + "\n"
    if MEASURED_BEGIN in text:
        text = text[: text.index(MEASURED_BEGIN)].rstrip("\n") + "\n"
    from tutor.solver import native

    core = "compiled search (tutor/solver/_native.c)" if native.available() else "pure-Python search"
    workers = max((r.workers for r in rows), default=1)
    repeat = max((len(r.runs) for r in rows), default=1)
    block = [
        MEASURED_BEGIN,
        f"# {core}; up to {workers} worker processes for the root moves of big positions;"
        f" medians of {repeat} run(s) in fresh processes;"
        " cpu s and peak MB (summed proportional set size) include the workers",
        "# id          result        seconds      cpu s        nodes   nodes/s  peak MB  status",
    ]
    for r in rows:
        block.append(
            f"# {r.id:<11} {r.result or 'unknown':<12} {r.seconds:>8.3f} {r.cpu_seconds:>9.3f} {r.nodes:>12,}"
            f" {r.nodes_per_second:>9,.0f} {r.peak_mb:>8.1f}  {r.status}"
        )
        if r.winning_moves is not None:
            block.append(f"#   winning moves: {', '.join(r.winning_moves) or '-'}")
    block.append(MEASURED_END)
    atomic_write_text(path, text + "\n".join(block) + "\n")


def main(argv: list[str]) -> int:
    """The subprocess side: ``ENTRY SECONDS WORKERS [PARENT_PID]``; it dies with the bench that started it."""
    from tutor.solver.parallel import die_with_parent

    if len(argv) > 3:
        die_with_parent(int(argv[3]))
    entry = json.loads(argv[0])
    workers = int(argv[2]) if len(argv) > 2 and int(argv[2]) > 0 else None
    print(json.dumps(solve_one(entry, float(argv[1]), workers)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

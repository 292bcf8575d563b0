"""The classic game's speed beside another build, in one run (issue 31: "the classic game is no slower").

    .venv/bin/python benchmarks/classic_speed.py [--against REV] [--rounds N] [--callgrind] [--solver ID ...]

Exports ``REV`` (default ``7d8afb5``: main just before the wildcard and
four-player merges) with ``git archive`` into a temporary folder — no worktree,
nothing written in the repository — compiles its C solver core with its own
``hatch_build.compile_native``, and then runs the same fixed work on the two
builds taking turns (``--rounds`` times, each run a fresh process with
``PYTHONPATH`` at the build):

* **movegen** — every lead move of 2,000 seeded 20-card hands under the
  standard rules (``lead_moves_packed``), CPU of one pass, median of 5 passes;
* **rollouts** — each build's own ``benchmarks/rollout_speed.work`` (the
  medium policy playing sampled deals out; its win count must agree);
* **solver** — ``ddz bench solver --json --only ID`` of each build (nodes must
  agree; CPU includes its worker processes).

It prints the medians over the rounds (CPU seconds; the wall time only says how
loaded the machine was), the ratio this/REV, and the load average.  With
``--callgrind`` it also counts instructions (``valgrind --tool=callgrind``) of a
smaller fixed movegen and rollout workload in each build, minus the same process without the work:
counts do not depend on the load, so they are the figure to trust on a busy machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "7d8afb5"

#: The work each build runs in a fresh process: ``python -c DRIVER KIND SIZE``; prints one JSON line.
DRIVER = r"""
import json, random, statistics, sys, time
kind, size = sys.argv[1], int(sys.argv[2])
from tutor.engine.cards import DECK_COUNTS, Cards
from tutor.engine.moves import lead_moves_packed
import tutor
if kind == "movegen":
    rng = random.Random(1)
    deck = [r for r, n in enumerate(DECK_COUNTS) for _ in range(n)]
    hands = [Cards.from_ranks(rng.sample(deck, 20)).packed for _ in range(size)]
    lead_moves_packed(hands[0])
    runs, moves = [], 0
    for _ in range(int(sys.argv[3])):
        start = time.process_time()
        moves = sum(len(lead_moves_packed(h)) for h in hands)
        runs.append(time.process_time() - start)
    print(json.dumps({"cpu": statistics.median(runs) if runs else 0.0, "check": moves, "file": tutor.__file__}))
elif kind == "rollouts":
    sys.path.insert(0, "benchmarks")
    from rollout_speed import work
    start = time.process_time()
    wins = work(size, int(sys.argv[3]))
    print(json.dumps({"cpu": time.process_time() - start, "check": wins, "file": tutor.__file__}))
"""


def export(rev: str, into: Path) -> Path:
    """``git archive REV`` unpacked into ``into``, its C core compiled by its own build hook."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    tar = into / "rev.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as archive:
        archive.extractall(into / "src", filter="data")
    root = into / "src"
    spec = importlib.util.spec_from_file_location("rev_hatch_build", root / "hatch_build.py")
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            module.compile_native(root)
        except ImportError:  # hatchling missing: compile the core as the hook would
            _compile(root)
    return root


def _compile(root: Path) -> None:
    import sysconfig

    source = root / "tutor" / "solver" / "_native.c"
    target = source.with_name("_native" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    include = sysconfig.get_paths()["include"]
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(target)], check=True)


def run(root: Path, *args: str, callgrind: Path | None = None) -> dict[str, object]:
    """One fresh process of ``DRIVER`` in build ``root``; under callgrind when asked."""
    env = {**os.environ, "PYTHONPATH": str(root), "DDZ_HOME": str(root / ".ddz-home")}
    command = [sys.executable, "-c", DRIVER, *args]
    if callgrind is not None:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind}", *command]
    done = subprocess.run(command, cwd=root, env=env, check=True, capture_output=True, text=True)
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(out["file"]).startswith(str(root)):
        raise SystemExit(f"build {root} imported tutor from {out['file']}")
    if callgrind is not None:
        out["instructions"] = int(re.findall(r"Collected : (\d+)", done.stderr)[-1])
    return out


def solver(root: Path, ids: list[str]) -> dict[str, tuple[int, float]]:
    """``ddz bench solver --json`` of build ``root``: id → (nodes, CPU seconds)."""
    env = {**os.environ, "PYTHONPATH": str(root), "DDZ_HOME": str(root / ".ddz-home")}
    only = [a for i in ids for a in ("--only", i)]
    command = [sys.executable, "-c", "from tutor.cli.main import main; main()", "bench", "solver", "--json", *only]
    done = subprocess.run(command, cwd=root, env=env, check=True, capture_output=True, text=True)
    found: dict[str, tuple[int, float]] = {}

    def walk(item: object) -> None:
        if isinstance(item, dict):
            if "id" in item and "nodes" in item:
                found[str(item["id"])] = (int(item["nodes"]), float(item["cpu_seconds"]))
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(json.loads(done.stdout))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", default=BASE, help=f"the other build's revision (default {BASE})")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each build (default 3)")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=40, help="rollout positions (default 40, 8 samples each)")
    parser.add_argument("--solver", nargs="*", default=["three-06", "three-07", "three-08", "two-09"])
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (slow: ~50x)")
    args = parser.parse_args()
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.against],
                         check=True, capture_output=True, text=True).stdout.strip()
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="ddz-classic-speed-") as tmp:
        builds = {"this": ROOT, rev: export(args.against, Path(tmp))}
        cpu: dict[str, dict[str, list[float]]] = {b: {} for b in builds}
        checks: dict[str, dict[str, set[object]]] = {b: {} for b in builds}
        for _ in range(args.rounds):
            for name, root in builds.items():
                for label, work in (("movegen", ("movegen", str(args.hands), "5")),
                                    ("rollouts", ("rollouts", str(args.deals), "8"))):
                    out = run(root, *work)
                    cpu[name].setdefault(label, []).append(float(out["cpu"]))  # type: ignore[arg-type]
                    checks[name].setdefault(label, set()).add(out["check"])
                for pid, (nodes, seconds) in solver(root, args.solver).items():
                    cpu[name].setdefault(f"solver {pid}", []).append(seconds)
                    checks[name].setdefault(f"solver {pid}", set()).add(nodes)
                load.append(os.getloadavg()[0])
        print(f"CPU seconds, median of {args.rounds} rounds taken in turns (this checkout vs {rev}):")
        for label in cpu["this"]:
            a, b = statistics.median(cpu["this"][label]), statistics.median(cpu[rev].get(label, [float("nan")]))
            same = "same" if checks["this"][label] == checks[rev].get(label) else "DIFFERENT"
            print(f"  {label:18} this {a:8.3f}  {rev} {b:8.3f}  ratio {a / b:5.3f}  "
                  f"(work check {same}: {sorted(checks['this'][label], key=str)})")
        if args.callgrind:
            print("instructions (valgrind --tool=callgrind, millions, the process without the work subtracted):")
            for label, work, empty in (("movegen 200 hands", ("movegen", "200", "1"), ("movegen", "200", "0")),
                                       ("rollouts 8x4", ("rollouts", "8", "4"), ("rollouts", "0", "4"))):
                counts = {}
                for name, root in builds.items():
                    base = run(root, *empty, callgrind=Path(tmp) / "cg.imports")["instructions"]
                    full = run(root, *work, callgrind=Path(tmp) / "cg.work")["instructions"]
                    counts[name] = (int(full) - int(base)) / 1e6  # type: ignore[call-overload]
                print(f"  {label:18} this {counts['this']:9.1f}  {rev} {counts[rev]:9.1f}  "
                      f"ratio {counts['this'] / counts[rev]:5.3f}")
        shutil.rmtree(Path(tmp) / "src" / ".ddz-home", ignore_errors=True)
    print(f"load average (1 min) during the run: {min(load):.1f}-{max(load):.1f}; cores {os.cpu_count()}")


if __name__ == "__main__":
    main()

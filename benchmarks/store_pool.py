"""What psycopg's pool buys the club store: a pooled connection vs a new connection per request.

One "request" is what a web worker does for one move of a game in progress,
through the real store (:mod:`tutor.store`): open the learner's store, claim
the game at the version the page saw, save the next state, close.  Measured
two ways on the same PostgreSQL:

* ``pool`` — the club's engine as shipped (``Club.open``: psycopg_pool, one
  connection borrowed per statement or transaction);
* ``connect`` — the same requests, each opening its own connection
  (``psycopg.connect``) for all its statements and closing it at the end, as a
  worker without a pool would.

Prints the median and 95th percentile wall time per request, the CPU time of
this process per request (time.process_time; the server's CPU is not in it)
and the load average before and after, as JSON.  Without ``--db`` a
throw-away cluster is started as for the tests (tests/pgcluster.py).

    python benchmarks/store_pool.py [--requests 300] [--db postgresql://…]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _requests(club: Any, learner: int, game_id: int, count: int, connect: bool) -> tuple[list[float], float]:
    """``count`` moves; with ``connect`` each request opens its own connection, used for all its statements."""
    from contextlib import contextmanager

    import psycopg

    from tutor.store.games import GameStore

    engine = club._engine
    pooled = engine.pool.connection
    walls: list[float] = []
    cpu = time.process_time()
    version = 0
    for i in range(count):
        start = time.perf_counter()
        own = psycopg.connect(engine.url, autocommit=True) if connect else None

        @contextmanager
        def borrow(timeout: float | None = None) -> Any:
            yield own

        engine.pool.connection = borrow if connect else pooled
        with club.store_for(learner) as store:
            games = GameStore(store)
            games.claim(game_id, version=version)
            games.save_current({"moves": i})
            version = games.version
        if own is not None:
            own.close()
        walls.append(time.perf_counter() - start)
    engine.pool.connection = pooled
    return walls, (time.process_time() - cpu) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    cluster = None
    url = args.db
    if url is None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.pgcluster import Cluster, binaries

        found = binaries()
        if found is None:
            sys.exit("no PostgreSQL binaries (initdb, pg_ctl) and no --db: nothing to measure")
        cluster = Cluster(found)
        url = cluster.url()
    from tutor.store.club import Club
    from tutor.store.games import GameStore

    load_before = os.getloadavg()
    results: dict[str, Any] = {}
    try:
        for way in ("pool", "connect", "pool"):  # pool twice: the second run shows the first was not a warm-up
            with Club.open(url) as club:
                learner = club.users.add(f"bench{len(results)}{way}", "bench-password").id
                with club.store_for(learner) as store:
                    games = GameStore(store)
                    games.save_current({"moves": -1})
                    game_id = games.claimed
                walls, cpu = _requests(club, learner, int(game_id or 0), args.requests, way == "connect")
            walls.sort()
            results[f"{way}{'' if way not in results else '_again'}"] = {
                "median_ms": round(statistics.median(walls) * 1000, 3),
                "p95_ms": round(walls[int(0.95 * (len(walls) - 1))] * 1000, 3),
                "cpu_ms_per_request": round(cpu * 1000, 3),
            }
    finally:
        if cluster is not None:
            cluster.stop()
    results["requests_each"] = args.requests
    results["ratio_connect_over_pool_median"] = round(results["connect"]["median_ms"] / results["pool"]["median_ms"], 2)
    results["loadavg_before"] = [round(x, 2) for x in load_before]
    results["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    results["cpus"] = os.cpu_count()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

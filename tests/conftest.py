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

**Parallel by default.**  With pytest-xdist installed (the ``test`` extra) the
suite runs in one worker per core, whole files per worker (``--dist loadfile``:
a file's module fixtures, such as the packaging test's wheel build or the
browser tests' Chromium, run once).  The default is set here rather than in
``addopts`` so that ``-p no:xdist`` still works; ``-n 0`` runs in one process,
``-n N`` / ``--dist`` choose otherwise.  Every test must therefore be
parallel-safe (docs/testing.md): so that no test can touch the learner's real
data or another worker's, each process of the run gets its own ``DDZ_HOME``
(tests that need a fresh one still set their own), and the language is
reset to the default after every test.

(The load tests' busy loops are in tests/busy.py.)
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tutor.judgement import provide

provide("tutor.bots.players")  # the tests compose the coach as the program's roots do (tutor/judgement.py)

settings.register_profile(
    "ddz",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
settings.register_profile("ci", parent=settings.get_profile("ddz"), derandomize=True, database=None)
PROFILE = "ci" if os.environ.get("CI") else "ddz"
settings.load_profile(PROFILE)

# Hypothesis's table of what UTF-8 encodes (the first st.text() of a process on a fresh clone: 3.8 s CPU) in
# runs of code points, the same answer (tests/fast_codec.py).
from tests.fast_codec import install as _fast_codec  # noqa: E402

_fast_codec()


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



@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """One worker per core and whole files per worker, unless asked otherwise (see the module doc).

    A single file runs in one process: starting the workers would cost more than it saves.
    """
    if not config.pluginmanager.hasplugin("xdist") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    one_file = len(config.args) == 1 and os.path.isfile(config.args[0].split("::")[0])
    if config.getoption("numprocesses", None) is None and not config.getoption("usepdb", False) and not one_file:
        config.option.numprocesses = "auto"
        if config.getoption("dist", "no") == "no":
            config.option.dist = "loadfile"
    if config.getoption("dist", "no") in ("loadfile", "loadscope"):
        # pytest-xdist (since 3.6) hands the files out by their number of tests, most first, unless told not
        # to: that put the one- and two-test files, the suite's longest among them (the arena under load,
        # the phone game), at the end of the run and made LONGEST_FIRST a dead letter.
        config.option.loadscopereorder = False


#: The files that take longest, run first: whole files go to the workers in this order (xdist's own reordering by
#: number of tests is off: pytest_cmdline_main), and a long file handed out last would leave one worker busy while
#: the other idles at the end.  Only an order (a stale list costs some balance, never a result); the files under
#: 5 s follow in collection order.  Figures: docs/testing.md (round 12: every file of 5 s wall or more in the
#: whole-suite timeline of d44df54, longest first).
LONGEST_FIRST = (
    "tests/cli/test_under_load.py", "tests/cli/test_interrupt.py", "tests/cli/test_play.py",
    "tests/web/test_browser_phone.py", "tests/solver/test_fastest_native.py", "tests/web/test_club_nginx.py",
    "tests/web/test_club.py", "tests/web/test_browser_table.py", "tests/sessions/test_game_wildcard.py",
    "tests/web/test_browser.py", "tests/web/test_coachqueue.py",
    "tests/web/test_browser_four.py", "tests/sessions/test_game.py", "tests/web/test_browser_variant_games.py",
    "tests/lessons/test_validate.py", "tests/web/test_messages.py", "tests/cli/test_bench.py",
    "tests/solver/test_native.py", "tests/web/test_club_server.py", "tests/cli/test_puzzle.py",
    "tests/test_packaging.py", "tests/solver/test_solver_vs_brute.py",
    "tests/web/test_api.py", "tests/cli/test_users.py", "tests/web/test_browser_phone_short.py",
    "tests/cli/test_learn.py", "tests/puzzles/test_library.py", "tests/cli/test_play_variants.py",
    "tests/bots/test_bench_oracle.py", "tests/web/test_club_faults.py", "tests/cli/test_replay_lang.py",
    "tests/store/test_club.py", "tests/cli/test_analyze.py", "tests/web/test_browser_landscape.py",
    "tests/engine/test_cards.py", "tests/web/test_browser_learn.py",
    "tests/cli/test_resume.py", "tests/bots/test_api_doc.py", "tests/test_architecture.py",
    "tests/solver/test_parent_death.py", "tests/cli/test_serve.py", "tests/puzzles/test_personal.py",
    "tests/solver/test_canon.py", "tests/solver/test_score.py", "tests/web/test_fuzz_bodies.py",
    "tests/cli/test_store_damage.py", "tests/coach/test_win_chances.py", "tests/solver/test_team_native.py",
    "tests/cli/test_serve_guard.py", "tests/cli/test_hostile_files.py", "tests/sessions/test_four_players.py",
    "tests/puzzles/test_daily.py", "tests/bots/test_model_mix.py", "tests/web/test_browser_variants.py",
    "tests/engine/test_move_tables.py", "tests/bots/test_effort.py", "tests/web/test_club_busy.py",
    "tests/bots/test_hard.py",
    # round 13's new files of ~5 s (not in d44df54's timeline).  Round 14 took out test_moves.py, test_combos.py and
    # test_files_numbers.py: their Hypothesis draws no longer thrown away, each is now under 4 s CPU (docs/testing.md)
    "tests/web/test_browser_four_side.py", "tests/solver/test_pns.py", "tests/puzzles/test_personal_pns.py",
)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: the rest keep their order


_OWN_HOME: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    """A ``DDZ_HOME`` of this process's own, inherited by the ``ddz`` processes the tests start.

    In an xdist worker, first its share of the assert rewriting (tests/shared_rewrite.py: on a fresh clone each
    worker rewrote every test file).
    """
    global _OWN_HOME
    from tests.shared_rewrite import share

    share(config)  # an xdist worker rewrites its share of the test files' asserts before collecting (fresh clones)
    _OWN_HOME = tempfile.mkdtemp(prefix=f"ddz-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-")
    os.environ["DDZ_HOME"] = _OWN_HOME


def pytest_unconfigure(config: pytest.Config) -> None:
    if _OWN_HOME is not None:
        shutil.rmtree(_OWN_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """A test that switches the process's language (``set_language``) does not leak it into the next test."""
    yield
    from tutor.i18n import DEFAULT_LANGUAGE, set_language

    set_language(DEFAULT_LANGUAGE)


@pytest.fixture(autouse=True)
def _no_terminal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``COLUMNS``/``LINES`` from the shell that started pytest: a test that wants a width sets its own.

    The terminal's plain sentences wrap at ``COLUMNS`` (tutor/cli/say.py) and rich sizes itself by it, so a
    ``COLUMNS=80`` exported by the shell or a CI runner, inherited by every xdist worker, wrapped a one-line note
    at 80 (tests/cli/test_serve_guard.py, once; no test changes the environment: round 15 watched each of
    tests/cli's tests for it).  ``ddz`` processes the tests start inherit the cleared environment too.
    """
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture()
def small_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every coach a game session builds judges on a small budget: the same logic, a fraction of the CPU.

    For tests of the flow around the coach (typing, undo, resume, the store, the final card), where
    the hints and verdicts only have to exist; a test of what the coach says keeps the real budget.
    The scan of the finished game for personal puzzles runs on a small budget too (:func:`small_scan`).
    """
    from functools import partial

    import tutor.sessions.game as game_module
    from tutor.coach import Coach
    from tutor.coach.bidding import BidBudget
    from tutor.coach.evaluation import Budget

    small = partial(Coach, budget=Budget(samples=4, width=2, policy="medium"),
                    bid_budget=BidBudget(samples=4, tries=8, policy="medium"))
    monkeypatch.setattr(game_module, "Coach", small)
    small_scan(monkeypatch)


@pytest.fixture()
def tiny_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`small_coach` smaller still, for whole games of a variant played by following the hints.

    Those tests check that a game of the variant runs to its final card through every level's bots, the
    hints and the store; a hint there is the coach's evaluation code on two samples and one candidate besides
    the moves asked about, with short exact solves at the end.  The wildcard games cost 8 s CPU each on
    ``small_coach`` (the coach's rollouts read every wild card's readings), 2 s on this.
    """
    from functools import partial

    import tutor.sessions.game as game_module
    from tutor.coach import Coach
    from tutor.coach.bidding import BidBudget
    from tutor.coach.evaluation import Budget

    tiny = partial(Coach, budget=Budget(samples=2, width=1, exact_cards=8, leaf_cards=6, nodes=2_000, steps=1, recent=4,
                                        policy="medium"),
                   bid_budget=BidBudget(samples=2, tries=4, policy="medium"))
    monkeypatch.setattr(game_module, "Coach", tiny)
    small_scan(monkeypatch)


@pytest.fixture()
def light_hard_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard level's bots on small budgets: the same code (search, rollouts, card swaps), a fraction of the work.

    For whole games whose point is the flow of a variant through every level (tests/sessions/test_game_wildcard.py:
    the hard wildcard game of deal 4 cost 10 s CPU, nearly all in the hard bots' rollouts); a test of the hard
    bot's play keeps its real budgets.  Since round 9 also the play-outs the hard bot now decides most turns by
    (64 deals, 256 for a farmer: this fixture left them whole) and the rob auction's sampled auctions (24 deals
    of every candidate auction and game; the hard rob-wildcard game of deal 42 spent most of its CPU there).
    """
    from functools import partial

    from tutor.bots import auction_sense
    from tutor.bots.hard import HardBot

    for name, value in (("samples", 3), ("rollout_samples", 3), ("rollout_steps", 2), ("rollout_width", 2),
                        ("playout_samples", 6), ("farmer_playout_samples", 6)):
        monkeypatch.setattr(HardBot, name, value)
    # The rob auction's and the open hand's expected scores (HardBot.bid / show_hand import these at each call):
    # the same play-outs of candidate auctions over fewer sampled deals.
    small = auction_sense.SenseBudget(samples=4, tries=4, show_samples=2)
    monkeypatch.setattr(auction_sense, "auction_scores", partial(auction_sense.auction_scores, budget=small))
    monkeypatch.setattr(auction_sense, "open_scores", partial(auction_sense.open_scores, budget=small))


#: The node budget of the personal-puzzle scan after a game under ``small_coach`` (the real one: 2,000,000),
#: and of each of its proofs (the real one, ``personal.MAX_NODES``: 300,000).
SMALL_SCAN_NODES = 20_000


def small_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan of a finished game for missed wins (tutor/puzzles/personal.py) on a small node budget.

    After every game ``ddz play`` and the web table prove the learner's last turns for personal puzzles;
    on the real budget that is most of a CLI game's CPU (test_play.py: 139 s in all).  The same scan runs,
    with its bookkeeping, and stops sooner; tests of the personal puzzles themselves keep the real budget.
    Each proof is capped too: the scan's budget is checked between proofs, and one proof (or the making of
    a puzzle from a missed win: the fastest line, the tree, the root proof) could take 300,000 nodes — 11 of
    the 13 s CPU of the hint-following game of test_resume.py went there, with no puzzle found in the end.
    """
    from tutor.puzzles import personal

    monkeypatch.setattr(personal, "MAX_NODES", SMALL_SCAN_NODES)

    real = personal.scan

    def scan(store: object, game_id: int | None = None, solver_factory: object = None,
             budget: int = SMALL_SCAN_NODES) -> int:
        return real(store, game_id, solver_factory, min(budget, SMALL_SCAN_NODES))  # type: ignore[arg-type]

    monkeypatch.setattr(personal, "scan", scan)


# ------------------------------------------------------------------ the store on both engines
#: Set when this process found no PostgreSQL binaries (then the PostgreSQL half of the store tests is skipped,
#: loudly; under CI=true that is a failure, since .ci/run installs Debian's postgresql).
_NO_POSTGRES = "!!!!!!!! no PostgreSQL binaries (initdb, pg_ctl): THE POSTGRESQL STORE TESTS ARE SKIPPED !!!!!!!!"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """One throw-away PostgreSQL cluster for this process, started on first use (tests/pgcluster.py)."""
    from tests.pgcluster import Cluster, binaries

    found = binaries()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI=true but PostgreSQL is not installed (initdb/pg_ctl not found): .ci/run installs it")
        import warnings

        warnings.warn(_NO_POSTGRES, stacklevel=1)
        pytest.skip(_NO_POSTGRES)
    cluster = Cluster(found)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh, empty store database of each engine: a SQLite file, or a schema of the test cluster."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("club") / "club.sqlite3")
    cluster = request.getfixturevalue("pg_cluster")
    return str(cluster.url())  # type: ignore[attr-defined]


@pytest.fixture()
def club(db_url: str) -> Iterator[object]:
    """A club opened on ``db_url`` (both engines), closed after the test."""
    from tutor.store.club import Club

    opened = Club.open(db_url)
    try:
        yield opened
    finally:
        opened.close()

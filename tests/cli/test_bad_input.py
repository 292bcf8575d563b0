"""Every command, fed hundreds of bad inputs (issue 11): one line, exit 2, nothing written.

A seeded generator (the same inputs on every run) builds bad arguments for
each command: text that is not cards, numbers that are not numbers or are
out of range (nan, inf, negatives, 5,000 digits), unknown options and
choices, and very long or odd text (control characters, other scripts).  Each
must give exit status 2 and exactly one line on stderr — short, with at most
~40 characters of the input quoted, never a traceback — and must leave the
learner's store as it was (``DDZ_HOME`` is a temporary folder whose database
is compared, row for row, before and after).

Every input is refused while the options are read or the input is checked,
before any long work starts, so the whole run takes seconds.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import COMMAND_MODULES, main

SEED = 11
PER_COMMAND = 16
#: Characters that are never cards (cards are 3-9 T J Q K A 2 X D, 10; separators are spaces and commas).
NOT_CARDS = "@#%&*!?bcefghilmnoprsuvwyzжё€\x1b\t\n/\\\"'<>=+~"
ODD = "\x1b[31m\u202e\x7f\u0000"


def junk(rng: random.Random, long: bool = False) -> str:
    """Text with at least one character that is not a card."""
    size = rng.choice([1, 3, 12, 60, 400]) if not long else rng.choice([5_000, 100_000])
    pool = NOT_CARDS + "3456789TJQKA2XD" + ODD[:-1]
    text = "".join(rng.choices(pool, k=size))  # one call: 100,000 calls of choice() were 3 s of the test's CPU
    spot = rng.randrange(len(text) + 1)
    return text[:spot] + rng.choice("@#жё€") + text[spot:]


def bad_integer(rng: random.Random) -> str:
    return rng.choice(["-1", "-99999999999", "nan", "inf", "1e999", "abc", "", " ", "0x10", "1.5", "１２",
                       "9" * rng.choice([25, 5_000]), "-" + "9" * 5_000, junk(rng)])  # fmt: skip


def bad_seconds(rng: random.Random) -> str:
    return rng.choice(["nan", "-nan", "inf", "-inf", "-1", "-0.5", "1e999", "abc", "", "9" * 5_000,
                       "86401", "1e10", junk(rng)])  # fmt: skip


def unknown_option(rng: random.Random) -> str:
    return "--" + "".join(rng.choice("abcdefghij-") for _ in range(rng.randint(3, 60))) + "x"


def Cases(rng: random.Random) -> dict[str, Callable[[], list[str]]]:  # noqa: N802 - a table
    """For each command, a maker of one bad argument list."""
    pick = rng.choice
    too_big = lambda: str(rng.choice([10**7, 10**12, 2**70]))  # noqa: E731
    return {
        "classify": lambda: pick([[junk(rng)], [junk(rng, long=True)], ["33333"], ["XX"], [""], ["33", unknown_option(rng)]]),
        "moves": lambda: pick([[junk(rng)], ["3344", "--beat", junk(rng)], ["3344", "--beat-kind", "pair"],
                               ["3344", "--beat", "5", "--beat-kind", junk(rng)], [junk(rng, long=True)]]),
        "deal": lambda: pick([[bad_integer(rng)], ["18446744073709551616"], ["9" * 100_000], [junk(rng)]]),
        "solve": lambda: pick([[junk(rng)], ["L:3 F:4", "--max-seconds", bad_seconds(rng)],
                               ["L:3 F:4", "--beat", "5", "--beat-by", bad_integer(rng)],
                               ["L:3 F:4", "--beat", "5", "--beat-by", pick(["7", "3", "0"])],
                               ["L:3 F:4", "--beat", junk(rng)], ["L:3 F:4", unknown_option(rng)],
                               [junk(rng, long=True)], ["L:3 F:4", "--fastest", "--score"]]),
        "play": lambda: pick([["--deal", bad_integer(rng)], ["--deal", "18446744073709551616"],
                              ["--level", junk(rng)], ["--lang", junk(rng)], [unknown_option(rng)]]),
        "stats": lambda: pick([["--lang", junk(rng)], [unknown_option(rng)], [junk(rng)]]),
        "history": lambda: pick([["-n", bad_integer(rng)], ["--limit", "10001"], ["--lang", junk(rng)],
                                 [unknown_option(rng)]]),
        "replay": lambda: pick([[bad_integer(rng)], ["0"], ["424242"], [junk(rng)], ["1", unknown_option(rng)]]),
        "learn": lambda: pick([[junk(rng)], ["9" * 5_000], ["99999"], ["--lang", junk(rng)], [unknown_option(rng)]]),
        "lessons": lambda: pick([["validate", "--json", unknown_option(rng)], [junk(rng)]]),
        "puzzle": lambda: pick([["--date", junk(rng)], ["--date", "2024-02-30"], ["random", "--rating", bad_seconds(rng)],
                                ["random", "--theme", junk(rng)], ["zz" + junk(rng)], ["--lang", junk(rng)]]),
        "puzzles": lambda: pick([["generate", "-n", bad_integer(rng)], ["generate", "-n", "1", "--seed", bad_integer(rng)],
                                 ["generate", "-n", "1", "--workers", pick(["0", "64", too_big()])],
                                 ["generate", "-n", "1", "--max-nodes", pick(["5", too_big() + "0" * 20])],
                                 ["generate", "-n", "1", "--theme", junk(rng)],
                                 ["validate", str(Path("/nonexistent") / junk(rng)[:20].replace("\x00", ""))]]),
        "arena": lambda: pick([["--landlord", junk(rng), "--farmers", "easy"],
                               ["--landlord", "easy", "--farmers", "easy", "-n", bad_integer(rng)],
                               ["--landlord", "easy", "--farmers", "easy", "-n", "0"],
                               ["--landlord", "easy", "--farmers", "easy", "--workers", pick(["0", "64", too_big()])],
                               ["--landlord", "easy", "--farmers", "easy", "--seed", bad_integer(rng)],
                               ["--landlord", "easy"]]),
        "bench": lambda: pick([["movegen", "--hands", pick([str(10**30), "0", "-5", "nan"])],
                               ["movegen", "--runs", bad_integer(rng)], ["movegen", "--seed", bad_integer(rng)],
                               ["solver", "--max-seconds", pick(["0", "nan", "-1", "inf"])],
                               ["solver", "--workers", pick(["0", "64"])], ["solver", "--repeat", bad_integer(rng)],
                               ["solver", "--only", junk(rng)], ["startup", "-n", bad_integer(rng)],
                               [junk(rng)]]),
        # issue 13 (i13-coach): a described position gone wrong, or a bad game id / move number.
        # Only what click refuses: a good port would start the server.
        "serve": lambda: pick([["--port", pick(["-1", "65536", "nan", "abc", "", "1.5", "9" * 5_000, junk(rng)])],
                               ["--lang", junk(rng)], [unknown_option(rng)], ["--open", junk(rng)]]),
        "analyze": lambda: pick([["--hand", junk(rng), "--landlord", "right", "--counts", "right=1,left=1"],
                                 ["--hand", "233", "--landlord", junk(rng), "--counts", "right=1,left=1"],
                                 ["--hand", "233", "--landlord", "right", "--counts", junk(rng)],
                                 ["--hand", "233", "--landlord", "right", "--counts", "right=1,left=1", "--trick", junk(rng)],
                                 ["--hand", "233", "--landlord", "right", "--counts", "right=1,left=1", "--gone", junk(rng)],
                                 ["--hand", "233", "--landlord", "right", "--counts", "right=1,left=1", "--move", junk(rng)],
                                 [bad_integer(rng), "--at", "1"], ["1", "--at", bad_integer(rng)], ["424242", "--at", "1"],
                                 [junk(rng, long=True)]]),
        "mistakes": lambda: pick([[bad_integer(rng)], ["424242"], [junk(rng)], ["1", unknown_option(rng)]]),
        # issue 29: the habits across games.
        "insights": lambda: pick([["--games", bad_integer(rng)], ["--games", "0"], [unknown_option(rng)], [junk(rng)]]),
        # issue 25: a file that is not an export, an unknown learner, a database that is not there.
        "store": lambda: pick([["import", str(Path("/nonexistent") / "x.jsonl")], ["import", __file__],
                               ["export", str(Path("/nonexistent") / "x.jsonl"), "--learner", junk(rng)[:30]],
                               ["import", __file__, "--db", "postgresql://nobody@/x?host=/nonexistent"],
                               ["export"], [junk(rng)], ["import", "", unknown_option(rng)]]),
        # issue 35: the coach's worker without a database, with one that is not there, a bad process count.
        "worker": lambda: pick([[], ["--db", "postgresql://nobody@/x?host=/nonexistent"],
                                ["--processes", bad_integer(rng), "--db", "x"], [unknown_option(rng)]]),
        "users": lambda: pick([["remove", junk(rng)[:30]], ["list", unknown_option(rng)], [junk(rng)],
                               ["list", "--db", "postgresql://nobody@/x?host=/nonexistent"]]),
    }


def bad_inputs() -> Iterator[tuple[str, list[str]]]:
    rng = random.Random(SEED)
    for command, make in Cases(rng).items():
        for _ in range(PER_COMMAND):
            yield command, [command, *make()]


def test_every_command_is_in_the_table() -> None:
    assert set(Cases(random.Random(SEED))) == set(COMMAND_MODULES)


def store_rows(home: Path) -> list[str]:
    """Everything the learner's database holds, as SQL text."""
    path = home / "ddz.sqlite3"
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


def quotes_too_much(args: list[str], said: str) -> bool:
    """Does ``said`` repeat more than ~40 characters of one argument?  (Windows of 60, every 20:
    quoting 80 characters or more in one piece shows one of them whole.)"""
    for arg in args:
        text = " ".join(arg.split())  # as one_line shows it
        for start in range(0, max(0, len(text) - 60) + 1, 20):
            window = text[start : start + 60]
            if len(window) == 60 and (window in said or repr(window)[1:-1] in said):
                return True
    return False


def test_every_command_answers_bad_input_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.delenv("DDZ_LANG", raising=False)
    runner = CliRunner()
    for warm in (["stats"], ["learn", "--json"], ["puzzle", "stats", "--json"]):  # the store exists and is used
        assert runner.invoke(main, warm).exit_code == 0
    before = store_rows(tmp_path)
    assert before
    cases = list(bad_inputs())
    assert len(cases) >= 200
    failures = []
    for command, args in cases:
        result = runner.invoke(main, args)
        lines = result.stderr.splitlines()
        problem = None
        if result.exit_code != 2:
            problem = f"exit {result.exit_code}"
        elif len(lines) != 1:
            problem = f"{len(lines)} lines on stderr"
        elif "Traceback" in result.stderr or len(lines[0]) > 320:
            problem = "traceback or a long line"
        elif "int_max_str_digits" in result.stderr or "Exceeds the limit" in result.stderr:
            problem = "Python's digit limit leaks"
        elif quotes_too_much(args, result.stderr):
            problem = "quotes more than ~40 characters"
        elif result.exception is not None and not isinstance(result.exception, SystemExit):
            problem = repr(result.exception)
        if problem:
            shown = [a[:30] for a in args]
            failures.append(f"ddz {shown}: {problem}: {result.stderr[:300]!r}")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} of {len(cases)})"
    assert store_rows(tmp_path) == before


def test_usage_errors_name_the_option_in_one_line() -> None:
    res = CliRunner().invoke(main, ["arena", "--landlord", "easy", "--farmers", "easy", "--workers", "64"])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "'--workers'" in res.stderr and "out of range" in res.stderr


def test_help_is_still_click_s() -> None:
    res = CliRunner().invoke(main, ["solve", "--help"])
    assert res.exit_code == 0 and res.output.startswith("Usage: ") and " solve [OPTIONS] PLAYERS" in res.output


def test_beat_by_out_of_range_says_so() -> None:
    res = CliRunner().invoke(main, ["solve", "L:3 F:4", "--beat", "5", "--beat-by", "7"])
    assert res.exit_code == 2 and "out of range" in res.stderr
    res = CliRunner().invoke(main, ["solve", "L:3 F:4", "--beat", "5", "--beat-by", "2"])  # two players: 0..1
    assert res.exit_code == 2 and "out of range (players are 0..1)" in res.stderr


def test_a_huge_deal_number_names_the_range() -> None:
    res = CliRunner().invoke(main, ["deal", "9" * 100_000])
    assert res.exit_code == 2
    assert "from 0 to 18446744073709551615" in res.stderr and "4300" not in res.stderr
    assert len(res.stderr) < 200

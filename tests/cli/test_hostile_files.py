"""Hostile lesson and puzzle files: each answered in one line, bounded in memory and CPU.

Every case of the reliability audit (issue 16) — billion laughs, a self-referencing
alias, 1,000 nested brackets, a NUL byte, a file over the size limit, a file of
far too many values, a FIFO, ``/dev/zero``, a 300-character path — is run
through ``ddz lessons validate`` and ``ddz puzzles validate`` inside one child
process limited by ``resource.setrlimit`` (address space and CPU seconds), so a
regression shows as a failure, not as a machine swapping or a test run hanging.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")

MEMORY_LIMIT = 1536 * 1024 * 1024  # the audit saw 1.6 to 5.9 GB
CPU_SECONDS = 120

CHILD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
from click.testing import CliRunner
from tutor.cli.main import main
out = []
for args in json.loads(sys.argv[1]):
    result = CliRunner().invoke(main, args)
    out.append([args, result.exit_code, result.output, repr(result.exception)])
print(json.dumps(out))
"""


def _laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(8):
        prev, name = chr(97 + i), chr(98 + i)
        lines.append(f"{name}: &{name} [" + ",".join(f"*{prev}" for _ in range(9)) + "]")
    return "\n".join(lines) + "\n"


def _hostile(folder: Path) -> dict[str, tuple[Path, int, str]]:
    """name → (path, expected exit status, words the one line must contain)."""
    files = {
        "laughs": (_laughs(), 1, "aliases"),
        "self_alias": ("a: &a [*a]\n", 1, "aliases"),
        "deep_lists": ("[" * 1000 + "]" * 1000 + "\n", 1, "nested too deeply"),
        "deep_maps": ("{a: " * 1000 + "1" + "}" * 1000 + "\n", 1, "nested too deeply"),
        "nul": ("id: x\n\0\n", 1, "NUL byte"),
        "huge": ("puzzles:\n" + "- 1\n" * (6 * 1024 * 1024 // 4), 2, "too large"),
        "many_values": ("puzzles:\n" + "- 1\n" * 210_000, 1, "too many values"),
        "bad_entries": ("puzzles:\n" + "- {id: x}\n" * 5_000, 1, "more"),
        # issue 23: a legal 1.6 MB base-60 scalar (99 s of CPU when PyYAML built it as an integer)
        "sexagesimal": ("puzzles:\n- {id: x, rating: 1" + ":0" * 800_000 + "}\n", 1, "required"),
        "long_value": ("puzzles:\n- {id: " + "q" * 100_000 + "}\n", 1, "required"),
        "digits": ("puzzles:\n- {id: x, rating: " + "9" * 5000 + "}\n", 1, "line 2: '9999"),
        "timestamp": ("a: !!timestamp 2001-99-99\n", 1, "line 1: the YAML tag"),
        "nan": ("puzzles:\n- {id: x, rating: .nan}\n", 1, "line 2: '.nan' is not a finite number"),
        "duplicate_key": ("puzzles: []\npuzzles: []\n", 1, "line 2: the key 'puzzles' appears twice"),
        # issue 32: float() of "++1" or "²" raised past the file's name and line (exit 2)
        "float_signs": ("puzzles:\n- {id: x, rating: !!float ++1}\n", 1, "line 2: '++1' is not a valid float"),
        "float_superscript": ("puzzles:\n- {id: x, rating: !!float ²}\n", 1, "line 2: '²' is not a valid float"),
    }
    out: dict[str, tuple[Path, int, str]] = {}
    for name, (text, code, words) in files.items():
        path = folder / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        out[name] = (path, code, words)
    fifo = folder / "fifo.yaml"
    os.mkfifo(fifo)
    out["fifo"] = (fifo, 2, "not a regular file")
    out["dev_zero"] = (Path("/dev/zero"), 2, "not a regular file")
    out["long_path"] = (folder / ("x" * 300 + ".yaml"), 2, "file name too long")
    return out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_hostile_files_are_one_line_each_within_memory_and_cpu_limits(tmp_path: Path) -> None:
    cases = _hostile(tmp_path)
    runs = []
    for name, (path, _, _) in cases.items():
        if name != "many_values":  # the same bounded parser serves both: the slow case runs once
            runs.append(["lessons", "validate", str(path)])
        runs.append(["puzzles", "validate", "--schema-only", str(path)])
    child = subprocess.run(
        [sys.executable, "-c", CHILD.format(memory=MEMORY_LIMIT, cpu=CPU_SECONDS), json.dumps(runs)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "DDZ_HOME": str(tmp_path / "home")},
    )
    assert child.returncode == 0, child.stderr[-2000:]
    results = {(args[0], args[-1]): (code, output, exc) for args, code, output, exc in json.loads(child.stdout)}
    for name, (path, code, words) in cases.items():
        for tool in ("lessons", "puzzles"):
            if (tool, str(path)) not in results:
                continue
            got, output, exc = results[(tool, str(path))]
            assert "Traceback" not in output and "MemoryError" not in exc, (name, tool, output)
            assert got == code, (name, tool, got, output)
            lines = [line for line in output.splitlines() if line.strip()]
            # puzzles: one error line; lessons: one line a problem (at most 50 schema problems) and the count.
            if tool == "puzzles" or name not in ("bad_entries", "sexagesimal", "long_value"):
                assert len(lines) == (1 if tool == "puzzles" else 2), (name, tool, output)
                assert words in lines[0], (name, tool, output)
            assert len(lines) <= 52 and all(len(line) < 300 for line in lines), (name, tool, output)
            assert not any(ch * 41 in output for ch in "9q:0"), (name, tool, "quotes over 40 characters of input")


@pytest.mark.parametrize(("field", "value"), [("players", "F:9AA L:5577TTQQ2 F:" + "3" * 100_000),
                                              ("players", "F:9AA L:5577TTQQ2 F:" + "Z" * 100_000),
                                              ("move", "K" * 100_000)])
def test_a_huge_bad_value_in_a_puzzle_is_one_short_line_with_file_and_line(tmp_path: Path, field: str,
                                                                            value: str) -> None:
    """Issue 32: a bad ``players:`` value was quoted whole (a 100,067-character line) with no file or line."""
    import yaml
    from click.testing import CliRunner

    from tutor.cli.main import main
    from tutor.paths import puzzles_dir

    text = (puzzles_dir() / "composed.yaml").read_text(encoding="utf-8")
    first = yaml.safe_load(text)["puzzles"][0]
    if field == "players":
        first["position"]["players"] = value
    else:
        first["solution"]["replies"][0]["move"] = value
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump({"puzzles": [first]}, width=10**7), encoding="utf-8")
    for args in (["puzzles", "validate", "--schema-only", str(path)], ["puzzles", "validate", str(path)]):
        result = CliRunner().invoke(main, args, env={"DDZ_HOME": str(tmp_path / "home")})
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 1 and len(lines) == 1, (args, result.output[:300])
        assert "long.yaml" in lines[0] and "line " in lines[0] and len(lines[0]) < 400, lines[0][:300]
        assert not any(ch * 41 in lines[0] for ch in "3ZK"), lines[0][:300]

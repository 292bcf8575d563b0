"""Bounded reading (size, regular files, aliases, depth, NUL) and safe atomic writes (tutor.files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tutor.files import (
    MAX_DEPTH,
    InvalidFile,
    UnreadableFile,
    atomic_write_text,
    clip_quotes,
    load_yaml_file,
    parse_yaml,
    read_text,
    shown,
)


def test_plain_yaml_loads_with_the_line_of_every_field() -> None:
    lines: dict[tuple[object, ...], int] = {}
    data = parse_yaml("a: 1\nb:\n  - x\n  - {c: 2.5, d: null, e: true, f: '3'}\n", "t", lines)
    assert data == {"a": 1, "b": ["x", {"c": 2.5, "d": None, "e": True, "f": "3"}]}
    assert lines[("a",)] == 1 and lines[("b",)] == 2 and lines[("b", 0)] == 3 and lines[("b", 1, "c")] == 4


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("a: &a [*a]\n", "line 1: YAML aliases"),
        ("a: &x 1\nb: *x\n", "line 2: YAML aliases"),
        ("[" * 1000 + "]" * 1000, f"nested too deeply (the limit is {MAX_DEPTH} levels)"),
        ("{a: " * 1000 + "1" + "}" * 1000, "nested too deeply"),
        ("- " * 1000 + "x", "nested too deeply"),
        ("<<: {a: 1}\n", "merge keys"),
        ("[a]: 1\n", "a mapping key must be a plain value"),
        ("a\n---\nb\n", "more than one YAML document"),
        ("a: !!python/object/apply:os.system [ls]\n", "is not supported"),
        ("a: !!python/name:os.system ''\n", "line 1: the YAML tag"),
        ("a: !!set {x}\n", "is not supported"),
        ("{a: 1\n", "line 2: not valid YAML"),
        ("a: 1\nb: 2\na: 3\n", "line 3: the key 'a' appears twice"),
        ("a: !!timestamp 2001-12-14\n", "line 1: the YAML tag 'tag:yaml.org,2002:timestamp'"),
        ("a: !!timestamp 2001-99-99\n", "is not supported"),
        ("a: !!binary aGk=\n", "is not supported"),
        ("x: 1\nrating: .nan\n", "line 2: '.nan' is not a finite number"),
        ("rating: -.inf\n", "not a finite number"),
        ("rating: [1.5e+999]\n", "not a finite number"),
        ("a: !!float .NaN\n", "not a finite number"),
        ("a: " + "7" * 5000 + "\n", "is too long for a number"),
        ("a: !!int 1.5\n", "'1.5' is not a valid int"),
        ("a: !!" + "t" * 5000 + " 1\n", "is not supported"),
        ("a: " + "[" * 2000 + "\n", "not valid YAML"),
    ],
)
def test_hostile_yaml_is_one_line_naming_the_file_and_line(text: str, what: str) -> None:
    with pytest.raises(InvalidFile) as caught:
        parse_yaml(text, "f.yaml")
    message = str(caught.value)
    assert message.startswith("f.yaml: ") and what in message
    assert "\n" not in message and len(message) < 200


def test_only_json_types_are_read_the_yaml_1_1_extras_stay_strings() -> None:
    text = "a: 1:0:0\nb: 2001-12-14\nc: yes\nd: 0x1F\ne: 1_000\nf: 012\ng: 13e766\nh: ~\ni: 1.5e-3\nj: -7\nk: TRUE\n"
    assert parse_yaml(text) == {
        "a": "1:0:0", "b": "2001-12-14", "c": "yes", "d": "0x1F", "e": "1_000", "f": "012", "g": "13e766",
        "h": None, "i": 0.0015, "j": -7, "k": True,
    }
    assert parse_yaml("a: !!float 2\nb: !!str 3\nc: '4'\nd: !!null ''\ne: ! 5\n") == {
        "a": 2.0, "b": "3", "c": "4", "d": None, "e": "5"}


def test_a_megabyte_of_base_60_digits_is_one_string_read_in_one_pass() -> None:
    # PyYAML's YAML 1.1 resolver built this as a base-60 integer in quadratic time (99 s of CPU);
    # the value must come back as the text it is (no arithmetic on it at all).
    value = "1" + ":0" * 800_000
    assert parse_yaml(f"a: {value}\n")["a"] == value


def test_error_lines_quote_at_most_forty_characters_of_input() -> None:
    for text in ("a: !!int " + "x" * 100_000 + "\n", "a: " + "9" * 5000 + "\n", "{" + "k" * 100_000 + ": 1, k" * 2 + ": 2}"):
        with pytest.raises(InvalidFile) as caught:
            parse_yaml(text, "f.yaml")
        assert len(str(caught.value)) < 160 and "x" * 41 not in str(caught.value)
    assert clip_quotes("bad card 'z' in '" + "z" * 100 + "' and 'ab'") == f"bad card 'z' in '{'z' * 39}…' and 'ab'"


def test_too_many_values_are_refused() -> None:
    with pytest.raises(InvalidFile, match="too many values"):
        parse_yaml("[" + "1," * 200 + "1]", "f.yaml", max_nodes=100)


def test_nul_bytes_and_bad_encodings_are_invalid_with_their_line(tmp_path: Path) -> None:
    nul = tmp_path / "nul.yaml"
    nul.write_bytes(b"a: 1\nb: \0\n")
    with pytest.raises(InvalidFile, match=r"nul.yaml: line 2: contains a NUL byte"):
        load_yaml_file(nul)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: 1\n\nb: \xe9\n")
    with pytest.raises(InvalidFile, match=r"line 3: not UTF-8 text"):
        read_text(latin)


def test_only_regular_files_of_bounded_size_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)  # opening it blocking would hang forever
    cases = {
        fifo: "not a regular file",
        Path("/dev/zero"): "not a regular file",
        tmp_path: "it is a folder",
        tmp_path / "missing.yaml": "no such file",
        tmp_path / ("x" * 300): "file name too long",
        Path("a\0b"): "bad file name",
    }
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" * 2000)
    cases[big] = "too large"
    for path, what in cases.items():
        with pytest.raises(UnreadableFile) as caught:
            read_text(path, limit=1000)
        assert what in str(caught.value) and "\n" not in str(caught.value)
        assert len(str(caught.value)) < 120, "a long path is quoted short"


def test_shown_paths_are_short_and_printable() -> None:
    assert shown("/tmp/a.yaml") == "/tmp/a.yaml"
    long = shown("/" + "d" * 300 + "/f.yaml")
    assert len(long) == 40 and long.endswith("/f.yaml")
    assert shown("a\0b\nc") == "a?b?c"


def test_atomic_write_replaces_a_planted_symlink_instead_of_following_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "out.yaml"
    target.symlink_to(victim)
    (tmp_path / "out.yaml.tmp").symlink_to(victim)  # the old fixed temporary name, planted too
    atomic_write_text(target, "new text")
    assert victim.read_text() == "precious"
    assert not target.is_symlink() and target.read_text() == "new text"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.yaml", "out.yaml.tmp", "victim.txt"]


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(TypeError):
        atomic_write_text(target, 12)  # type: ignore[arg-type]
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]

"""Flat catalogue files are read without PyYAML (issue 33: its import was a third of ``ddz solve``'s
start), and mean exactly what the full loader makes of them; anything else still goes to the full loader."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from tutor import i18n
from tutor.files import InvalidFile, load_yaml_file

CATALOGUES = sorted(glob.glob(os.path.join(os.path.dirname(i18n.__file__), "*", "*.yaml")))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: "/".join(Path(p).parts[-2:]))
def test_a_flat_catalogue_reads_as_the_full_loader_reads_it(path: str) -> None:
    flat = i18n.flat_strings(path)
    if flat is not None:
        full = load_yaml_file(path)
        assert flat == {str(k): str(v) for k, v in full.items()}
        assert list(flat) == [str(k) for k in full]


def test_the_solver_s_and_the_cli_s_catalogues_are_flat() -> None:
    """What ``ddz solve`` prints is read without PyYAML, in both languages."""
    for lang in i18n.LANGUAGES:
        for area in ("solve", "cli"):
            path = os.path.join(os.path.dirname(i18n.__file__), lang, f"{area}.yaml")
            assert i18n.flat_strings(path), path


@pytest.mark.parametrize(
    "text",
    [
        'a: "one"\na: "two"\n',  # a key twice: the full loader's error
        'yes: "one"\n',  # a key YAML 1.1 reads as a boolean
        'a: "back\\\\slash"\n',  # an escape
        'a: plain\n',  # not quoted
        '  a: "indented"\n',
        'a: "one"  # a comment after\n',
        'a: "one"\r\n',  # CRLF
        'a: "bell \x07"\n',  # not printable for YAML
        'a: "next\x85line"\n',  # a YAML line break
        '\ufeffa: "bom"\n',
        'a:\n  - "list"\n',
    ],
)
def test_anything_more_than_flat_goes_to_the_full_loader(tmp_path: Path, text: str) -> None:
    path = tmp_path / "area.yaml"
    path.write_text(text, encoding="utf-8")
    assert i18n.flat_strings(str(path)) is None


def test_flat_strings_keep_text_exactly(tmp_path: Path) -> None:
    path = tmp_path / "area.yaml"
    path.write_text('# a comment\n\nx: "  {n|card|cards} ×{m} #1 — тест\t"\nyes_no: ""\n', encoding="utf-8")
    assert i18n.flat_strings(str(path)) == {"x": "  {n|card|cards} ×{m} #1 — тест\t", "yes_no": ""}
    assert i18n.flat_strings(str(path)) == load_yaml_file(path)


def test_a_duplicate_key_is_still_the_full_loader_s_error(tmp_path: Path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text('a: "one"\na: "two"\n', encoding="utf-8")
    assert i18n.flat_strings(str(path)) is None
    with pytest.raises(InvalidFile, match="appears twice"):
        load_yaml_file(path)


def test_bad_utf8_or_a_missing_file_is_not_flat(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b'a: "\xff"\n')
    assert i18n.flat_strings(str(path)) is None
    assert i18n.flat_strings(str(tmp_path / "missing.yaml")) is None

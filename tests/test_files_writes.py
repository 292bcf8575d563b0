"""Writes to a path the user names leave anything that is not a regular file alone (issue 32).

``os.replace`` replaces whatever is at the target: ``ddz store export /dev/full`` (as root)
replaced the machine's ``/dev/full`` with a regular file.  A FIFO, a socket, a device (made
here in tmp_path, never a real /dev node) or a link to one is now refused in one line, and
is still what it was afterwards; a new file and a regular file are written as before.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.files import NotARegularFile, atomic_write_text

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


@pytest.fixture()
def specials(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """name → a path that is not a regular file (links to them included)."""
    out = {"fifo": tmp_path / "fifo"}
    os.mkfifo(out["fifo"])
    out["link to fifo"] = tmp_path / "link-fifo"
    out["link to fifo"].symlink_to(out["fifo"])
    out["socket"] = tmp_path / "sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(out["socket"]))
    try:  # a character device like /dev/full (1, 7), made here: only where mknod is allowed (root, no sandbox)
        os.mknod(tmp_path / "full", 0o600 | stat.S_IFCHR, os.makedev(1, 7))
        out["link to a device"] = tmp_path / "link-full"
        out["link to a device"].symlink_to(tmp_path / "full")
    except (OSError, AttributeError):
        pass
    yield out
    listener.close()


def _kind(path: Path) -> int:
    return stat.S_IFMT(os.stat(path).st_mode)


def test_atomic_write_refuses_what_is_not_a_regular_file(specials: dict[str, Path]) -> None:
    for name, path in specials.items():
        before = (_kind(path), os.lstat(path).st_ino)
        with pytest.raises(NotARegularFile) as refused:
            atomic_write_text(path, "x")
        assert "not a regular file" in str(refused.value), name
        assert (_kind(path), os.lstat(path).st_ino) == before, f"{name} was replaced"
    assert not [p for p in specials["fifo"].parent.iterdir() if p.name.endswith(".tmp")], "no temporary file left"


def test_atomic_write_still_writes_new_and_regular_files(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "new.txt", "one")
    atomic_write_text(tmp_path / "new.txt", "two")
    assert (tmp_path / "new.txt").read_text() == "two"
    with pytest.raises(NotARegularFile):
        atomic_write_text(tmp_path, "a folder")


def test_store_export_onto_a_fifo_or_a_device_is_one_line_exit_2(specials: dict[str, Path], tmp_path: Path) -> None:
    for name, path in specials.items():
        before = (_kind(path), os.lstat(path).st_ino)
        result = CliRunner().invoke(main, ["store", "export", str(path)], env={"DDZ_HOME": str(tmp_path / "home")})
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1 and "not a regular file" in lines[0], (name, result.output)
        assert (_kind(path), os.lstat(path).st_ino) == before, f"{name} was replaced"

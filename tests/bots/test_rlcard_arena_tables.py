"""RLCard's tables loaded under a lock (tutor/bench/rlcard_arena.py): runs without rlcard (a stand-in package)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tutor.bench import rlcard_arena


def test_rlcards_tables_load_under_a_lock_on_their_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rlcard unzips its tables at its first import: a second process must wait, not read half a file.  A stand-in
    package whose module, while it loads, tries the same lock from another descriptor: it must find it held."""
    root = tmp_path / "rlcard"
    folder = root / "games" / "doudizhu"
    folder.mkdir(parents=True)
    for package in (root, root / "games", folder):
        (package / "__init__.py").write_text("")
    (folder / "utils.py").write_text(
        "import fcntl, os\n"
        "fd = os.open(os.path.dirname(__file__), os.O_RDONLY)\n"
        "try:\n"
        "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "    HELD = False\n"
        "except BlockingIOError:\n"
        "    HELD = True\n"
        "finally:\n"
        "    os.close(fd)\n"
    )
    for name in [n for n in sys.modules if n == "rlcard" or n.startswith("rlcard.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(tmp_path))
    rlcard_arena._load_tables(str(root))
    assert sys.modules["rlcard.games.doudizhu.utils"].HELD is True
    # Loaded once: a second call neither locks nor imports again.
    rlcard_arena._load_tables(str(root / "nowhere"))

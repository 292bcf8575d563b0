"""Which process has a game open: an advisory lock file per game.

A game in progress belongs to the ``ddz`` process that holds its lock.  The
operating system drops the lock when that process ends, however it ends (quit,
Ctrl-C, a crash, ``kill -9``), so a game is never stuck as "open in another
window" after its window is gone, and no clock or process id is trusted.

The lock files live in ``<store folder>/locks/`` (inside ``DDZ_HOME``); they
hold nothing and may be deleted when no ``ddz`` runs.  POSIX uses ``flock``
(one lock per open file, so two stores opened by one process also exclude each
other, as two windows would); Windows uses ``msvcrt.locking``.  A store in
memory (tests) keeps its locks in this process.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import IO

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_MEMORY_LOCKS: set[str] = set()


class GameLock:
    """An exclusive, non-blocking lock on one game (``acquire`` → True when it is ours)."""

    def __init__(self, folder: Path | None, key: str) -> None:
        self.folder = folder
        self.key = key
        self._file: IO[bytes] | None = None
        self._memory = False

    @property
    def held(self) -> bool:
        return self._file is not None or self._memory

    def acquire(self) -> bool:
        if self.held:
            return True
        if self.folder is None:
            if self.key in _MEMORY_LOCKS:
                return False
            _MEMORY_LOCKS.add(self.key)
            self._memory = True
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / f"game-{self.key}.lock",
                         os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except OSError as error:
            raise _broken(self.folder, error) from None
        handle = os.fdopen(fd, "r+b")
        if not _try_lock(handle):
            handle.close()
            return False
        self._file = handle
        return True

    def release(self, forget: bool = False) -> None:
        """Let the game go; ``forget`` also removes the lock file (the game is finished)."""
        if self._memory:
            _MEMORY_LOCKS.discard(self.key)
            self._memory = False
        if self._file is not None:
            if forget and self.folder is not None:
                try:
                    os.unlink(self.folder / f"game-{self.key}.lock")
                except OSError:
                    pass
            self._file.close()  # closing drops the lock
            self._file = None

    def is_taken(self) -> bool:
        """Whether another process (or another store in this one) holds the game now."""
        if self.held:
            return False
        if self.folder is None:
            return self.key in _MEMORY_LOCKS
        path = self.folder / f"game-{self.key}.lock"
        if not path.exists():
            return False
        probe = GameLock(self.folder, self.key)
        try:
            if probe.acquire():
                probe.release()
                return False
        except (OSError, ValueError):  # a broken lock folder: acquiring it will say so
            return False
        return True


def _broken(folder: Path, error: OSError) -> Exception:
    """A lock folder that is a file, or cannot be written: blamed on ``locks/``, never on the store."""
    from tutor.files import shown
    from tutor.i18n import t
    from tutor.store import StoreLocationError

    if error.errno == errno.ENOSPC:
        from tutor.store import StoreFullError

        return StoreFullError(t("store.full", path=shown(folder)))
    if isinstance(error, (FileExistsError, NotADirectoryError)):
        error = NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
    return StoreLocationError(t("store.locks_broken", path=shown(folder), why=(error.strerror or str(error)).lower()))


def _try_lock(handle: IO[bytes]) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    import msvcrt  # pragma: no cover - Windows

    try:  # pragma: no cover - Windows
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined, unused-ignore]
    except OSError:  # pragma: no cover - Windows
        return False
    return True  # pragma: no cover - Windows

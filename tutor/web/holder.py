"""One session per activity, shared by every tab, behind a lock and a revision number.

The page's tabs all talk to the same session (the learner's current game,
lesson or puzzle).  Every request that acts carries the revision the page last
saw; when another tab acted in between, the request is refused with 409 and
the page redraws from the new state — so two tabs never play on a stale table.
Session work runs in a worker thread (Starlette runs plain route functions in
its thread pool) under this lock, so a bot thinking on one game never holds up
the other routes.
"""

from __future__ import annotations

import io
import logging
import pickle
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import AbstractContextManager as ContextManager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from tutor.web.errors import refuse

if TYPE_CHECKING:
    from tutor.store import Store

log = logging.getLogger("tutor.web")

S = TypeVar("S")


@dataclass
class Slot(Generic[S]):
    """The session in a slot and its revision (bumped by every action)."""

    session: S | None = None
    rev: int = 0


class Holder(Generic[S]):
    """A slot plus the lock that serialises the work on it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.slot: Slot[S] = Slot()
        self._lock = threading.Lock()
        #: One worker thread for work that keeps a store connection across requests (the game's claim).
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"ddz-{name}")

    @contextmanager
    def held(self) -> Iterator[Slot[S]]:
        with self._lock:
            yield self.slot

    def current(self, slot: Slot[S]) -> S:
        """The session, or 404 when there is none."""
        if slot.session is None:
            raise refuse(404, f"err_none_{self.name}")
        return slot.session

    @staticmethod
    def check_rev(slot: Slot[S], rev: object) -> None:
        """409 when the page acted on an older state than the slot's (another tab moved on)."""
        if rev != slot.rev:
            raise refuse(409, "err_stale")

    @staticmethod
    def replace(slot: Slot[S], session: S | None) -> None:
        slot.session = session
        slot.rev += 1


Factory = Callable[[], S]


# ------------------------------------------------------------------ club mode: the slot lives in the store
#
# With many learners and several server processes (``ddz serve --db … --workers N``) no session may live
# only in one process: each request loads the learner's slot from the store, acts, and saves it back, all
# in one transaction that holds the slot's row (:func:`tutor.store.web_slots.web_slot`), so two workers acting
# on one learner's game serialise in the database and the second one meets the new revision (the 409).
#
# A session is saved as a pickle.  The objects every process already has (the course, its lessons, the
# puzzle library, the solver) travel by name, not by value; loading uses a restricted unpickler that
# builds only classes of the trainer's pure packages and a few plain builtins and calls no function, so
# even a tampered row cannot run code or touch files.

#: Packages whose classes a saved session may contain (never the store, the web or the command line).
_SAFE_PACKAGES = ("tutor.engine", "tutor.bots", "tutor.coach", "tutor.lessons", "tutor.puzzles",
                  "tutor.sessions", "tutor.solver", "tutor.i18n")
_SAFE_BUILTINS = {("builtins", name) for name in ("set", "frozenset", "list", "dict", "tuple", "bytearray",
                                                   "complex", "slice", "range", "object")} | {
    ("datetime", "date"), ("datetime", "datetime"), ("datetime", "timedelta"), ("collections", "OrderedDict"),
    ("collections", "deque"), ("random", "Random"), ("copyreg", "_reconstructor")}
#: Bumped when what a slot holds changes shape: an older saved session is then dropped, never misread.
SNAPSHOT_FORMAT = 2  # 2: a game session keeps its coach jobs (issue 35)


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: Shared, solver: object) -> None:
        super().__init__(file, protocol=5)
        self.shared = shared
        self.solver = solver

    def persistent_id(self, obj: object) -> tuple[str, str] | None:
        if obj is self.solver and obj is not None:
            return ("solver", "")
        return self.shared.name_of(obj)


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, resolve: Callable[[tuple[str, str]], object]) -> None:
        super().__init__(file)
        self.resolve = resolve

    def persistent_load(self, pid: Any) -> object:
        if not (isinstance(pid, tuple) and len(pid) == 2 and all(isinstance(p, str) for p in pid)):
            raise pickle.UnpicklingError(repr(pid)[:80])
        return self.resolve(pid)

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _SAFE_BUILTINS:
            return super().find_class(module, name)
        if any(module == package or module.startswith(package + ".") for package in _SAFE_PACKAGES):
            found = super().find_class(module, name)
            if isinstance(found, type):  # a class is built; a function is never called
                return found
        raise pickle.UnpicklingError(f"{module}.{name}")  # not a class a saved session may hold


class Shared:
    """The process-wide objects a saved session refers to by name: the course, its lessons, the puzzles, the solver.

    Each is loaded only when a session refers to it (a game never loads the puzzle library).
    """

    def __init__(self, solver: Callable[[], object], course: Callable[[], list[Any]],
                 library: Callable[[], Any]) -> None:
        self.solver = solver
        self.course = course
        self.library = library

    def name_of(self, obj: object) -> tuple[str, str] | None:
        """``obj``'s name when it is one of the shipped objects (the very object, not an equal copy)."""
        from tutor.lessons.model import Lesson
        from tutor.puzzles.model import Puzzle

        kind = type(obj)
        if kind is Lesson:
            shipped = any(lesson is obj for lesson in self.course())
            return ("lesson", str(getattr(obj, "id", ""))) if shipped else None
        if kind is Puzzle:
            ident = str(getattr(obj, "id", ""))
            try:
                return ("puzzle", ident) if self.library().get(ident) is obj else None
            except (KeyError, ValueError):
                return None  # the learner's own puzzle (from their games): saved by value
        if kind is list and obj and type(obj[0]) is Lesson and obj is self.course():  # type: ignore[index]
            return ("course", "")
        return None

    def resolve(self, pid: tuple[str, str]) -> object:
        kind, ident = pid
        if kind == "solver":
            return self.solver()
        if kind == "course":
            return self.course()
        if kind == "lesson":
            found = next((lesson for lesson in self.course() if lesson.id == ident), None)
        elif kind == "puzzle":
            try:
                found = self.library().get(ident)
            except (KeyError, ValueError):
                found = None
        else:
            found = None
        if found is None:
            raise pickle.UnpicklingError(f"{kind}:{ident}")  # no longer shipped
        return found

    def dumps(self, rev: int, session: object) -> bytes:
        buffer = io.BytesIO()
        solver = getattr(getattr(session, "attempt", None), "solver", None)
        _Pickler(buffer, self, solver).dump((SNAPSHOT_FORMAT, rev, session))
        return buffer.getvalue()

    def loads(self, data: bytes) -> tuple[int, Any]:
        """``(rev, session)`` of a saved slot; an unreadable one (an older format, a tampered row) is empty."""
        try:
            fmt, rev, session = _Unpickler(io.BytesIO(data), self.resolve).load()
        except Exception as error:  # noqa: BLE001 - any unreadable snapshot: start afresh, say why in the log
            log.warning("a saved session could not be read (%s): starting afresh", str(error)[:80])
            return 0, None
        if fmt != SNAPSHOT_FORMAT or not isinstance(rev, int):
            return 0, None
        return rev, session


class Packing(Protocol):
    """How one activity's session leaves a request (``pack``) and comes back into the next (``unpack``)."""

    def pack(self, session: Any) -> Any: ...

    def unpack(self, packed: Any, store: Store) -> Any: ...


class AsIs:
    """Sessions whose store the routes attach around each action (lessons, puzzles, mistakes)."""

    #: Where those sessions keep the store (or an area of it) while they act.
    STORE_FIELDS = ("book", "progress", "store")

    def pack(self, session: Any) -> Any:
        for name in self.STORE_FIELDS:
            if getattr(session, name, None) is not None:
                setattr(session, name, None)
        return session

    def unpack(self, packed: Any, store: Store) -> Any:
        return packed


class StoredHolder(Holder[S]):
    """Club mode: the slot is the learner's row in the store, loaded and saved by every request.

    ``held()`` takes the row (and with it the transaction the request's work runs in), yields the slot,
    and saves it when it changed; an exception rolls everything back, the slot included.
    """

    def __init__(self, name: str, store: Callable[[], ContextManager[Store]], shared: Shared,
                 executor: Executor, packing: Packing | None = None) -> None:
        self.name = name
        self._store = store
        self.shared = shared
        self.packing: Packing = packing or AsIs()
        self.executor = executor  # type: ignore[assignment]  # the club's bounded pool, shared by everyone

    @contextmanager
    def held(self) -> Iterator[Slot[S]]:
        from tutor.store.web_slots import web_slot

        with self._store() as store, web_slot(store, self.name) as row:
            rev, packed = self.shared.loads(row.data) if row.data else (0, None)
            slot: Slot[S] = Slot(None if packed is None else self.packing.unpack(packed, store), rev)
            try:
                yield slot
            finally:
                packed = None if slot.session is None else self.packing.pack(slot.session)
            data = self.shared.dumps(slot.rev, packed)
            if data != row.data:
                row.save(data)

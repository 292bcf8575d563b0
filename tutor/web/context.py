"""What every route shares: where the store is, the learner's settings, the session slots.

The store is opened per request, inside the worker thread that serves it
(SQLite connections belong to one thread), and closed at once: the terminal
and the browser write the same file, each in short transactions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.i18n import LANGUAGES, speaking
from tutor.store import Store
from tutor.web.errors import ApiError, quoted
from tutor.web.holder import Holder

if TYPE_CHECKING:
    from tutor.puzzles.generate import SolverLike

LEVELS = ("easy", "medium", "hard")
DEFAULTS: dict[str, Any] = {"lang": "en", "level": "medium", "coach": True, "counter": False}


@dataclass
class Context:
    """The server's state: the store's path, an injectable puzzle solver and one slot per activity."""

    store_path: Path | None = None
    solver_factory: Callable[[], SolverLike] | None = None
    game: Holder[Any] = field(default_factory=lambda: Holder("game"))
    puzzle: Holder[Any] = field(default_factory=lambda: Holder("puzzle"))
    lesson: Holder[Any] = field(default_factory=lambda: Holder("lesson"))
    mistakes: Holder[Any] = field(default_factory=lambda: Holder("mistakes"))

    @contextmanager
    def store(self) -> Iterator[Store]:
        with Store.open(self.store_path) as store:
            yield store

    def settings(self, store: Store) -> dict[str, Any]:
        """The learner's settings (the terminal's keys), with defaults for anything unset or odd."""
        out = dict(DEFAULTS)
        for key, default in DEFAULTS.items():
            value = store.get_setting(key, default)
            if isinstance(value, type(default)):
                out[key] = value
        if out["lang"] not in LANGUAGES:
            out["lang"] = DEFAULTS["lang"]
        if out["level"] not in LEVELS:
            out["level"] = DEFAULTS["level"]
        return out

    def solver(self) -> SolverLike:
        if self.solver_factory is not None:
            return self.solver_factory()
        from tutor.sessions.puzzle import default_solver

        return default_solver()


def chosen_lang(store: Store, context: Context, asked: str | None) -> str:
    """The language of this answer: ``?lang=`` when given (checked), else the stored setting."""
    if asked is None:
        return str(context.settings(store)["lang"])
    if asked not in LANGUAGES:
        raise ApiError(400, f"unknown language {quoted(asked)} (one of: {', '.join(LANGUAGES)})")
    return asked


@contextmanager
def answer_in(lang: str) -> Iterator[None]:
    with speaking(lang):
        yield

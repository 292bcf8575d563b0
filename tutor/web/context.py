"""What every route shares: where the store is, the learner's settings, the session slots.

The store is opened per request, inside the worker thread that serves it
(SQLite connections belong to one thread), and closed at once: the terminal
and the browser write the same file, each in short transactions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.engine.rules import AUCTIONS, SEAT_COUNTS
from tutor.i18n import LANGUAGES, speaking
from tutor.store import Store, StoreError, default_path
from tutor.web.errors import quoted, refuse
from tutor.web.holder import Holder

if TYPE_CHECKING:
    from tutor.puzzles.generate import SolverLike

LEVELS = ("easy", "medium", "hard")
DEFAULTS: dict[str, Any] = {"lang": "en", "level": "medium", "coach": True, "counter": False,
                            "auction": "bid", "open_hand": False,
                            "wildcard": False,  # the variants (RULES §12), ddz play's keys
                            "players": 3}  # four players with two decks (RULES §12.4)


@dataclass
class Context:
    """The server's state: the store's path, an injectable puzzle solver and one slot per activity."""

    store_path: Path | None = None
    solver_factory: Callable[[], SolverLike] | None = None
    game: Holder[Any] = field(default_factory=lambda: Holder("game"))
    puzzle: Holder[Any] = field(default_factory=lambda: Holder("puzzle"))
    lesson: Holder[Any] = field(default_factory=lambda: Holder("lesson"))
    mistakes: Holder[Any] = field(default_factory=lambda: Holder("mistakes"))

    #: Whether a game's store connection belongs to the game (here: yes, it lives as long as the game).
    owns_game_store = True
    #: Where the bots' thinking time is summed (club mode, per request: tutor.web.game.ThinkClock).
    think_clock: Any = None
    #: Club mode on PostgreSQL: where the coach's jobs go (tutor.web.coachqueue.CoachQueue); None: it thinks inline.
    coach_queue: Any = None

    @contextmanager
    def store(self) -> Iterator[Store]:
        with Store.open(self.store_path) as store:
            yield store

    def game_store(self) -> Store:
        """A connection for a game to keep while it is played (it holds the game's claim)."""
        return Store.open(self.store_path)

    def for_request(self, scope: Mapping[str, Any]) -> Context:
        """The context a request works in: this one (one learner); club mode gives the signed-in learner's."""
        return self

    def executor_for(self, work: object, method: str) -> Executor | None:
        """Where a route's work runs: the game's own thread for game routes, else Starlette's pool (None)."""
        holder = getattr(self, getattr(work, "slot_name", ""), None)
        return holder.executor if isinstance(holder, Holder) else None

    #: Whether accounts sign in (club mode): then no server token is needed beyond loopback.
    signs_in = False

    def extra_routes(self) -> list[Any]:
        """Routes beyond the table's (club mode: sign-in, the class page)."""
        return []

    def wrap(self, app: Any, wording: Callable[[Mapping[str, str], Any], str]) -> Any:
        """The app inside this mode's own middleware (club mode: :class:`tutor.web.auth.Door`)."""
        return app

    def note_cpu(self, seconds: float) -> None:
        """The CPU time a request's work took on its thread (club mode reports it: :meth:`timing`)."""

    def timing(self) -> str | None:
        """A ``Server-Timing`` value for the answer (club mode: the bots' thinking, reported apart)."""
        return None

    def decorate_page(self, html: str, lang: str, version: str) -> str:
        """The served page, as it is here (club mode adds the learner's bar and the CSRF token)."""
        return html

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
        if out["auction"] not in AUCTIONS:
            out["auction"] = DEFAULTS["auction"]
        if out["players"] not in SEAT_COUNTS or isinstance(out["players"], bool):
            out["players"] = DEFAULTS["players"]
        return out

    def stored_lang(self) -> str:
        """The learner's language setting, read only from a store that exists (else English).

        Used to word a refusal: a refused request must not create the store.
        """
        path = self.store_path if self.store_path is not None else default_path()
        if str(path) != ":memory:" and not Path(path).is_file():
            return str(DEFAULTS["lang"])
        try:
            with self.store() as store:
                return str(self.settings(store)["lang"])
        except StoreError:
            return str(DEFAULTS["lang"])

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
        raise refuse(400, "err_language", value=quoted(asked), choices=", ".join(LANGUAGES))
    return asked


def request_lang(context: Context, query: Mapping[str, str]) -> str:
    """The language of a request's refusal: a valid ``?lang=``, else the stored setting, else English."""
    asked = query.get("lang")
    return asked if asked in LANGUAGES else context.stored_lang()


@contextmanager
def answer_in(lang: str) -> Iterator[None]:
    with speaking(lang):
        yield

"""Club mode: many learners and a teacher on one server over a shared database.

``ddz serve --db postgresql://…`` builds the app with a :class:`ClubContext`
instead of the single learner's :class:`~tutor.web.context.Context`.  What
changes, and only here:

* every request belongs to a signed-in account (:mod:`tutor.web.auth`) and works
  in that learner's :class:`LearnerContext`: the learner's store
  (``club.store_for(id)``: every area reads and writes only that learner's rows)
  and store-backed session slots (:class:`tutor.web.holder.StoredHolder`), so no
  learner state lives in a process and any worker serves any request;
* the work that thinks (bots, the coach, the solver, argon2) runs in one bounded
  pool per process, so a crowd of learners waits its turn instead of starving the
  page loads, and the database's connection count stays bounded;
* a teacher has a class page (``/class``) and assigns lessons or puzzle themes,
  which appear on the learners' pages.

Learners never see another learner's data: every route reads through the
learner's own store, and the class page and assignment routes refuse anyone but
a teacher (``tests/web/test_club.py``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tutor.i18n import LANGUAGES, Phrase, speaking, t
from tutor.store import Store
from tutor.web import auth
from tutor.web.clubpages import (
    KINDS,
    _assignments,
    _lesson_titles,
    _page,
    _themes,
    mistake_name,
    sign_out_button,
)
from tutor.web.context import Context
from tutor.web.errors import ApiError, field_int, field_str, parse_body, quoted, refuse
from tutor.web.holder import Shared, StoredHolder

__all__ = ["KINDS", "ClubContext", "LearnerContext", "mistake_name", "sign_out_button", "worker_app"]

#: Threads that think (bots, coach, solver) per server process.
THINKERS = 4
#: Threads that check passwords (argon2, which releases the GIL) per server process: a class signing in at
#: once waits its turn here, not in front of the plays in the think pool.
HASHERS = 2
#: Sign-ins waiting for a hasher, at most, per process; beyond it a one-line 503 with ``Retry-After`` (the
#: page tries again after it): a storm of sign-ins is a queue of bounded length, never an unbounded pile.
SIGNIN_QUEUE = 64
#: Seconds a busy answer asks the page to wait before trying again (it adds jitter).
BUSY_RETRY = 2
#: Threads for the short reads (the signed-in account, the coach's answers, pages) per process: Starlette's
#: thread pool, bounded to this.  Beyond it requests wait their turn on the event loop, never for a database
#: connection: the pool holds one for every thread that may want one (:func:`pool_size`), so a crowd queues
#: instead of meeting the pool's 5-s timeout and a false "the database cannot be reached".
READERS = 8

#: Seconds a page's wait for the coach's answers is held at most (``/api/game/coach?wait=1``).
COACH_WAIT = 15.0
#: The database address the pages' waits LISTEN on, when ``--db`` is a pooler in transaction mode.
LISTEN_ENV = "DDZ_LISTEN_DB"
#: A coach job's id or a game's key of coach jobs (hex tokens, tutor/sessions/coachjobs.py).
_JOB = re.compile(r"[0-9a-f]{1,32}")


def pool_size(thinkers: int = THINKERS, hashers: int = HASHERS, readers: int = READERS) -> int:
    """Database connections a web process needs: one per thread that may hold one, plus one to spare."""
    return thinkers + hashers + readers + 1


def server_timing(figures: tuple[tuple[str, float], ...]) -> str:
    """A ``Server-Timing`` header value from (metric, seconds) pairs: what the load benchmark reads."""
    return ", ".join(f"{name};dur={seconds * 1000:.1f}" for name, seconds in figures)


class LearnerContext(Context):
    """One request's context in club mode: the signed-in learner's store and store-backed slots."""

    owns_game_store = False

    def __init__(self, club: ClubContext, user: Any, token: str) -> None:
        self.club_context = club
        self.user = user
        self.token = token
        self.store_path = None
        self.solver_factory = club.solver_factory
        self.coach_queue = club.coach_queue
        self._open: Store | None = None
        self.think_clock = _clock()
        self.cpu_seconds = 0.0
        self.game = StoredHolder("game", self.store, club.shared, club.thinkers, _game_packing(self.think_clock))
        self.puzzle = StoredHolder("puzzle", self.store, club.shared, club.thinkers)
        self.lesson = StoredHolder("lesson", self.store, club.shared, club.thinkers)
        self.mistakes = StoredHolder("mistakes", self.store, club.shared, club.thinkers)

    @contextmanager
    def store(self) -> Iterator[Store]:
        """The learner's store, one connection for the whole request (nested uses share it)."""
        if self._open is not None:
            yield self._open
            return
        with self.club_context.club.store_for(self.user.id) as store:
            self._open = store
            try:
                yield store
            finally:
                self._open = None

    def game_store(self) -> Store:
        """The request's store (open: the game routes hold it while they work)."""
        assert self._open is not None
        return self._open

    def stored_lang(self) -> str:
        with self.store() as store:
            return str(self.settings(store)["lang"])

    def executor_for(self, work: object, method: str) -> Executor | None:
        """Game routes and every action think in the bounded pool; plain reads use Starlette's."""
        return self.club_context.thinkers if getattr(work, "slot_name", "") or method != "GET" else None

    def note_cpu(self, seconds: float) -> None:
        self.cpu_seconds = seconds

    def timing(self) -> str | None:
        """The work's CPU time on its thread and the bots' thinking (wall and CPU), for the answer's Server-Timing:
        what the load benchmark reports apart, and what a proxy's log can keep."""
        clock = self.think_clock
        return server_timing((("cpu", self.cpu_seconds), ("bots", clock.seconds), ("botscpu", clock.cpu_seconds)))

    def decorate_page(self, html: str, lang: str, version: str) -> str:
        static = f"/static/v{version}" if version else "/static"
        head = HEAD.format(csrf=auth.csrf_token(self.token), static=static)
        html = html.replace("</head>", head, 1)
        with speaking(lang):
            bar = learner_bar(self.club_context.club, self.user)
        return html.replace('<header class="top">', f'<header class="top">\n{bar}', 1)


def _game_packing(clock: Any) -> Any:
    from tutor.web.game import GamePacking

    return GamePacking(clock)


def _clock() -> Any:
    from tutor.web.game import ThinkClock

    return ThinkClock()


class ClubContext(Context):
    """The server's context in club mode: the club's database, the think pool, the shared objects."""

    signs_in = True

    def __init__(self, club: Any, *, beyond_loopback: bool = False, thinkers: int = THINKERS,
                 limits: auth.Limits | None = None, solver_factory: Callable[[], Any] | None = None,
                 coach_queue: Any = None, hashers: int = HASHERS, signin_queue: int = SIGNIN_QUEUE) -> None:
        self.club = club
        #: Where the coach's jobs go (tutor/web/coachqueue.py); None: the coach thinks in the request, as alone.
        self.coach_queue = coach_queue
        self.store_path = None
        self.solver_factory = solver_factory
        self.beyond_loopback = beyond_loopback
        self.limits = limits or auth.Limits()
        self.thinkers = ThreadPoolExecutor(max_workers=thinkers, thread_name_prefix="ddz-think")
        #: Password checks (sign-in, a new password): their own small pool and a bounded queue (``signin_queue``).
        self.hashers = ThreadPoolExecutor(max_workers=hashers, thread_name_prefix="ddz-hash")
        self.signin_queue = signin_queue
        self.signing_in = 0  # sign-ins waiting or being checked (counted on the event loop: no lock)
        #: The pages' waits for the coach's answers, woken by PostgreSQL's NOTIFY (one connection per process).
        self.notices: Any = None
        if coach_queue is not None and club.engine == "postgresql":
            import os

            from tutor.store.notices import AnswerNotices
            from tutor.web.guard import limits as server_limits

            # behind PgBouncer in transaction mode a LISTEN hears nothing: DDZ_LISTEN_DB names a direct address
            self.notices = AnswerNotices(os.environ.get(LISTEN_ENV) or club.url, server_limits()[3] // 4)
        from tutor.puzzles.library import load_library
        from tutor.web.lessons import course

        self.shared = Shared(self.solver, course, load_library)

    def for_request(self, scope: Mapping[str, Any]) -> Context:
        state = scope.get("state") or {}
        user = state.get("ddz_user")
        if user is None:
            return self
        return LearnerContext(self, user, state.get("ddz_token") or "")

    def stored_lang(self) -> str:
        return "en"  # before signing in: ?lang= or the browser's language (see page_lang)

    def executor_for(self, work: object, method: str) -> Executor | None:
        return None

    def wrap(self, app: Any, wording: Any) -> Any:
        from tutor.store import StoreError

        async def store_failed(request: Request, exc: Exception) -> Response:
            return unavailable(request.scope, busy=is_busy(exc))

        app.add_exception_handler(StoreError, store_failed)  # a page or a route (the API's own answer is 503 too)
        return Unavailable(auth.Door(app, self.user_for_session, wording, self.beyond_loopback))

    def user_for_session(self, token: str) -> Any:
        return self.club.users.user_for_session(token)

    def extra_routes(self) -> list[Any]:
        return club_routes(self)


# ------------------------------------------------------------------ the database down
def unavailable(scope: Mapping[str, Any], busy: bool = False) -> Response:
    """The one-line answer while the club's database cannot be reached (or, ``busy``, has no free connection
    within the pool's wait: the server is busy, not the database down): 503, in the browser's language (the
    learner's setting is in the database), a page for a page and JSON for the API."""
    lang = scope_lang(scope)
    with speaking(lang):
        line = t("busy.server") if busy else t("club.err_db_down")
        headers = {"cache-control": "no-store", "retry-after": str(BUSY_RETRY) if busy else "5"}
        if str(scope.get("path", "")).startswith("/api/") or scope.get("method") not in ("GET", "HEAD"):
            return JSONResponse({"error": line}, status_code=503, headers=headers)
        body = (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{escape(t("web.title"))}'
                f"</title></head>\n<body><p>{escape(line)}</p></body></html>\n")
        return HTMLResponse(body, status_code=503, headers=headers)


class Unavailable:
    """ASGI middleware: a database fault met before any answer (finding the signed-in account) is the 503 line,
    never a bare "Internal Server Error"."""

    def __init__(self, app: Any, readers: int = READERS) -> None:
        self.app = app
        self.readers = readers
        self.bounded = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from tutor.store import StoreError

        started = False

        async def watched(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        if not self.bounded:  # on the event loop, once: Starlette's thread pool for the short reads (READERS)
            import anyio.to_thread

            anyio.to_thread.current_default_thread_limiter().total_tokens = self.readers
            self.bounded = True
        try:
            await self.app(scope, receive, watched)
        except StoreError as error:
            if started or scope["type"] != "http":
                raise
            await unavailable(scope, busy=is_busy(error))(scope, receive, send)


def is_busy(error: BaseException) -> bool:
    """No free connection within the pool's wait (the store's "busy" line), as against a database that cannot
    be reached."""
    return type(error).__name__ == "PoolBusyError"  # tutor/store/postgres.py's (psycopg is the club extra's)


# ------------------------------------------------------------------ pages
def page_lang(request: Request) -> str:
    """The language of a page shown before signing in: ``?lang=``, else the browser's first choice we speak."""
    return scope_lang(request.scope)


def scope_lang(scope: Mapping[str, Any]) -> str:
    """``?lang=``, else the browser's first ``Accept-Language`` we speak, else English."""
    from urllib.parse import parse_qsl

    asked = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"))).get("lang")
    if asked in LANGUAGES:
        return str(asked)
    accept = next((value.decode("latin-1") for key, value in scope.get("headers", []) if key == b"accept-language"), "")
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


#: What the table's page gets in club mode: the CSRF token for its requests, the club's style sheet and script.
HEAD = """<meta name="ddz-csrf" content="{csrf}">
<link rel="stylesheet" href="{static}/club.css">
<script type="module" src="{static}/club.js"></script>
</head>"""


def signin_page(lang: str, version: str) -> str:
    with speaking(lang):
        body = (f'<main class="signin felt">\n<h1>{escape(t("web.title"))}</h1>\n'
                f'<form id="signin" class="panel" method="post" action="/api/club/signin">\n<h2>{escape(t("club.signin_title"))}</h2>\n'
                f'<label for="name">{escape(t("club.name"))}</label>\n'
                '<input id="name" name="name" autocomplete="username" required maxlength="40">\n'
                f'<label for="password">{escape(t("club.password"))}</label>\n'
                '<input id="password" name="password" type="password" autocomplete="current-password" required'
                ' maxlength="200">\n'
                f'<button type="submit" class="primary">{escape(t("club.sign_in"))}</button>\n'
                '<p id="signin-error" class="status bad" role="alert"></p>\n</form>\n</main>')
        return _page(lang, t("club.signin_title"), body, version)


def password_page(lang: str, version: str, token: str) -> str:
    """Choose one's own password (a one-time password, given by ``ddz users passwd`` or an import, must be changed)."""
    from tutor.store.users import MIN_PASSWORD

    with speaking(lang):
        body = (f'<meta name="ddz-csrf" content="{auth.csrf_token(token)}">\n'
                f'<main class="signin felt">\n<h1>{escape(t("web.title"))}</h1>\n'
                f'<form id="password-form" class="panel" method="post" action="/api/club/password">\n'
                f'<h2>{escape(t("password.title"))}</h2>\n<p>{escape(t("password.why", n=MIN_PASSWORD))}</p>\n'
                f'<label for="new-password">{escape(t("password.new"))}</label>\n'
                '<input id="new-password" name="password" type="password" autocomplete="new-password" required'
                f' minlength="{MIN_PASSWORD}" maxlength="200">\n'
                f'<label for="new-again">{escape(t("password.again"))}</label>\n'
                '<input id="new-again" name="again" type="password" autocomplete="new-password" required'
                f' minlength="{MIN_PASSWORD}" maxlength="200">\n'
                f'<button type="submit" class="primary">{escape(t("password.save"))}</button>\n'
                '<p id="password-error" class="status bad" role="alert"></p>\n</form>\n</main>')
        return _page(lang, t("password.title"), body, version)


def learner_bar(club: Any, user: Any) -> str:
    """The account line above the nav: who is signed in, what the teacher assigned, sign out."""
    items = []
    for item in _assignments(club, user.id):
        label = escape(item["label"])
        items.append(f'<li><button type="button" class="small" data-assigned-{KINDS[item["kind"]]}="{escape(item["ref"])}">'
                     f"{label}</button></li>")
    assigned = ""
    if items:
        assigned = (f'<details class="assigned"><summary>{escape(t("club.assigned", n=len(items)))}</summary>'
                    f'<ul>{"".join(items)}</ul></details>')
    teacher = f'<a href="/class" class="club-link">{escape(t("club.nav_class"))}</a>' if user.is_teacher else ""
    who = escape(t("club.signed_in_as", name=user.name))
    # one short line on a phone: the name shown, the whole sentence for screen readers and as a tooltip
    return (f'<div class="club-bar"><span class="who" title="{who}" aria-label="{who}">{escape(user.name)}</span>'
            f'{assigned}{teacher}{sign_out_button()}</div>')


# ------------------------------------------------------------------ the class page
def class_page(club: Any, teacher: Any, lang: str, version: str) -> str:
    """Each learner's lessons done, puzzle rating and streak, games by level, most frequent mistakes;
    the assignment form and the assignments this teacher gave."""
    from tutor.web.teacher import learner_rows, visible_rows

    with speaking(lang):
        rows = visible_rows(club, teacher)
        titles = _lesson_titles()
        labels = {item["id"]: item["label"] for item in _assignments(club, None, by=teacher.id)}
        table = (learner_rows(club, teacher, rows, labels, len(titles)) if rows
                 else f'<p>{escape(t("club.no_learners"))}</p>')
        mine = club.users.classes_of(teacher.id)
        whole = (f'<option value="">{escape(t("club.whole_class"))}</option>' if not mine else
                 "".join(f'<option value="class:{escape(name)}">{escape(t("club.whole_named_class", name=name))}</option>'
                         for name in mine))
        learners = whole + "".join(f'<option value="{row.id}">{escape(row.name)}</option>' for row in rows)
        lessons = "".join(f'<option value="lesson:{escape(ident)}">'
                          f'{escape(t("club.assigned_lesson", number=n, title=title))}</option>'
                          for ident, (n, title) in titles.items())
        themes = "".join(f'<option value="puzzle_theme:{escape(theme)}">'
                         f'{escape(t("club.assigned_theme", theme=t(f"puzzles.theme_{theme}")))}</option>'
                         for theme in _themes())
        names = {row.id: row.name for row in rows}
        given = []
        for item in _assignments(club, None, by=teacher.id):
            who = (names.get(item["learner"], "?") if item["learner"] is not None else
                   t("club.whole_named_class", name=item["class_name"]) if item["class_name"] else t("club.whole_class"))
            line = escape(t("club.given_line", what=item["label"], who=who))
            button = f'<button type="button" class="small" data-unassign="{item["id"]}">{escape(t("club.remove"))}</button>'
            given.append(f"<li>{line} {button}</li>")
        form = (f'<form id="assign" class="panel assign"><h2>{escape(t("club.assign_title"))}</h2>'
                f'<label for="assign-to">{escape(t("club.assign_to"))}</label>'
                f'<select id="assign-to">{learners}</select>'
                f'<label for="assign-what">{escape(t("club.assign_what"))}</label>'
                f'<select id="assign-what"><optgroup label="{escape(t("club.kind_lesson"))}">{lessons}</optgroup>'
                f'<optgroup label="{escape(t("club.kind_theme"))}">{themes}</optgroup></select>'
                f'<button type="submit" class="primary">{escape(t("club.assign_button"))}</button>'
                '<p id="assign-status" class="status" role="status"></p></form>')
        listing = (f'<section class="panel"><h2>{escape(t("club.given_title"))}</h2>'
                   f'<ul class="given">{"".join(given) or escape(t("club.none"))}</ul></section>')
        main = (f'<header class="top"><nav><a href="/">{escape(t("web.nav_play"))}</a>'
                f'<a href="/class" aria-current="page">{escape(t("club.nav_class"))}</a>{sign_out_button()}</nav></header>'
                f'<main class="class-page"><h1>{escape(t("club.class_title"))}</h1>{table}{form}{listing}</main>')
        return _page(lang, t("club.class_title"), main, version)


# ------------------------------------------------------------------ routes
def club_routes(context: ClubContext) -> list[Any]:
    from tutor.web.app import static_version

    version = static_version()

    async def run(call: Callable[[], Any]) -> Any:
        import asyncio

        return await asyncio.get_running_loop().run_in_executor(context.thinkers, call)

    async def hashing(call: Callable[[], Any]) -> Any:
        """Work that hashes a password: on the hashers' threads (argon2 releases the GIL), not the thinkers'."""
        import asyncio

        return await asyncio.get_running_loop().run_in_executor(context.hashers, call)

    def answer(data: dict[str, Any], status: int = 200, cookie: str | None = None) -> Response:
        response = JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})
        if cookie is not None:
            response.headers["set-cookie"] = cookie
        return response

    async def refused(lang: str, error: ApiError) -> Response:
        with speaking(lang):
            return answer({"error": error.render()}, error.status)

    async def signin_view(request: Request) -> Response:
        if request.scope.get("state", {}).get("ddz_user") is not None:
            return Response(status_code=303, headers={"location": "/", "cache-control": "no-store"})
        return HTMLResponse(signin_page(page_lang(request), version), headers={"cache-control": "no-store"})

    async def signin(request: Request) -> Response:
        from tutor.web.app import read_body

        lang = page_lang(request)
        try:
            body = parse_body(await read_body(request))
            name = field_str(body, "name", limit=40).strip()
            password = field_str(body, "password", limit=200)
        except ApiError as error:
            return await refused(lang, error)
        if context.signing_in >= context.signin_queue:  # a class's storm: come back in a moment (the page does)
            with speaking(lang):
                return JSONResponse({"error": t("busy.signin")}, status_code=503,
                                    headers={"cache-control": "no-store", "retry-after": str(BUSY_RETRY)})
        address = auth.client_address(request.scope)
        context.signing_in += 1
        try:  # argon2 on the hashers' threads, never on the event loop nor in front of the plays
            outcome = await hashing(lambda: _sign_in(context, name, password, address))
        finally:
            context.signing_in -= 1
        if isinstance(outcome, ApiError):
            return await refused(lang, outcome)
        user, token = outcome
        secure = auth.is_secure(request.scope, context.beyond_loopback)
        return answer({"next": "/class" if user.is_teacher else "/"}, cookie=auth.session_cookie(token, secure))

    async def password_view(request: Request) -> Response:
        token = request.scope.get("state", {}).get("ddz_token") or ""
        return HTMLResponse(password_page(await lang_of(request), version, token), headers={"cache-control": "no-store"})

    async def password(request: Request) -> Response:
        """The signed-in account chooses its password: kept, its other sign-ins end, this one goes on."""
        from tutor.store.users import UserError
        from tutor.web.app import read_body

        user = request.scope.get("state", {}).get("ddz_user")
        lang = await lang_of(request)
        try:
            with speaking(lang):
                body = parse_body(await read_body(request))
                chosen = field_str(body, "password", limit=200)
                if chosen != field_str(body, "again", limit=200):
                    raise ApiError(400, t("password.err_differ"))
        except ApiError as error:
            return await refused(lang, error)
        try:
            token = await hashing(lambda: context.club.users.change_own_password(user, chosen))
        except UserError as error:
            return answer({"error": str(error)}, 400)
        secure = auth.is_secure(request.scope, context.beyond_loopback)
        return answer({"next": "/class" if user.is_teacher else "/"}, cookie=auth.session_cookie(token, secure))

    async def signout(request: Request) -> Response:
        token = request.scope.get("state", {}).get("ddz_token")
        if token:
            await run(lambda: context.club.users.end_session(token))
        secure = auth.is_secure(request.scope, context.beyond_loopback)
        return answer({"next": "/signin"}, cookie=auth.session_cookie("", secure, max_age=0))

    def teacher(request: Request) -> Any:
        user = request.scope.get("state", {}).get("ddz_user")
        if user is None or not user.is_teacher:
            raise ApiError(403, t("club.err_teacher_only"))
        return user

    async def lang_of(request: Request) -> str:
        here = context.for_request(request.scope)
        asked = request.query_params.get("lang")
        if asked in LANGUAGES:
            return str(asked)
        return str(await run(here.stored_lang))

    async def teacher_page(request: Request) -> tuple[str, Any, Response | None]:
        """The page's language and the signed-in teacher, or the refusal for anyone else."""
        lang = await lang_of(request)
        with speaking(lang):
            try:
                return lang, teacher(request), None
            except ApiError as error:
                return lang, None, await refused(lang, error)

    async def class_view(request: Request) -> Response:
        lang, user, refusal = await teacher_page(request)
        if refusal is not None:
            return refusal
        html = await run(lambda: class_page(context.club, user, lang, version))
        return HTMLResponse(html, headers={"cache-control": "no-store"})

    async def learner_view(request: Request) -> Response:
        from tutor.web.teacher import game_page, learner_page

        lang, user, refusal = await teacher_page(request)
        if refusal is not None:
            return refusal
        learner, game = request.path_params["learner"], request.path_params.get("game")
        html = await run(lambda: learner_page(context.club, user, learner, lang, version) if game is None
                         else game_page(context.club, user, learner, game, lang, version))
        if html is None:  # not this teacher's learner, or no such game: the same answer (nothing to probe)
            with speaking(lang):
                return answer({"error": t("club.err_no_learner", id=learner)}, 404)
        return HTMLResponse(html, headers={"cache-control": "no-store"})

    async def assign(request: Request) -> Response:
        from tutor.web.app import read_body

        lang = await lang_of(request)
        try:
            with speaking(lang):
                user = teacher(request)
                body = parse_body(await read_body(request))
                learner = body.get("learner")
                if learner is not None:
                    learner = field_int(body, "learner", low=1, high=2**62)
                class_name = field_str(body, "class", limit=40) if body.get("class") is not None else None
                kind = field_str(body, "kind", limit=20)
                ref = field_str(body, "ref", limit=80)
            await run(lambda: _assign(context.club, user, learner, kind, ref, class_name))
        except ApiError as error:
            return await refused(lang, error)
        with speaking(lang):
            return answer({"ok": True, "text": t("club.assign_done")})

    async def unassign(request: Request) -> Response:
        from tutor.web.app import read_body

        lang = await lang_of(request)
        try:
            with speaking(lang):
                user = teacher(request)
                body = parse_body(await read_body(request))
                ident = field_int(body, "id", low=1, high=2**62)
            if not await run(lambda: context.club.users.unassign(user.id, ident)):
                raise ApiError(404, Phrase("club.err_no_assignment", {"id": ident}))
        except ApiError as error:
            return await refused(lang, error)
        return answer({"ok": True})

    async def coach_wait(request: Request) -> Response:
        """The page's question while the coach thinks (``coach_wait`` of the table's state): has any of these
        jobs answered?  One indexed read, no table built, no game held; with ``wait=1`` the answer is held
        until a worker announces one (NOTIFY) or :data:`COACH_WAIT` seconds pass.  ``held``: the page may ask
        again at once; else a second later (this process holds as many waits as it may, or cannot listen)."""
        from starlette.concurrency import run_in_threadpool

        user = request.scope.get("state", {}).get("ddz_user")
        key, named = request.query_params.get("key", ""), request.query_params.get("jobs", "")
        jobs = named.split(",")
        if not _JOB.fullmatch(key) or len(jobs) > 32 or not all(_JOB.fullmatch(job) for job in jobs):
            lang = await lang_of(request)
            with speaking(lang):
                return await refused(lang, ApiError(400, t("worker.err_wait", value=quoted(f"{key} {named}"))))

        def look() -> tuple[bool, float]:
            from tutor.store.coach_answers import CoachAnswers

            started = time.thread_time()
            store = context.club.store_for(user.id)
            try:
                return CoachAnswers(store).answered(key, jobs), time.thread_time() - started
            finally:
                store.close()

        held, notices = False, context.notices
        if request.query_params.get("wait") == "1" and notices is not None:
            async with notices.subscribed(user.id, key) as event:
                ready, cpu = await run_in_threadpool(look)
                held = event is not None and not ready
                if held:
                    from tutor.store.notices import wait_for

                    await wait_for(event, COACH_WAIT)  # announced, the listener failed, or the time is up
                    ready, more = await run_in_threadpool(look)  # looked at either way: a lost notice costs 15 s
                    cpu += more
        else:
            ready, cpu = await run_in_threadpool(look)
        response = answer({"ready": ready, "held": held})
        response.headers["server-timing"] = server_timing((("cpu", cpu),))
        return response

    return [
        Route("/api/game/coach", coach_wait, methods=["GET"]),
        Route("/signin", signin_view, methods=["GET"]),
        Route("/api/club/signin", signin, methods=["POST"]),
        Route("/api/club/signout", signout, methods=["POST"]),
        Route("/password", password_view, methods=["GET"]),
        Route("/api/club/password", password, methods=["POST"]),
        Route("/class", class_view, methods=["GET"]),
        Route("/class/learner/{learner:int}", learner_view, methods=["GET"]),
        Route("/class/learner/{learner:int}/game/{game:int}", learner_view, methods=["GET"]),
        Route("/api/club/assign", assign, methods=["POST"]),
        Route("/api/club/unassign", unassign, methods=["POST"]),
    ]


def _sign_in(context: ClubContext, name: str, password: str, address: str) -> tuple[Any, str] | ApiError:
    """The limits and the attempt's record in one transaction (tutor/store/sign_ins.py), then the password.

    The attempt is recorded as a failure before the password is checked and taken back when it was right,
    so parallel guesses at one name never get more checks than the limits let through.
    """
    import math

    from tutor.store.sign_ins import Recent, SignInFailures

    club, limits = context.club, context.limits
    name_key, address_key = f"name:{name.casefold()}", f"addr:{address}"

    def decide(recent: Recent) -> ApiError | None:
        wait = limits.wait(recent.name_failures, recent.name_last_age)
        if wait > 0:
            return ApiError(429, t("club.err_wait_name", n=max(1, math.ceil(wait))))
        if recent.address_failures >= limits.per_address:
            return ApiError(429, t("club.err_too_many_address", n=limits.window // 60))
        return None

    with club.scratch() as store:
        taken = SignInFailures(store).take(name_key, address_key, timedelta(seconds=limits.window), decide)
    if isinstance(taken, ApiError):
        return taken
    user = club.users.verify(name, password)
    if user is None:
        return ApiError(401, t("club.err_wrong_password"))
    with club.scratch() as store:
        SignInFailures(store).succeeded(name_key, address_key, taken)
    return user, club.users.create_session(user.id)


def _assign(club: Any, user: Any, learner: int | None, kind: str, ref: str, class_name: str | None = None) -> None:
    """Give ``kind``/``ref`` to a learner (or the class): the lesson or theme must exist (the store checks the rest)."""
    from tutor.store import StoreError

    if kind not in KINDS:
        raise ApiError(400, t("club.err_kind", value=quoted(kind), choices=", ".join(KINDS)))
    if kind == "lesson" and ref not in _lesson_titles():
        raise refuse(404, "err_no_lesson", id=quoted(ref))
    if kind == "puzzle_theme" and ref not in _themes():
        raise refuse(400, "err_theme", value=quoted(ref))
    from tutor.web.teacher import visible_rows

    if learner is not None and learner not in {row.id for row in visible_rows(club, user)}:
        raise ApiError(404, t("club.err_no_learner", id=learner))
    try:
        club.users.assign(user.id, learner, kind, ref, class_name)
    except StoreError as error:
        raise ApiError(400, str(error)) from None


# ------------------------------------------------------------------ worker processes
#: How ``ddz serve`` tells each worker process what to serve (JSON: db, host, port).
SERVE_ENV = "DDZ_SERVE_CLUB"


def worker_app() -> Any:
    """One worker's app (uvicorn calls this in each process ``ddz serve --workers N`` starts).

    On Linux the worker asks the kernel for SIGTERM when its parent dies, so a killed ``ddz serve``
    leaves no worker behind; a worker ends silently (uvicorn logs only warnings).
    """
    import json
    import os
    import signal
    import sys

    from tutor.web.app import create_app
    from tutor.web.security import is_loopback

    if sys.platform.startswith("linux") and os.getppid() != 1:
        import ctypes

        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except OSError:
            pass
    settings = json.loads(os.environ[SERVE_ENV])
    from tutor.store.club import Club

    club = Club.open(settings["db"], pool_size=pool_size())
    host = str(settings["host"])
    public_url = settings.get("public_url")
    secure = not is_loopback(host) or str(public_url or "").startswith("https:")
    from tutor.store.club import is_postgres
    from tutor.web.coachqueue import CoachQueue

    queue = CoachQueue(settings["db"]) if is_postgres(settings["db"]) and not settings.get("coach_inline") else None
    context = ClubContext(club, beyond_loopback=secure, coach_queue=queue)
    return create_app(context, host=host, port=int(settings["port"]), public_url=public_url,
                      proxies=frozenset(settings.get("proxy") or ()))

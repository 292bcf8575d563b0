"""The ASGI app: routes that read a small JSON body, call a session, answer JSON.

Routes are ``async`` only to read the body; the work (sessions, the store, bots
thinking) runs in Starlette's thread pool under the slot's lock, so a hard bot
thinking on the game never holds up a puzzle, a lesson or the static files.
Every refusal is a 4xx JSON ``{"error": "..."}``; the page never sees a
traceback (an unexpected error is a 500 with one line, and is logged).
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import hashlib
import json
import logging
import re
import time
from html import escape
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from tutor.files import ascii_int
from tutor.i18n import Phrase, speaking
from tutor.store import GameBusyError, StoreError
from tutor.web import api
from tutor.web.context import Context, request_lang
from tutor.web.bundle import bundle, lean_style
from tutor.web.errors import ApiError, parse_body, quoted, refuse
from tutor.web.security import WILDCARD_HOSTS, SameOriginOnly, is_loopback, own_hosts

STATIC = Path(__file__).resolve().parent / "static"
#: Files under a path that names their digest never change: a browser keeps them a year.
FOREVER = ", ".join(("public", "max-age=31536000", "immutable"))  # header tokens, not words
MAX_BODY = 64 * 1024
#: Paths the page handles itself (one page; the script draws the view the path names).
PAGES = ("/", "/play", "/learn", "/puzzle", "/history", "/insights", "/settings")
log = logging.getLogger("tutor.web")

Work = Callable[[Context, dict[str, Any], Mapping[str, str]], dict[str, Any]]


def _json(data: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})


def _answer(context: Context, work: Work, raw: bytes, query: Mapping[str, str],
            path: str) -> tuple[int, dict[str, Any]]:
    """Run ``work`` (in a worker thread) and turn every refusal into a status and one line in the request's language."""
    started = time.thread_time()
    try:
        return _answered(context, work, raw, query, path)
    finally:
        context.note_cpu(time.thread_time() - started)


def _answered(context: Context, work: Work, raw: bytes, query: Mapping[str, str],
              path: str) -> tuple[int, dict[str, Any]]:
    with speaking(request_lang(context, query)):
        try:
            return 200, work(context, parse_body(raw), query)
        except ApiError as error:
            return error.status, {"error": error.render(), **error.extra}
        except GameBusyError as error:
            return 409, {"error": str(error)}
        except StoreError as error:
            return 503, {"error": str(error)}
        except Exception as error:  # noqa: BLE001 - the page gets one line, the log the details
            log.exception("unexpected error in %s", path)
            return 500, {"error": refuse(500, "err_internal", name=type(error).__name__).render()}


async def refusal(context: Context, request: Request, error: ApiError) -> JSONResponse:
    """A refusal made before any work, worded in the request's language (read off the event loop)."""
    query = dict(request.query_params)
    text = await run_in_threadpool(lambda: _rendered(context, query, error))
    return _json({"error": text}, error.status)


def _rendered(context: Context, query: Mapping[str, str], error: ApiError) -> str:
    with speaking(request_lang(context, query)):
        return error.render()


def endpoint(context: Context, work: Work) -> Callable[[Request], Any]:
    """Wrap ``work`` as a route: body checks, the thread pool, errors as 4xx JSON."""

    async def handle(request: Request) -> Response:
        here = context.for_request(request.scope)  # club mode: the signed-in learner's context
        raw = b""
        if request.method == "POST":
            try:
                raw = await read_body(request)
            except ApiError as error:
                return await refusal(here, request, error)
            except ClientDisconnect:
                log.warning("%s %s: the client went away before sending its request", request.method, request.url.path)
                return Response(status_code=400)  # nobody is listening; nothing was read or done
        query = {**request.query_params, **request.path_params}
        call = functools.partial(_answer, here, work, raw, query, request.url.path)
        executor = here.executor_for(work, request.method)
        if executor is not None:  # the game (its store connection lives on its thread); club mode: the think pool
            status, data = await asyncio.get_running_loop().run_in_executor(executor, call)
        else:
            status, data = await run_in_threadpool(call)
        answer = _json(data, status)
        timing = here.timing()
        if timing is not None:
            answer.headers["server-timing"] = timing
        return answer

    return handle


class CachedStatic(StaticFiles):
    """Static files with a ``cache-control`` header (ETag and Last-Modified come from Starlette)."""

    def __init__(self, *, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["cache-control"] = self.cache_control
        return response


def static_version() -> str:
    """A digest of every static file: the page asks for ``/static/v<digest>/…``, cached for good.

    No build step renames the files, so the path does: a changed file gives a new digest, a
    new path, and a browser never mixes a cached old module with a new one.
    """
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


async def read_body(request: Request) -> bytes:
    """The body, read as it streams in and refused (413) as soon as it passes :data:`MAX_BODY`.

    ``request.body()`` would read all of it first: a 1 GB chunked upload took the
    server from 121 MB to 2.1 GB before its 413.  A ``Content-Length`` over the
    limit is refused before a byte is read.
    """
    declared = ascii_int(request.headers.get("content-length", ""), 40)
    if declared is not None and declared > MAX_BODY:
        raise refuse(413, "err_too_large", n=declared)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise refuse(413, "err_too_large_stream", limit=MAX_BODY)
        chunks.append(chunk)
    return b"".join(chunks)


_LABELLED = re.compile(r'(<[a-z0-9]+\b[^>]*?\sdata-t="(\w+)"[^>]*>)[^<]*(<)')


async def first_state(context: Context, path: str, query: Mapping[str, str]) -> dict[str, Any] | None:
    """The table the page would fetch first (``GET /api/game``), for the page to carry in itself.

    Only for the table's own paths without a deal to open (``?deal=`` starts one: a POST).  With no game
    yet it says so (the page deals at once); ``None`` on a refusal: the page then asks as it always did.
    """
    if path not in ("/", "/play") or "deal" in query:
        return None
    work = next(work for route, method, work in api.ROUTES if route == "/api/game" and method == "GET")
    call = functools.partial(_answer, context, work, b"", query, "/api/game")
    executor = context.executor_for(work, "GET")
    if executor is not None:
        status, data = await asyncio.get_running_loop().run_in_executor(executor, call)
    else:
        status, data = await run_in_threadpool(call)
    return data if status == 200 else None


def _embedded(name: str, data: dict[str, Any]) -> str:
    """``data`` as a JSON data block in the page (never run; ``<`` escaped so no text can close the tag)."""
    payload = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    return f'<script id="{name}" type="application/json">{payload}</script>\n'


@functools.cache
def favicon() -> str:
    """The page's icon as a ``data:`` address (0.5 KB in the page): one request fewer on every cold visit."""
    from urllib.parse import quote

    return "data:" + "image/svg+xml," + quote((STATIC / "favicon.svg").read_text(encoding="utf-8").strip(), safe="=:/,.-")


def render_page(context: Context, query: Mapping[str, str], version: str = "",
                first: dict[str, Any] | None = None) -> str:
    """``index.html`` in the learner's language: every ``data-t`` label filled, the page's words embedded.

    The page then draws in the right language from the start, and has the words
    it needs when the server cannot be reached later (its network-failure line).
    """
    words = api.page_strings(request_lang(context, query))
    labels: dict[str, str] = words["strings"]
    html = (STATIC / "index.html").read_text(encoding="utf-8")

    def label(match: re.Match[str]) -> str:
        text = labels.get(match.group(2), match.group(2))
        number = re.search(r'\sdata-n="(\d+)"', match.group(1))
        if number is not None:
            text = text.replace("{n}", number.group(1))
        return match.group(1) + escape(text, quote=False) + match.group(3)

    html = _LABELLED.sub(label, html)
    html = re.sub(r'\sdata-label="(\w+)"', lambda m: f'{m.group(0)} aria-label="{escape(labels.get(m.group(1), ""))}"',
                  html)
    html = html.replace('<html lang="en">', f'<html lang="{words["lang"]}">', 1)
    html = re.sub(r"<title>[^<]*</title>", f"<title>{escape(labels['title'], quote=False)}</title>", html, count=1)
    html = html.replace('href="/static/favicon.svg"', f'href="{favicon()}"', 1)
    if version:
        html = html.replace('"/static/', f'"/static/v{version}/')
    blocks = _embedded("ddz-strings", words) + ("" if first is None else _embedded("ddz-first", first))
    html = html.replace("</head>", blocks + "</head>", 1)
    return context.decorate_page(html, words["lang"], version)


@functools.lru_cache(maxsize=2)
def page_files(version: str) -> tuple[tuple[bytes, bytes], tuple[bytes, bytes]]:
    """``app.js`` (the bundle of its modules, tutor/web/bundle.py) and ``app.css`` without their comments, each
    plain and compressed: made once per version of the static files (``static_version``), not per app."""
    script = bundle(STATIC).encode()
    style = lean_style((STATIC / "app.css").read_text(encoding="utf-8")).encode()
    return ((script, gzip.compress(script, compresslevel=9, mtime=0)),
            (style, gzip.compress(style, compresslevel=9, mtime=0)))


def create_app(context: Context | None = None, host: str = "127.0.0.1", port: int = 8765,
               extra_hosts: tuple[str, ...] = (), token: str | None = None, public_url: str | None = None,
               proxies: frozenset[str] = frozenset()) -> Any:
    """The app, wrapped in the same-origin check for ``host:port`` (plus ``extra_hosts``).

    Behind a reverse proxy (tutor/web/proxy.py): ``public_url`` is also the server's own origin, and
    ``proxies`` are the addresses whose ``X-Forwarded-*`` headers are believed.

    Beyond loopback a ``token`` is required (:mod:`tutor.web.security`); a server bound
    to every interface then accepts any ``Host``, and the token is what keeps others out.
    """
    context = context or Context()
    if token is None and not is_loopback(host) and not context.signs_in:
        raise ValueError(host)  # beyond loopback only with a token (ddz serve makes one) or accounts (club mode)

    version = static_version()
    script, style = page_files(version)

    async def page(request: Request) -> Response:
        here = context.for_request(request.scope)
        query = dict(request.query_params)
        first = await first_state(here, request.url.path, query)
        html = await run_in_threadpool(render_page, here, query, version, first)
        return HTMLResponse(html, headers={"cache-control": "no-cache"})

    def in_memory(body: tuple[bytes, bytes], media_type: str, cache_control: str) -> Callable[[Request], Any]:
        """``body`` (plain, compressed) served from memory: compressed once, not on each request (the compression
        middleware took 8-12 ms of the server's CPU per file, in the path of every cold page load)."""
        plain, packed = body
        tag = f'"{hashlib.sha256(plain).hexdigest()[:16]}"'

        async def serve(request: Request) -> Response:
            headers = {"cache-control": cache_control, "etag": tag, "vary": "Accept-Encoding"}
            if request.headers.get("if-none-match") == tag:
                return Response(status_code=304, headers=headers)
            if "gzip" in request.headers.get("accept-encoding", ""):
                return Response(packed, media_type=media_type, headers={**headers, "content-encoding": "gzip"})
            return Response(plain, media_type=media_type, headers=headers)

        return serve

    routes: list[Any] = [Route(path, page) for path in PAGES] + context.extra_routes()
    for path, method, work in api.ROUTES:
        routes.append(Route(path, endpoint(context, work), methods=[method]))
    # the page's own files: under their digest, kept a year; the plain path revalidates (ETag) each time;
    # app.js is the bundle of every module (one request, not seventeen)
    # app.css without its comments (the bytes before the first paint)
    for name, body, media_type in (("app.js", script, "text/javascript"), ("app.css", style, "text/css")):
        routes.append(Route(f"/static/v{version}/{name}", in_memory(body, media_type, FOREVER)))
        routes.append(Route(f"/static/{name}", in_memory(body, media_type, "no-cache")))
    routes.append(Mount(f"/static/v{version}", CachedStatic(directory=STATIC, cache_control=FOREVER)))
    routes.append(Mount("/static", CachedStatic(directory=STATIC, cache_control="no-cache"), name="static"))

    async def not_found(request: Request, exc: Exception) -> Response:
        return await refusal(context, request, refuse(404, "err_no_page", path=quoted(request.url.path)))

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return await refusal(context, request, refuse(405, "err_method", method=request.method[:10]))

    # compressed answers (the page's files and the larger JSON answers) for any browser that asks
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_allowed},
                    middleware=[Middleware(GZipMiddleware, minimum_size=500)])
    app.state.context = context

    def worded(query: Mapping[str, str], phrase: Phrase) -> str:
        with speaking(request_lang(context, query)):
            return phrase.render()

    wild = host in WILDCARD_HOSTS and (token is not None or context.signs_in)
    public = None
    if public_url is not None:
        from tutor.web.proxy import parse_public_url

        public = parse_public_url(public_url)
    hosts = None if wild else own_hosts(host, port, extra_hosts)
    guarded = SameOriginOnly(context.wrap(app, worded), hosts, worded, token=token, port=port,
                             extra_origins=(public.origin,) if public is not None else ())
    if proxies:
        from tutor.web.proxy import TrustedProxy

        return TrustedProxy(guarded, proxies)
    return guarded

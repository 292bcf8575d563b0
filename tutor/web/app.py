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
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tutor.store import GameBusyError, StoreError
from tutor.web import api
from tutor.web.context import Context
from tutor.web.errors import ApiError, parse_body
from tutor.web.security import SameOriginOnly, own_hosts

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
#: Paths the page handles itself (one page; the script draws the view the path names).
PAGES = ("/", "/play", "/learn", "/puzzle", "/history", "/settings")
log = logging.getLogger("tutor.web")

Work = Callable[[Context, dict[str, Any], Mapping[str, str]], dict[str, Any]]


def _json(data: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})


def endpoint(context: Context, work: Work) -> Callable[[Request], Any]:
    """Wrap ``work`` as a route: body checks, the thread pool, errors as 4xx JSON."""

    async def handle(request: Request) -> Response:
        raw = b""
        if request.method == "POST":
            raw = await request.body()
            if len(raw) > MAX_BODY:
                return _json({"error": f"request too large ({len(raw)} bytes)"}, 413)
        try:
            body = parse_body(raw)
            query = {**request.query_params, **request.path_params}
            holder = getattr(context, getattr(work, "slot_name", ""), None)
            if holder is not None:  # the game: always on its own thread (its store connection lives there)
                call = functools.partial(work, context, body, query)
                return _json(await asyncio.get_running_loop().run_in_executor(holder.executor, call))
            return _json(await run_in_threadpool(work, context, body, query))
        except ApiError as error:
            return _json({"error": error.message, **error.extra}, error.status)
        except GameBusyError as error:
            return _json({"error": str(error)}, 409)
        except StoreError as error:
            return _json({"error": str(error)}, 503)
        except Exception as error:  # noqa: BLE001 - the page gets one line, the log the details
            log.exception("unexpected error in %s", request.url.path)
            return _json({"error": f"internal error: {type(error).__name__}"}, 500)

    return handle


def create_app(context: Context | None = None, host: str = "127.0.0.1", port: int = 8765,
               extra_hosts: tuple[str, ...] = ()) -> Any:
    """The app, wrapped in the same-origin check for ``host:port`` (plus ``extra_hosts``)."""
    context = context or Context()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})

    routes: list[Any] = [Route(path, page) for path in PAGES]
    for path, method, work in api.ROUTES:
        routes.append(Route(path, endpoint(context, work), methods=[method]))
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))

    async def not_found(request: Request, exc: Exception) -> Response:
        return _json({"error": f"no such page: {request.url.path[:40]!r}"}, 404)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _json({"error": f"{request.method} is not allowed here"}, 405)

    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_allowed})
    app.state.context = context
    return SameOriginOnly(app, own_hosts(host, port, extra_hosts))

"""Only the page this server serves may talk to it.

A page on another site can make a browser send requests to ``127.0.0.1``; a
DNS-rebinding page can even make them look same-origin.  Two checks stop both:
the ``Host`` header must name this server (so a rebound name is refused), and
an ``Origin`` header, when the browser sends one (it always does for ``POST``
and for cross-site ``fetch``), must be this server's own.  State-changing
requests must also carry a JSON body, which a plain HTML form cannot send.
Refusals are 403 JSON answers, worded in the request's language; nothing
behind the check runs (the store is at most read, for the learner's language).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool

from tutor.i18n import Phrase

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
#: Words a refusal for a request's query (``?lang=``…): may read the store, so it runs in a worker thread.
Wording = Callable[[Mapping[str, str], Phrase], str]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def own_hosts(host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """The ``Host`` values this server answers to: its own address, and loopback names when it binds loopback."""
    names = {host if ":" not in host or host.startswith("[") else f"[{host}]"}
    if host in ("127.0.0.1", "localhost", "::1", "[::1]"):
        names.update(LOOPBACK_NAMES)
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts.update(names)
    hosts.update(extra)
    return frozenset(hosts)


class SameOriginOnly:
    """ASGI middleware: refuse requests whose Host or Origin is not this server's (403)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], wording: Wording | None = None) -> None:
        self.app = app
        self.hosts = hosts
        self.wording: Wording = wording or (lambda query, phrase: phrase.render("en"))
        self.origins = frozenset(f"http://{host}" for host in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problem = self.problem(scope)
        if problem is not None:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            await _refuse(send, await run_in_threadpool(self.wording, query, problem))
            return
        await self.app(scope, receive, send)

    def problem(self, scope: Scope) -> Phrase | None:
        """Why the request is refused, or None when it may go on."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if host not in self.hosts:
            return Phrase("web.err_host", {"host": repr(host[:40])})
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return Phrase("web.err_origin", {"origin": repr(origin[:40])})
        if headers.get("sec-fetch-site") == "cross-site":
            return Phrase("web.err_cross_site")
        if scope.get("method") not in ("GET", "HEAD"):
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return Phrase("web.err_not_json")
        return None


async def _refuse(send: Send, message: str) -> None:
    body = json.dumps({"error": message}, ensure_ascii=False).encode()
    await send({
        "type": "http.response.start",
        "status": 403,
        "headers": [(b"content-type", b"application/json; charset=utf-8"), (b"content-length", str(len(body)).encode())],
    })
    await send({"type": "http.response.body", "body": body})

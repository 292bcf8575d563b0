"""Only the page this server serves may talk to it.

A page on another site can make a browser send requests to ``127.0.0.1``; a
DNS-rebinding page can even make them look same-origin.  Two checks stop both:
the ``Host`` header must name this server (so a rebound name is refused), and
an ``Origin`` header, when the browser sends one (it always does for ``POST``
and for cross-site ``fetch``), must be this server's own.  State-changing
requests must also carry a JSON body, which a plain HTML form cannot send.
Refusals are 403 JSON answers, worded in the request's language; nothing
behind the check runs (the store is at most read, for the learner's language).

Beyond loopback (``ddz serve --host 0.0.0.0``) anyone on the network can send
requests, so every request must also carry the server's token: the URL that
``ddz serve`` prints has ``?token=…``, which the server trades for an
``HttpOnly``, ``SameSite=Strict`` cookie (and a redirect to the same page
without the token, so it stays out of the address bar and the history), as
Jupyter does.  A request without the cookie is a 401 with nothing done.

Every answer, refusals included, carries the security headers: a
Content-Security-Policy that lets the page run only its own scripts and styles
and never be framed, ``nosniff``, no referrer, ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

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
#: Addresses ``ddz serve`` may bind without a token (this machine only).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
#: Addresses that bind every interface: the ``Host`` a client uses cannot be known in advance.
WILDCARD_HOSTS = ("0.0.0.0", "::", "[::]")
#: The page's own scripts and styles only, images also as data: URLs, never inside a frame.
_POLICY = {"default-src": ("'self'",), "script-src": ("'self'",), "style-src": ("'self'",),
           "img-src": ("'self'", "data:"), "frame-ancestors": ("'none'",)}
CSP = "; ".join(" ".join((name, *sources)) for name, sources in _POLICY.items())
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server on this machine (then no token is needed)."""
    return host.lower() in LOOPBACK_HOSTS


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


def token_cookie(port: int) -> str:
    """The cookie that carries the token (one per port: cookies do not tell ports apart)."""
    return f"ddz_token_{port}"


class SameOriginOnly:
    """ASGI middleware: refuse requests whose Host or Origin is not this server's (403), or lack the token (401).

    ``hosts`` None accepts any ``Host`` (a server bound to every interface, which
    only runs with a token); the ``Origin`` must then be the ``Host`` the request names.
    """

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None, wording: Wording | None = None,
                 token: str | None = None, port: int = 0, extra_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.wording: Wording = wording or (lambda query, phrase: phrase.render("en"))
        # ``extra_origins``: the public URL behind a proxy (``ddz serve --public-url``, tutor/web/proxy.py): its
        # host is also this server's, but only with the origin's own scheme (https, not http)
        extra = frozenset(extra_origins)
        self.origins = frozenset(f"http://{host}" for host in hosts or ()) | extra
        self.hosts = None if hosts is None else hosts | {origin.split("://", 1)[1] for origin in extra}
        self.token = token
        self.cookie = token_cookie(port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        problem = self.problem(scope)
        status = 403
        if problem is None and self.token is not None and not self.has_cookie(scope):
            if scope.get("method") == "GET" and self._same(query.get("token", "")):
                await _let_in(guarded, scope, query, self.cookie, self.token)
                return
            problem, status = Phrase("web.err_token"), 401
        if problem is not None:
            await _refuse(guarded, await run_in_threadpool(self.wording, query, problem), status)
            return
        await self.app(scope, receive, guarded)

    def _same(self, offered: str) -> bool:
        return self.token is not None and hmac.compare_digest(offered.encode(), self.token.encode())

    def has_cookie(self, scope: Scope) -> bool:
        """Whether the request carries this server's token cookie."""
        for name, value in scope.get("headers", []):
            if name.lower() != b"cookie":
                continue
            for part in value.decode("latin-1").split(";"):
                key, _, given = part.strip().partition("=")
                if key == self.cookie and self._same(given):
                    return True
        return False

    def problem(self, scope: Scope) -> Phrase | None:
        """Why the request is refused, or None when it may go on."""
        pairs = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        headers = dict(pairs)
        counted = [name for name, _ in pairs]
        if counted.count("host") > 1 or counted.count("origin") > 1:
            return Phrase("web.err_twice")  # which one would a proxy or a browser have meant?
        host = headers.get("host", "")
        if self.hosts is not None and host not in self.hosts:
            return Phrase("web.err_host", {"host": repr(host[:40])})
        origin = headers.get("origin")
        # every interface: the Host the request names, by the scheme it came with (https behind a trusted proxy)
        allowed = self.origins if self.hosts is not None else {f"{scope.get('scheme', 'http')}://{host}"}
        if origin is not None and origin not in allowed:
            return Phrase("web.err_origin", {"origin": repr(origin[:40])})
        if headers.get("sec-fetch-site") == "cross-site":
            return Phrase("web.err_cross_site")
        if scope.get("method") not in ("GET", "HEAD"):
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return Phrase("web.err_not_json")
        return None


async def _let_in(send: Send, scope: Scope, query: Mapping[str, str], cookie: str, token: str) -> None:
    """Trade the URL's token for the cookie, and send the browser back to the same page without it."""
    rest = urlencode([(key, value) for key, value in query.items() if key != "token"])
    path = "/" + quote(str(scope.get("path", "/")).lstrip("/"))  # never "//host": not a way off this server
    location = path + (f"?{rest}" if rest else "")
    await send({
        "type": "http.response.start",
        "status": 303,
        "headers": [
            (b"location", location.encode("utf-8")),
            (b"set-cookie", "; ".join((f"{cookie}={token}", "HttpOnly", "SameSite=Strict", "Path=/")).encode()),
            (b"cache-control", b"no-store"),
            (b"content-length", b"0"),
        ],
    })
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, message: str, status: int = 403) -> None:
    body = json.dumps({"error": message}, ensure_ascii=False).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json; charset=utf-8"), (b"content-length", str(len(body)).encode())],
    })
    await send({"type": "http.response.body", "body": body})

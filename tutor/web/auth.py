"""Club mode's door: who is signed in, the session cookie, CSRF, and the sign-in rate limit.

A club server (``ddz serve --db …``) serves many learners, so every request but
the sign-in page and the page's own files must come from a signed-in account:

* **Session cookie.** Signing in trades a name and password (checked by the
  store, argon2) for a random session token (stored hashed by the store) in a
  cookie that is ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other
  site's page sends it) and ``Secure`` whenever the server is not plain http on
  loopback (then named ``__Host-…``: no subdomain can set it).  Signing out ends
  the session in the store, so the cookie is worthless from then on, on every
  worker.
* **CSRF.** On top of the own-origin check every request already passes
  (:mod:`tutor.web.security`: Host, Origin, ``Sec-Fetch-Site``, a JSON body), a
  state-changing request must carry ``X-DDZ-CSRF``: an HMAC of the session token
  that the server writes into the page it serves.  A page of another site can
  neither read it nor compute it.
* **Rate limit.** Failed sign-ins are counted in the store (so the limit holds
  across workers and restarts) per name and per client address; past the limit
  the answer is a 429 without the password being checked, so guessing costs the
  guesser, not the server's argon2 time.

Every refusal is one line of JSON, worded in the request's language.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool

from tutor.i18n import Phrase
from tutor.web.security import ASGIApp, Receive, Scope, Send, Wording

CSRF_HEADER = "x-ddz-csrf"
#: How long a sign-in lasts (the cookie's Max-Age; the store refuses the token after it too).
SESSION_SECONDS = 14 * 24 * 3600
#: Paths open without signing in: the sign-in page and its request, and the page's own files.
OPEN_PATHS = ("/signin", "/api/club/signin")
OPEN_PREFIXES = ("/static/",)
#: Query fields that must never be in an address (history, proxy logs): the request is refused.
SECRET_FIELDS = ("password",)
#: What an account whose password was given by someone else may reach before choosing its own.
CHANGE_PATHS = ("/password", "/api/club/password", "/api/club/signout")
#: Pages a signed-out browser is sent to the sign-in page from (the API answers 401 instead).
PAGE_PREFIXES = ("/api/",)


@dataclass(frozen=True)
class Limits:
    """How failed sign-ins are limited within ``window`` seconds (counted in the database: every worker).

    Per name: ``per_name`` failures are free; after them each try must wait ``delay`` seconds after the
    last failure, doubling with each further failure up to ``max_delay``: a guesser gets a few dozen
    tries in the window, and the name's owner (a teacher whose name a pupil typed wrong five times)
    waits a minute at most instead of being locked out.  Per client address (the real client behind
    ``--proxy``): ``per_address`` failures in the window, enough for a class behind one school NAT.
    """

    per_name: int = 5
    per_address: int = 100
    window: int = 15 * 60
    delay: float = 1.0
    max_delay: float = 60.0

    def wait(self, failures: int, last_age: float | None) -> float:
        """Seconds still to wait before the name's next try (0: it may try now)."""
        if failures < self.per_name or last_age is None:
            return 0.0
        needed = min(self.max_delay, self.delay * float(2 ** min(failures - self.per_name, 30)))
        return max(0.0, needed - last_age)


def cookie_name(secure: bool) -> str:
    """``__Host-`` cookies must be Secure, have Path=/ and no Domain: no other host can plant one."""
    return "__Host-ddz_session" if secure else "ddz_session"


def csrf_token(session_token: str) -> str:
    """The page's CSRF token: derived from the session (nothing more to store), useless without it."""
    return hmac.new(session_token.encode(), b"ddz-tutor csrf", hashlib.sha256).hexdigest()[:32]


def session_cookie(token: str, secure: bool, max_age: int = SESSION_SECONDS) -> str:
    """The ``Set-Cookie`` value for ``token`` (an empty token with ``max_age`` 0 clears it)."""
    parts = [f"{cookie_name(secure)}={token}", "HttpOnly", "SameSite=Strict", "Path=/", f"Max-Age={max_age}"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def cookie_of(scope: Scope, name: str) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            found, _, given = part.strip().partition("=")
            if found == name and given:
                return str(given[:200])
    return None


def header_of(scope: Scope, name: str) -> str | None:
    wanted = name.encode()
    for key, value in scope.get("headers", []):
        if key.lower() == wanted:
            return str(value.decode("latin-1"))
    return None


def client_address(scope: Scope) -> str:
    """The client's address (uvicorn already puts a trusted proxy's ``X-Forwarded-For`` here)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def is_secure(scope: Scope, beyond_loopback: bool) -> bool:
    """Secure cookies unless this is plain http on loopback (a browser drops Secure cookies over http)."""
    return beyond_loopback or scope.get("scheme") == "https"


class Door:
    """ASGI middleware: find the signed-in user, send the signed-out to sign in, check CSRF.

    ``lookup(token)`` is the store's ``user_for_session`` (run in a worker thread).  The user and the
    token are left in ``scope["state"]`` for the routes (:meth:`tutor.web.club.ClubContext.for_request`).
    """

    def __init__(self, app: ASGIApp, lookup: Callable[[str], Any], wording: Wording,
                 beyond_loopback: bool) -> None:
        self.app = app
        self.lookup = lookup
        self.wording = wording
        self.beyond_loopback = beyond_loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        if path.startswith(OPEN_PREFIXES):  # the page's own files: nobody's data, no database lookup
            await self.app(scope, receive, send)
            return
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if any(key.lower() in SECRET_FIELDS for key in query):  # a form sent by GET: refused, nothing logged
            await refuse(send, await run_in_threadpool(self.wording, {"lang": query.get("lang", "")},
                                                       Phrase("club.err_password_in_url")), 400)
            return
        secure = is_secure(scope, self.beyond_loopback)
        token = cookie_of(scope, cookie_name(secure))
        user = await run_in_threadpool(self.lookup, token) if token else None
        state = scope.setdefault("state", {})
        state["ddz_user"], state["ddz_token"], state["ddz_secure"] = user, token, secure
        if path in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        if user is None or token is None:
            if scope.get("method") in ("GET", "HEAD") and not path.startswith(PAGE_PREFIXES):
                await _redirect(send, "/signin")
                return
            await refuse(send, await run_in_threadpool(self.wording, query, Phrase("club.err_signed_out")), 401)
            return
        if scope.get("method") not in ("GET", "HEAD"):
            offered = header_of(scope, CSRF_HEADER) or ""
            if not hmac.compare_digest(offered.encode(), csrf_token(token).encode()):
                await refuse(send, await run_in_threadpool(self.wording, query, Phrase("club.err_csrf")), 403)
                return
        if getattr(user, "must_change", False) and path not in CHANGE_PATHS:  # a one-time password: its own first
            if scope.get("method") in ("GET", "HEAD") and not path.startswith(PAGE_PREFIXES):
                await _redirect(send, "/password")
                return
            await refuse(send, await run_in_threadpool(self.wording, query, Phrase("password.err_change_first")), 403)
            return
        await self.app(scope, receive, send)


async def _redirect(send: Send, location: str) -> None:
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", location.encode()), (b"cache-control", b"no-store"),
                            (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


async def refuse(send: Send, message: str, status: int) -> None:
    """A one-line JSON refusal (the security headers are added by the middleware around this one)."""
    body = json.dumps({"error": message}, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})

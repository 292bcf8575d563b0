"""Behind an HTTPS reverse proxy: trust its ``X-Forwarded-*`` headers, and only its (docs/club.md).

``ddz serve --proxy 127.0.0.1 --public-url https://club.example.org`` runs the
server behind nginx or Caddy.  The browser talks HTTPS to the proxy, the proxy
plain http to the server, so the server cannot see by itself what the browser
sees: the scheme (https), the address the browser typed (``Host``) and who the
browser is (its address, which the sign-in limits count).  The proxy says so in
``X-Forwarded-Proto``, ``X-Forwarded-Host`` and ``X-Forwarded-For``.

Those headers are believed **only on connections from the proxy's address**:
anyone else could write them too (to pass for another address and dodge the
sign-in limit, or for https).  From any other peer they are ignored.  uvicorn's
own handling of them (which trusts 127.0.0.1 by default, whoever runs there) is
turned off in club mode: this middleware is the one place that decides.

``X-Forwarded-For`` may hold a chain (``client, proxy1, …``) that the client
itself can start; only the **last** entry was written by our proxy (nginx's
``$proxy_add_x_forwarded_for`` appends the address it saw), so that one is the
client's address.

The public URL is the server's own origin: the ``Host`` and ``Origin`` checks of
:mod:`tutor.web.security` accept it (``create_app(public_url=…)``), and with
``https`` the sign-in cookie is ``Secure`` and ``__Host-``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from tutor.web.security import ASGIApp, Receive, Scope, Send

FORWARDED = (b"x-forwarded-for", b"x-forwarded-proto", b"x-forwarded-host")


@dataclass(frozen=True)
class PublicUrl:
    """The address browsers use: ``scheme://host[:port]`` (no path)."""

    scheme: str
    #: ``host`` or ``host:port`` as a browser sends it in ``Host`` (the default port left out).
    netloc: str

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.netloc}"

    @property
    def secure(self) -> bool:
        return self.scheme == "https"


def parse_public_url(text: str) -> PublicUrl:
    """``https://host[:port]`` (or http) as a :class:`PublicUrl`; ValueError naming what is wrong."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https"):
        raise ValueError("scheme")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError("path")
    host = parts.hostname
    if not host or any(not ch.isprintable() or ch.isspace() for ch in host):
        raise ValueError("host")
    port = parts.port  # ValueError when not a number in range
    shown = f"[{host}]" if ":" in host else host.lower()
    default = 443 if parts.scheme == "https" else 80
    netloc = shown if port in (None, default) else f"{shown}:{port}"
    return PublicUrl(parts.scheme, netloc)


def parse_proxies(text: str) -> frozenset[str]:
    """``--proxy``: one address or several separated by commas (each an IP address), normalised."""
    found = set()
    for part in text.split(","):
        found.add(str(ipaddress.ip_address(part.strip().strip("[]"))))  # ValueError when not an address
    return frozenset(found)


def _last(values: Iterable[str]) -> str:
    items = [item.strip() for value in values for item in value.split(",") if item.strip()]
    return items[-1] if items else ""


class TrustedProxy:
    """ASGI middleware: on connections from ``proxies``, take scheme, ``Host`` and client from the proxy's headers."""

    def __init__(self, app: ASGIApp, proxies: frozenset[str]) -> None:
        self.app = app
        self.proxies = proxies

    def _from_proxy(self, scope: Scope) -> bool:
        client = scope.get("client")
        if not client:
            return False
        try:
            return str(ipaddress.ip_address(str(client[0]))) in self.proxies
        except ValueError:
            return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self._from_proxy(scope):
            scope = dict(scope)
            headers = list(scope.get("headers", []))
            found: dict[bytes, list[str]] = {}
            for key, value in headers:
                if key.lower() in FORWARDED:
                    found.setdefault(key.lower(), []).append(value.decode("latin-1"))
            proto = _last(found.get(b"x-forwarded-proto", [])).lower()
            if proto in ("http", "https"):
                scope["scheme"] = proto if scope["type"] == "http" else {"http": "ws", "https": "wss"}[proto]
            address = _last(found.get(b"x-forwarded-for", []))
            try:
                client = str(ipaddress.ip_address(address.strip("[]")))
            except ValueError:
                client = ""
            if client:
                scope["client"] = (client, 0)
            host = _last(found.get(b"x-forwarded-host", []))
            if host:
                headers = [(key, value) for key, value in headers if key.lower() != b"host"]
                headers.append((b"host", host.encode("latin-1")))
            scope["headers"] = headers
        await self.app(scope, receive, send)

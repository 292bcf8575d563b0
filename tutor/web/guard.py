"""The connection guard of ``ddz serve`` (issue 32): no request is held open forever.

uvicorn's HTTP/1.1 protocol (h11) bounds the time between two requests on a kept-alive
connection, but not a request that is half sent: a client that sends half its headers, or
a ``Content-Length: 1000`` and five bytes, held its connection forever (19,900 of them were
held beyond loopback).  This protocol adds, per connection:

* a **header timeout** (:data:`HEADER_TIMEOUT`): from the connection (or the end of the last
  answer) until the request's headers are complete;
* a **body timeout** (:data:`BODY_TIMEOUT`): from the headers until the body is complete;
  either one answers ``408`` (when no answer has started) and closes the connection;
* **an answer sent before the request was read to its end closes the connection** (a 413
  for a chunked gigabyte: the rest is not read, nor is the connection reused);
* a request with both ``Content-Length`` and ``Transfer-Encoding`` is refused (400, closed):
  the two framings disagree, and a proxy in front may take the other one (request smuggling);
* bytes that arrive after the connection is closing are dropped, so uvicorn never logs
  "Fatal error: protocol.data_received()" with a traceback after a refused upload.

:func:`server_options` is what ``ddz serve`` gives ``uvicorn.Config``: this protocol, the
keep-alive timeout (:data:`KEEP_ALIVE`) and the concurrency limit (:data:`CONCURRENCY`; beyond
it, uvicorn answers 503, here with ``Retry-After``: :func:`busy`).  Loaded only by ``ddz serve``
(uvicorn is imported here).

uvicorn's limit counts **connections** as well as requests, and a club's page keeps two open (its
requests, and its wait for the coach's answers, held up to 15 s): 64 per process refused most
requests of 200 learners on two processes (round 3 of issue 35: 4,871 answers were that 503, with
the server's work using a fraction of a core).  The limit is a bound on open sockets (each costs a
few kilobytes; the header and keep-alive timeouts end idle ones), not a bound on work: the work is
bounded by each process's think pool (tutor/web/club.py), where requests wait their turn.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from uvicorn.protocols.http import h11_impl
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a request's headers (from connecting, or from the last answer).
HEADER_TIMEOUT = 10.0
#: Seconds a client has to send a request's body once its headers are in (64 KB at most).
BODY_TIMEOUT = 30.0
#: Seconds an idle kept-alive connection stays open between requests.
KEEP_ALIVE = 5
#: Most connections and requests at once per process; beyond it uvicorn answers 503 with ``Retry-After``.
CONCURRENCY = 1024
#: Seconds a refused client is asked to wait before trying again (the page and the load benchmark add jitter).
RETRY_AFTER = 2

#: Tests shorten the bounds: ``DDZ_SERVE_LIMITS="header,body,keep_alive,concurrency"`` (seconds, seconds,
#: seconds, count), read once per process (a worker of a club reads it too).
LIMITS_ENV = "DDZ_SERVE_LIMITS"


def limits() -> tuple[float, float, int, int]:
    """(header timeout, body timeout, keep-alive, concurrency): the defaults, or ``DDZ_SERVE_LIMITS``."""
    text = os.environ.get(LIMITS_ENV, "")
    try:
        header, body, keep, most = (float(x) for x in text.split(","))
        if min(header, body, keep, most) > 0:
            return header, body, max(1, int(keep)), max(1, int(most))
    except ValueError:
        pass
    return HEADER_TIMEOUT, BODY_TIMEOUT, KEEP_ALIVE, CONCURRENCY


_TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
              b"connection: close\r\ncontent-length: 16\r\n\r\nRequest Timeout\n")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the bounds of the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = ""
        self._header_timeout, self._body_timeout = limits()[:2]
        next_event = self.conn.next_event

        def checked_next_event() -> Any:
            event = next_event()
            if isinstance(event, h11.Request):
                names = {name.lower() for name, _ in event.headers}
                if b"content-length" in names and b"transfer-encoding" in names:
                    raise h11.RemoteProtocolError("content-length+transfer-encoding", 400)  # log only
            return event

        self.conn.next_event = checked_next_event  # type: ignore[method-assign]

    # -- the deadlines
    def _arm(self, phase: str, seconds: float) -> None:
        self._disarm()
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = ""

    def _expired(self) -> None:
        self._deadline = None
        if self.transport is None or self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(_TIMED_OUT)
        self.transport.close()

    def _follow(self) -> None:
        """Move the deadline along with what the client has sent so far."""
        if self.transport is None or self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self._phase != "headers":
                self._arm("headers", self._header_timeout)
        elif state is h11.SEND_BODY:
            if self._phase != "body":
                self._arm("body", self._body_timeout)
        else:  # the request is in (DONE), or the connection is ending: the app's answer is not timed here
            self._disarm()

    # -- uvicorn's protocol interface
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm("headers", self._header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing() or self.conn.their_state in (h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            return  # a refused upload still arriving: nothing more is read from this connection
        try:
            super().data_received(data)
        except (h11.LocalProtocolError, h11.RemoteProtocolError, RuntimeError):
            self.transport.close()  # h11 refuses what came after an answer: end it, quietly
        self._follow()

    def shutdown(self) -> None:
        """The server is ending: the pages' held waits for the coach end now (tutor/store/notices.py), not in 15 s."""
        import sys

        notices = sys.modules.get("tutor.store.notices")
        if notices is not None:
            notices.stop_all()
        super().shutdown()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing() and self.conn.their_state is not h11.DONE:
            # Answered before the request was read to its end (a 413, a refusal): close, do not read the rest.
            self.server_state.total_requests += 1
            self._disarm()
            try:
                self.conn.send(h11.ConnectionClosed())
            except h11.LocalProtocolError:
                pass
            self.transport.close()
            return
        super().on_response_complete()
        self._follow()


_BUSY_BODY = b"Service Unavailable: the server is busy, try again in a moment.\n"


async def busy(scope: Any, receive: Any, send: Any) -> None:
    """uvicorn's answer past the concurrency limit, with ``Retry-After``: a client (the page, the load
    benchmark) waits that long, plus jitter, instead of asking again at once (a crowd's retries were most
    of the storm)."""
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(_BUSY_BODY)).encode()),
                            (b"retry-after", str(RETRY_AFTER).encode()), (b"cache-control", b"no-store"),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": _BUSY_BODY, "more_body": False})


# uvicorn's h11 protocol picks its module's ``service_unavailable`` past the limit: ours says when to come back.
h11_impl.service_unavailable = busy  # type: ignore[attr-defined]


def room_for(connections: int) -> None:
    """Raise this process's open-file limit (soft, up to the hard one) to hold ``connections`` sockets and
    the rest (a Debian default of 1,024 is below the concurrency limit with the database's connections)."""
    try:
        import resource
    except ImportError:  # not on Linux/BSD: the system's own limit stands
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


def server_options() -> dict[str, Any]:
    """The keyword arguments ``ddz serve`` passes to ``uvicorn.Config`` (see the module docstring)."""
    _, _, keep_alive, most = limits()
    room_for(most)
    return {"http": GuardedH11Protocol, "timeout_keep_alive": keep_alive, "limit_concurrency": most}

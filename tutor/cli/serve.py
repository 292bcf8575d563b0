"""``ddz serve``: the web table on this machine (a front end like ``ddz play``, over the same sessions).

Starlette, uvicorn and the server's modules are imported only when the
command runs, so ``ddz --help`` and the terminal commands never load them.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import webbrowser
from typing import Any

import click

from tutor.cli.errors import UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.say import say
from tutor.i18n import LANGUAGES, t


def _has_display() -> bool:
    """A desktop where a browser can open (``--open`` is the default only there)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


#: The shortest token accepted from ``--token`` (a generated one has 32 characters).
MIN_TOKEN = 16
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _checked_host(host: str) -> str:
    """``--host`` as an address to bind: refused when empty (it would bind every interface) or unusable."""
    if not host.strip():
        raise UserError(t("cli.serve_host_empty"))
    try:
        host.encode("idna" if not host.isascii() else "ascii")
    except (UnicodeError, ValueError):
        raise UserError(t("cli.serve_host_bad", host=repr(host))) from None
    if len(host) > 253 or any(not ch.isprintable() for ch in host):
        raise UserError(t("cli.serve_host_bad", host=repr(host)))
    return host


def _checked_token(token: str | None) -> str:
    """``--token`` (long enough, URL-safe characters), or a fresh random one."""
    import secrets

    if token is None:
        return secrets.token_urlsafe(24)
    if len(token) < MIN_TOKEN or not set(token) <= _TOKEN_CHARS:
        raise UserError(t("cli.serve_token_bad", n=MIN_TOKEN))
    return token


@click.command("serve", cls=TranslatedCommand)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option("--token", default=None)
@click.option("--open/--no-open", "open_browser", default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@click.option("--db", envvar="DDZ_DB", default=None)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--proxy", default=None)
@click.option("--public-url", "public_url", default=None)
@click.option("--coach-inline", "coach_inline", is_flag=True, default=False)
@handle_user_errors
def serve_command(host: str, port: int, token: str | None, open_browser: bool | None, lang: str | None,
                  db: str | None, workers: int, proxy: str | None = None, public_url: str | None = None,
                  coach_inline: bool = False) -> None:
    # Help text: help.serve.  --lang is remembered: the page speaks the language setting.
    # Beyond loopback every request needs the token (tutor.web.security); on loopback none is asked for.
    # --db (or DDZ_DB): club mode (tutor.web.club): accounts sign in instead, and --workers N processes serve.
    import socket

    import uvicorn

    from tutor.web.app import create_app
    from tutor.web.guard import server_options
    from tutor.web.security import is_loopback

    host = _checked_host(host)
    if workers > 1 and not db:
        raise UserError(t("club.serve_workers_single"))
    behind = _checked_proxy(proxy, public_url, db)
    club_db = _checked_club(db) if db is not None else None
    needs_token = not is_loopback(host) and club_db is None
    if token is not None and not needs_token and club_db is None:
        say(t("harden.token_ignored", host=host), err=True)  # issue 32: say so, do not drop it silently
    token = _checked_token(token) if needs_token else None
    try:
        listener = socket.create_server((host.strip("[]"), port),
                                        family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except (OSError, UnicodeError, ValueError, OverflowError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
        raise UserError(t("cli.serve_cannot_listen", host=repr(host), port=port, reason=reason)) from None
    port = listener.getsockname()[1]
    if club_db is not None:
        _serve_club(listener, host, port, club_db, workers, open_browser, {**behind, "coach_inline": coach_inline})
        return
    if lang is not None:
        from tutor.store import Store

        with Store.open() as store:
            store.set_setting("lang", lang)
    shown = host if host.startswith("[") or ":" not in host else f"[{host}]"
    url = f"http://{shown}:{port}/"
    if token is not None:
        url += f"?token={token}"
        say(t("cli.serve_beyond_loopback", host=host), err=True)
    say(t("cli.serve_url", url=url))
    if open_browser if open_browser is not None else _has_display():
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    config = uvicorn.Config(create_app(host=host.strip("[]") if host.startswith("[") else host, port=port,
                                       token=token), log_level="warning", lifespan="off", **server_options())
    server = uvicorn.Server(config)
    # Ctrl-C: uvicorn shuts down, then raises it again; the root group prints one line and exits 130.
    server.run(sockets=[listener])
    # asyncio's runner turns that raised Ctrl-C into a cancel of its main task, which is lost when the
    # server has already returned (a race: exit status 0 now and then, under load): raise it here.
    if signal.SIGINT in getattr(server, "_captured_signals", ()):
        raise KeyboardInterrupt


def _checked_club(db: str) -> str:
    """The club's database, opened once here (migrated, checked) so that a bad URL fails before listening."""
    from tutor.cli.users import open_club

    _refuse_missing_folder(db)
    open_club(db).close()
    return db.strip()


def _checked_proxy(proxy: str | None, public_url: str | None, db: str | None) -> dict[str, Any]:
    """``--proxy ADDR --public-url URL`` (both, club mode only) as the workers' settings; one line when unusable."""
    if proxy is None and public_url is None:
        return {}
    if proxy is None or public_url is None:
        raise UserError(t("club.serve_proxy_pair"))
    if not db:
        raise UserError(t("club.serve_proxy_club"))
    from tutor.web.proxy import parse_proxies, parse_public_url

    try:
        proxies = parse_proxies(proxy)
    except ValueError:
        raise UserError(t("club.serve_proxy_bad", value=repr(proxy[:40]))) from None
    try:
        public = parse_public_url(public_url)
    except ValueError:
        raise UserError(t("club.serve_public_bad", value=repr(public_url[:40]))) from None
    return {"proxy": sorted(proxies), "public_url": public.origin}


def _refuse_missing_folder(db: str) -> None:
    """A SQLite club file whose folder does not exist is refused (issue 32: folders were made silently)."""
    from pathlib import Path

    from tutor.files import shown
    from tutor.store.club import is_postgres

    text = db.strip()
    if not text or is_postgres(text):
        return
    path = Path(text.removeprefix("sqlite:///")).expanduser()
    if not path.parent.is_dir():
        raise UserError(t("harden.db_folder_missing", path=shown(path)))


def _serve_club(listener: Any, host: str, port: int, db: str, workers: int, open_browser: bool | None,
                behind: dict[str, Any] | None = None) -> None:
    """Club mode: ``workers`` processes (uvicorn's supervisor, one shared socket) or this one.

    Each worker builds its app from ``DDZ_SERVE_CLUB`` (:func:`tutor.web.club.worker_app`) and asks the
    kernel to end it with its parent, so no worker outlives ``ddz serve``, however that ends.
    """
    import json

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from tutor.web.club import SERVE_ENV, worker_app
    from tutor.web.guard import server_options
    from tutor.web.security import is_loopback

    shown = host if host.startswith("[") or ":" not in host else f"[{host}]"
    url = f"http://{shown}:{port}/"
    behind = behind or {}
    inline = bool(behind.get("coach_inline"))
    beyond = not is_loopback(host)
    if behind.get("public_url"):
        say(t("club.serve_behind_proxy", url=behind["public_url"], proxy=", ".join(behind["proxy"])), err=True)
    elif beyond:
        say(t("club.serve_club_https"), err=True)
    say(t("club.serve_club", db=_redacted(db), n=workers), err=True)
    from tutor.store.club import is_postgres

    if is_postgres(db) and not inline:
        say(t("worker.serve_needs_workers"), err=True)
    say(t("cli.serve_url", url=url))
    if open_browser if open_browser is not None else _has_display():
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    bound = host.strip("[]") if host.startswith("[") else host
    os.environ[SERVE_ENV] = json.dumps({"db": db, "host": bound, "port": port, **behind})
    # proxy_headers off: uvicorn would believe X-Forwarded-* from any local process; tutor/web/proxy.py
    # believes them from --proxy only
    if workers == 1:
        server = uvicorn.Server(uvicorn.Config(worker_app(), log_level="warning", lifespan="off",
                                               proxy_headers=False, **server_options()))
        server.run(sockets=[listener])
        if signal.SIGINT in getattr(server, "_captured_signals", ()):
            raise KeyboardInterrupt
        return
    config = uvicorn.Config("tutor.web.club:worker_app", factory=True, workers=workers, log_level="warning",
                            lifespan="off", proxy_headers=False, **server_options())
    supervisor = Multiprocess(config, sockets=[listener])
    supervisor.run()
    if signal.SIGINT in supervisor.signal_queue or supervisor.should_exit.is_set():
        raise KeyboardInterrupt


def _redacted(db: str) -> str:
    """The database URL without its password (it is printed)."""
    import re

    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", db)


COMMANDS = [serve_command]

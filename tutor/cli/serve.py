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

import click

from tutor.cli.errors import UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.i18n import LANGUAGES


def _has_display() -> bool:
    """A desktop where a browser can open (``--open`` is the default only there)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@click.command("serve", cls=TranslatedCommand)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option("--open/--no-open", "open_browser", default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def serve_command(host: str, port: int, open_browser: bool | None, lang: str | None) -> None:
    # Help text: help.serve.  --lang is remembered: the page speaks the language setting.
    import socket

    import uvicorn

    from tutor.web.app import create_app

    try:
        listener = socket.create_server((host, port))
    except OSError as error:
        raise UserError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    port = listener.getsockname()[1]
    if lang is not None:
        from tutor.store import Store

        with Store.open() as store:
            store.set_setting("lang", lang)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    click.echo(f"ddz serve: {url}  (Ctrl-C stops it)")
    if open_browser if open_browser is not None else _has_display():
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    config = uvicorn.Config(create_app(host=host, port=port), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    # Ctrl-C: uvicorn shuts down, then raises it again; the root group prints one line and exits 130.
    server.run(sockets=[listener])
    # asyncio's runner turns that raised Ctrl-C into a cancel of its main task, which is lost when the
    # server has already returned (a race: exit status 0 now and then, under load): raise it here.
    if signal.SIGINT in getattr(server, "_captured_signals", ()):
        raise KeyboardInterrupt


COMMANDS = [serve_command]

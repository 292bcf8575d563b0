"""``ddz worker --db URL``: take the coach's jobs of a club (verdicts, the auction's line, reviews) off its queue.

A club server on PostgreSQL (``ddz serve --db postgresql://…``) answers a coached play at once and queues the
coach's thinking (tutor/web/coachqueue.py); workers on this machine or any machine that reaches the database
do it.  ``--processes N`` starts N worker processes (the coach is CPU-bound Python: one per core); they end
with this command, silently (each asks the kernel for a SIGTERM when its parent dies).  Ctrl-C: one line,
exit 130.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import click

from tutor.cli.errors import UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.say import say
from tutor.i18n import t

#: Set in the processes ``--processes N`` starts: they end silently when their parent does.
CHILD_ENV = "DDZ_WORKER_CHILD"
#: How much a worker lowers its CPU priority by default (``--nice``): the web's requests come first.
NICE = 10


@click.command("worker", cls=TranslatedCommand)
@click.option("--db", envvar="DDZ_DB", default=None)
@click.option("--processes", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--stalled-after", "stalled_after", type=click.FloatRange(1, 3600), default=30.0, show_default=True)
@click.option("--nice", type=click.IntRange(0, 19), default=NICE, show_default=True)
@handle_user_errors
def worker_command(db: str | None, processes: int, stalled_after: float, nice: int = NICE) -> None:
    # Help text: help.worker.
    from tutor.store import StoreError
    from tutor.store.club import database_url, is_postgres

    url = database_url(db)
    if url is None or not is_postgres(url):
        raise UserError(t("worker.needs_postgres"))
    from importlib.util import find_spec

    if find_spec("procrastinate") is None or find_spec("psycopg") is None:  # the club extra
        raise UserError(t("club.needs_club_extra"))
    from tutor.cli.serve import _redacted

    if not os.environ.get(CHILD_ENV):
        from tutor.store.club import Club

        try:  # the database first, as the worker opens it: a wrong address is one line, before any "started"
            Club.open(url, pool_size=1).close()
        except StoreError as error:
            raise UserError(str(error)) from None
    lower_priority(nice)  # the children inherit it (they are started with --nice 0)
    if os.environ.get(CHILD_ENV):
        _die_with_parent()
    elif processes > 1:
        say(t("worker.started", db=_redacted(url), n=processes), err=True)
        _supervise(url, processes, stalled_after)
        return
    else:
        say(t("worker.started", db=_redacted(url), n=1), err=True)
    from tutor.web.coachqueue import run

    try:
        run(url, stalled_after=stalled_after)
    except StoreError as error:
        raise UserError(str(error)) from None


def lower_priority(niceness: int) -> None:
    """Yield the CPU to the web: a worker on the web node's machine thinks with what the requests leave (the
    coach's verdict waits a little longer, a learner's tap does not; measured in docs/club.md's load table).
    On a machine of its own it changes nothing.  ``0``: as started."""
    if niceness > 0 and hasattr(os, "nice"):
        try:
            os.nice(niceness)
        except OSError:
            pass


def _die_with_parent() -> None:
    """A child of ``--processes N``: SIGTERM when the parent dies, and a SIGTERM ends it without a word."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except OSError:
            pass
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer (one line, once)


def _supervise(url: str, processes: int, stalled_after: float) -> None:
    """Start ``processes`` workers and wait; Ctrl-C or a SIGTERM ends them all."""
    env = {**os.environ, CHILD_ENV: "1", "DDZ_DB": url}
    command = [sys.executable, "-c", "from tutor.cli.main import main; main()", "worker",
               "--stalled-after", str(stalled_after), "--nice", "0"]  # this process's priority, inherited
    children = [subprocess.Popen(command, env=env) for _ in range(processes)]
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(SystemExit(0)))
    try:
        for child in children:
            child.wait()
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()

COMMANDS = [worker_command]

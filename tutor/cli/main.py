"""The ``ddz`` command group.

Each command lives in its own module under ``tutor.cli``; this file only
names them.  A command's module is imported only when that command runs (or
its own ``--help`` is asked for): ``ddz --help`` lists every command with its
short help from the catalogues without importing any of them, so the program
starts in a tenth of a second (``ddz bench startup`` measures it;
``tests/cli/test_startup.py`` keeps the heavy modules out of the start).

The root group is also where every error a user can cause becomes one line:
click's usage errors (shortened, naming the option), our
:class:`~tutor.cli.errors.UserError` (exit 2), and Ctrl-C anywhere
(:class:`~tutor.cli.errors.Interrupted`: one line, exit 130).
"""

from __future__ import annotations

import errno
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from tutor import __version__
from tutor.cli.errors import INTERRUPTED_EXIT, QUOTE_LIMIT, Interrupted, UserError, error_line, shorten
from tutor.cli.help_text import LazyGroup, choose_language
from tutor.i18n import DEFAULT_LANGUAGE, language, set_language, t

#: Every command of ``ddz`` and the module whose ``COMMANDS`` list holds it.
COMMAND_MODULES: dict[str, str] = {
    "classify": "tutor.cli.rules_commands",
    "moves": "tutor.cli.rules_commands",
    "deal": "tutor.cli.rules_commands",
    "solve": "tutor.cli.solve",
    "play": "tutor.cli.play",
    "stats": "tutor.cli.stats",
    "history": "tutor.cli.stats",
    "replay": "tutor.cli.stats",
    "learn": "tutor.cli.learn",
    "lessons": "tutor.cli.learn",
    "puzzle": "tutor.cli.streak",  # the puzzle group, with `ddz puzzle streak` added (issue 30)
    "puzzles": "tutor.cli.puzzle",
    "arena": "tutor.cli.arena",
    "bench": "tutor.cli.bench",
    "analyze": "tutor.cli.analyze",
    "mistakes": "tutor.cli.mistakes",
    "insights": "tutor.cli.insights",
    "serve": "tutor.cli.serve",
    "store": "tutor.cli.store_commands",
    "users": "tutor.cli.users",
    "worker": "tutor.cli.worker",
}


#: click 8.2+ raises this for a group run without a command (it carries the help text).
_NO_ARGS_IS_HELP: type[click.UsageError] | tuple[()] = getattr(click.exceptions, "NoArgsIsHelpError", ())


def _short_extra(message: str) -> str:
    """click's "Got unexpected extra argument (ARGS)": the arguments echoed, at most ~40 characters."""
    match = re.search(r"\((.*)\)\.?$", message, re.S)
    if match is None or len(match.group(1)) <= QUOTE_LIMIT:
        return message
    return f"{message[: match.start()]}({shorten(' '.join(match.group(1).split()))})"


#: click's own usage messages (it speaks English only) and the catalogue key that says each in another language:
#: ``ddz play --level x --lang ru`` said "Invalid value for '--level': 'x' is not one of …" in English.
_CLICK_MESSAGES = (
    (re.compile(r"Invalid value for (?P<param>'[^']*'(?: / '[^']*')*|\S+): (?P<value>.*?) is not one of (?P<choices>.*?)\.?$", re.S),
     "cli.usage_not_one_of"),
    (re.compile(r"Invalid value for (?P<param>'[^']*'(?: / '[^']*')*|\S+): (?P<reason>.*)$", re.S), "cli.usage_invalid"),
    (re.compile(r"No such option:? (?P<name>'[^']*'|\S+?)\.?(?P<rest> .*)?$", re.S), "cli.usage_no_option"),
    (re.compile(r"No such command (?P<name>'[^']*'|\S+?)\.?$", re.S), "cli.usage_no_command"),
    (re.compile(r"Missing argument (?P<name>'[^']*'|\S+?)\.?$", re.S), "cli.usage_missing_argument"),
    (re.compile(r"Missing option (?P<name>'[^']*'|\S+?)\.?$", re.S), "cli.usage_missing_option"),
    (re.compile(r"Option (?P<name>'[^']*'|\S+) requires an argument\.?$", re.S), "cli.usage_needs_value"),
    (re.compile(r"Got unexpected extra arguments? \((?P<args>.*)\)\.?$", re.S), "cli.usage_extra"),
)


def _usage_message(error: click.UsageError) -> str:
    """click's usage message in the command's language (click's English wording kept in English)."""
    message = error.format_message()
    if choose_language(ctx=error.ctx) == DEFAULT_LANGUAGE:
        return message
    for pattern, key in _CLICK_MESSAGES:
        match = pattern.match(message)
        if match is not None:
            return t(key, **{k: (v or "").strip() for k, v in match.groupdict().items()})
    return message


def _interrupted_by_user(error: BaseException) -> bool:
    """Is this click.Abort really Ctrl-C?  (click.prompt turns Ctrl-C into Abort.)"""
    return isinstance(error.__context__, KeyboardInterrupt)


#: Exit status after SIGTERM (128 + 15, as shells report it).
TERMINATED_EXIT = 143


class Terminated(BaseException):
    """SIGTERM (``kill``): unwinds like Ctrl-C, so workers are stopped and files closed."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated


@contextmanager
def _stop_cleanly_on_sigterm() -> Iterator[None]:
    """While a command runs, SIGTERM raises :class:`Terminated` (unless someone chose another
    handling for it, or this is not the main thread); the old handling is put back afterwards.

    Worker processes put it back to the default (:func:`tutor.solver.parallel.ignore_interrupts`).
    """
    try:
        installed = signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        if installed:
            signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread
        installed = False
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def _language_kept() -> Iterator[None]:
    """A command chooses its language (--lang, DDZ_LANG, remembered); the caller's comes back after it
    (one process may run several commands: tests, a front end driving the CLI)."""
    before = language()
    try:
        yield
    finally:
        set_language(before)


#: OS errors that mean a path given on the command line is unusable (exit 2, like any bad argument).
_BAD_ARGUMENT_ERRNOS = frozenset((errno.ENAMETOOLONG, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ELOOP,
                                  errno.EINVAL))


def _os_error_line(error: OSError) -> str:
    """``strerror`` and the path it concerns (at most ~40 characters of it)."""
    from tutor.files import shown

    reason = (error.strerror or type(error).__name__).lower()
    return t("cli.os_error", reason=reason, path=shown(error.filename)) if error.filename is not None \
        else t("cli.os_error_no_path", reason=reason)


class RootGroup(LazyGroup):
    """``ddz``: lazy commands, and every error that reaches the top as one line."""

    def invoke(self, ctx: click.Context) -> Any:
        # Ctrl-C inside a command: our own exception, so that click prints nothing of its own.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None
        except click.Abort as error:
            if _interrupted_by_user(error):
                raise Interrupted() from None
            raise

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """click's ``main`` with our one-line reports (click's own is kept for ``standalone_mode=False``)."""
        if not standalone_mode:
            with _language_kept():
                return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        # The reports below speak the command's language; the caller's comes back after them.
        with _language_kept():
            try:
                with _stop_cleanly_on_sigterm():
                    result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            except Terminated:
                click.echo(t("cli.terminated"), err=True)
                sys.exit(TERMINATED_EXIT)
            except (Interrupted, KeyboardInterrupt):
                Interrupted().show()
                sys.exit(INTERRUPTED_EXIT)
            except click.Abort as error:
                if _interrupted_by_user(error):
                    Interrupted().show()
                    sys.exit(INTERRUPTED_EXIT)
                click.echo(t("cli.aborted"), err=True)
                sys.exit(1)
            except UserError as error:
                error.show()
                sys.exit(error.exit_code)
            except _NO_ARGS_IS_HELP as error:  # `ddz` or `ddz bench` alone: the help, as click shows it
                error.show()
                sys.exit(error.exit_code)
            except click.UsageError as error:
                where = f" ({error.ctx.command_path} --help)" if error.ctx is not None else ""
                click.echo(f"{error_line(_short_extra(_usage_message(error)))}{where}", err=True)
                sys.exit(error.exit_code)
            except click.ClickException as error:
                click.echo(error_line(error.format_message()), err=True)
                sys.exit(error.exit_code)
            except OSError as error:
                if error.errno == errno.EPIPE:  # `ddz … | head`: the reader left, nothing to say
                    # Python's recipe: point stdout at /dev/null so the exit flush stays quiet.
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                    sys.exit(1)
                # Anything a command did not word itself (a name too long, a folder it cannot enter):
                # one line with the cause and the path, never a traceback.
                click.echo(error_line(_os_error_line(error)), err=True)
                sys.exit(2 if error.errno in _BAD_ARGUMENT_ERRNOS else 1)
            sys.exit(result if isinstance(result, int) and not isinstance(result, bool) else 0)


@click.group(
    cls=RootGroup,
    lazy_commands=COMMAND_MODULES,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="ddz")
def main() -> None:
    # Help text: help.main.  The group only names the command modules (COMMAND_MODULES).
    pass

"""The ``ddz`` command group.

Each command lives in its own module under ``tutor.cli``; this file only
gathers them.  Errors that a user can cause are turned into one line on stderr
and exit status 2 by :func:`tutor.cli.errors.handle_user_errors`, never a traceback.
"""

from __future__ import annotations

import click

from tutor import __version__
from tutor.cli.help_text import TranslatedGroup


@click.group(cls=TranslatedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ddz")
def main() -> None:
    # Help text: help.main.  The group only gathers the command modules (see _register).
    pass


#: The modules under ``tutor.cli`` whose ``COMMANDS`` list joins the group.
_COMMAND_MODULES = ("rules_commands", "solve", "play", "stats", "learn", "puzzle", "arena")


def _register() -> None:
    """Attach every command module's commands (and the ``bench`` group) to ``main``."""
    from importlib import import_module

    for name in _COMMAND_MODULES:
        for command in import_module(f"tutor.cli.{name}").COMMANDS:
            main.add_command(command)
    from tutor.cli.bench import bench

    main.add_command(bench)


_register()

"""Turning the errors a user can cause into one clear line and exit status 2."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import click

P = ParamSpec("P")
R = TypeVar("R")


class UserError(click.ClickException):
    """A problem with what the user typed or gave us; printed as one line, exit 2."""

    exit_code = 2

    def show(self, file: object = None) -> None:  # noqa: D102 - click API
        click.echo(f"error: {self.format_message()}", err=True)


def handle_user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that ``ValueError`` (our domain errors) becomes a :class:`UserError`.

    The engine raises ``ValueError`` subclasses whose messages name the bad
    input (``InvalidCardsError``, ``IllegalPlayError``, …); at the edge of the
    program they become one line instead of a traceback.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ValueError as error:
            raise UserError(str(error)) from None

    return wrapper

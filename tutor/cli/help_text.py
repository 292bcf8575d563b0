"""``--help`` texts from the string catalogues, in the learner's language.

click takes a command's help from its docstring and an option's from ``help=``:
English fixed at import time.  The classes here look the texts up in
``tutor/i18n/<lang>/help.yaml`` when click formats the help instead, so they
live with every other user-facing string and exist in every language.

Keys follow the command path under ``ddz``: the command ``ddz bench solver``
reads ``help.bench.solver``, its option ``--repeat`` reads
``help.bench.solver.repeat`` (the parameter's name, so ``--json`` is
``….as_json``), the root group reads ``help.main``.  A command may name its key
(``help_key``, for the puzzle-id commands that have no fixed name) and give
values for ``{placeholders}`` (``help_values``, for numbers the code owns).

The texts are swapped into the command and its parameters only while click
formats, and put back afterwards, so click keeps doing the wrapping, the
``[default: …]`` and range hints; click's own strings ("Usage:", "Options:",
"[default: …]", "Show this message and exit.") come from ``help.click_*`` too.  A group's listing shows the first
sentence of each subcommand's text, cut by click as before.

The language of the help: ``--lang X`` on the command line (seen in
:meth:`TranslatedHelp.parse_args`, before click acts on ``--help``), else the
environment variable ``DDZ_LANG``, else English.  The language remembered in
the learner's store is deliberately *not* read: :meth:`tutor.store.Store.open`
creates the data folder and database when they are missing, writes on every
open and can fail on a damaged or newer file — too much for ``--help``.
Anything unknown means English; help never fails over its language.

The same choice sets the language a command *runs* in
(:meth:`TranslatedHelp.invoke`), and every command has a ``--lang`` option
(added here when the command does not declare one).  A command that reads
the language remembered in the store asks :func:`choose_language`, so the
order is always ``--lang`` > ``DDZ_LANG`` > remembered > English.

:class:`LazyGroup` is a group whose commands are imported only when used,
while its ``--help`` still lists them all (texts from the catalogues).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from gettext import gettext
from importlib import import_module
from typing import Any, Protocol

import click

from tutor.cli.say import WIDE_PAD, in_cells, terminal_width
from tutor.i18n import DEFAULT_LANGUAGE, LANGUAGES, lookup, set_language

AREA = "help"
#: The name click gives the ``ddz`` group (its function is ``main``); its key is ``help.main``.
ROOT = "main"
LANG_VARIABLE = "DDZ_LANG"
_LANG_META = "tutor.cli.help_text.lang"


class _HasHelp(Protocol):
    help: str | None


def command_key(ctx: click.Context, command: click.Command | None = None) -> str:
    """The catalogue key of ``command`` — by default ``ctx.command``, else a subcommand of it."""
    command = command or ctx.command
    own = getattr(command, "help_key", None)
    if own:
        return f"{AREA}.{own}"
    names: list[str] = []
    node: click.Context | None = ctx
    while node is not None:
        names.insert(0, node.command.name or "")
        node = node.parent
    if command is not ctx.command:
        names.append(command.name or "")
    if len(names) > 1 and names[0] == ROOT:
        names = names[1:]
    return ".".join([AREA, *names])


def lang_on_command_line(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` before ``--`` (the last one is what click keeps)."""
    found = None
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(args):
            found = args[index + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def help_language(ctx: click.Context | None) -> str:
    """``--lang`` seen on the command line, else ``$DDZ_LANG``, else English."""
    return choose_language(None, ctx)


def choose_language(remembered: object = None, ctx: click.Context | None = None, given: object = None) -> str:
    """The language to speak: ``--lang`` > ``$DDZ_LANG`` > ``remembered`` (the store's) > English.

    ``given`` is a command's own ``--lang`` value; ``ctx`` defaults to the
    current click context (none: no ``--lang`` seen).  Anything that is not a
    known language is skipped.
    """
    if ctx is None:
        ctx = click.get_current_context(silent=True)
    seen = ctx.meta.get(_LANG_META) if ctx is not None else None
    for candidate in (given, seen, os.environ.get(LANG_VARIABLE), remembered):
        if candidate in LANGUAGES:
            return str(candidate)
    return DEFAULT_LANGUAGE


def use_language(remembered: object = None, given: object = None) -> str:
    """Set the language of :func:`tutor.i18n.t` by :func:`choose_language`; returns it."""
    lang = choose_language(remembered, given=given)
    set_language(lang)
    return lang


def _remember_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_LANG_META] = value
    return value


def lang_option() -> click.Option:
    """The ``--lang`` every command gets when it declares none (help text: ``help.lang``)."""
    return click.Option(
        ["--lang"],
        type=click.Choice(LANGUAGES),
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_remember_lang,
    )


def help_text(key: str, lang: str, values: Mapping[str, object]) -> str | None:
    """The catalogue text of ``key`` in ``lang`` (else English), or None when there is none.

    A translation whose placeholders do not fit ``values`` falls back to the
    English text rather than breaking ``--help``.
    """
    for candidate in dict.fromkeys((lang, DEFAULT_LANGUAGE)):
        text = lookup(key, candidate)
        if text is None:
            return None
        if not values:
            return text
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            continue
    return None


@contextmanager
def _swapped(texts: Iterable[tuple[_HasHelp, str | None]]) -> Iterator[None]:
    """Give each object its catalogue text (None: keep its own) and restore the old texts afterwards."""
    chosen = [(owner, text) for owner, text in texts if text is not None]
    saved = [(owner, owner.help) for owner, _ in chosen]
    try:
        for owner, text in chosen:
            owner.help = text
        yield
    finally:
        for owner, old in saved:
            owner.help = old


#: click's own words in a formatted help (headings, usage prefix, option hints) → catalogue keys.
_CLICK_WORDS = (("Usage:", "usage"), ("Options:", "options"), ("Commands:", "commands"),
                ("Arguments:", "arguments"), ("[default: ", "default"), ("required]", "required"),
                ("Show this message and exit.", "help"))


#: The narrowest terminal click formats help for by itself (its formatter is at least 50 wide, plus a margin of 2).
CLICK_MIN_WIDTH = 52


#: click's metavars in a usage line → catalogue keys.
_METAVARS = (("[OPTIONS]", "options_metavar"), ("COMMAND [ARGS]...", "command_metavar"))


def _click_words(chunks: list[str], lang: str) -> list[str]:
    """The help click formatted, with click's English words (``Usage:``, ``Options:``,
    ``[default: …]``) in ``lang`` — they are not in click's ``help=`` texts, so not swapped above."""
    if lang == DEFAULT_LANGUAGE:
        return chunks
    words = [(english, lookup(f"{AREA}.click_{key}", lang)) for english, key in _CLICK_WORDS]
    out = []
    for chunk in chunks:
        for english, local in words:
            if local is None:
                continue
            if english == "[default: ":  # at a narrow width click may break the line after "[default:"
                head = local.rstrip()
                chunk = _DEFAULT_BROKEN.sub(lambda m: head + m.group(1), chunk)
            chunk = chunk.replace(english, local)
        out.append(chunk)
    return out


#: "[default:" at the end of a line of a narrow help (the value on the next): the gap kept as it is.
_DEFAULT_BROKEN = re.compile(r"\[default:(\s*\n\s*)")


class _NarrowFormatter(click.HelpFormatter):
    """click's formatter, measuring in terminal columns, whose lists (options, commands) give the text room on a
    narrow terminal.

    Below 50 columns a first column of up to 30 («--level [easy|medium|hard]») left the text 6 columns
    and click cut words («remem» / «bered»): there a long option stands on its own line, its text under it.
    Every text passes through :func:`in_cells` on its way in and loses its pads in :meth:`getvalue` (click's
    ``get_help`` and ``get_usage`` read the help from there), so a wide character counts two columns in each of
    click's measures: the wrapping, the usage line's indent, the lists' columns.  (A word wider than the whole
    line, which click cuts, could be cut between a wide character and its pad; no text of ours has one.)
    """

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(in_cells(prog), in_cells(args), None if prefix is None else in_cells(prefix))

    def write_heading(self, heading: str) -> None:
        super().write_heading(in_cells(heading))

    def write_text(self, text: str) -> None:
        super().write_text(in_cells(text))

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        rows = [(in_cells(first), in_cells(second)) for first, second in rows]
        super().write_dl(rows, col_max if self.width >= 50 else max(10, self.width // 3), col_spacing)

    def getvalue(self) -> str:
        return super().getvalue().replace(WIDE_PAD, "")


class _Context(click.Context):
    formatter_class = _NarrowFormatter


class TranslatedHelp(click.Command):
    """What commands and groups share: catalogue texts swapped in while click formats help."""

    context_class = _Context

    def __init__(
        self,
        *args: Any,
        help_key: str | None = None,
        help_values: Mapping[str, object] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.help_key = help_key
        self.help_values: dict[str, object] = dict(help_values or {})
        if not any(param.name == "lang" for param in self.params):
            self.params.append(lang_option())

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        # click formats help 50 columns wide at the least: on a 40-column terminal each line of --help ran past
        # the edge and the terminal cut it inside a word.  A terminal narrower than that gets its own width
        # (less click's margin of 2); the contexts below inherit it.
        if parent is None and "terminal_width" not in extra:
            width = terminal_width()
            if width is not None and width < CLICK_MIN_WIDTH:
                extra["terminal_width"] = width - 2
        return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        # The language the command speaks, before it prints anything (a command that
        # reads the store may refine it with use_language(remembered)).
        set_language(help_language(ctx))
        return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Before click parses: an eager --help prints and exits from inside the parse.
        lang = lang_on_command_line(args)
        if lang is not None:
            ctx.meta[_LANG_META] = lang
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The scope makes ctx current, so that a group's listing can find its subcommands' keys.
        key = command_key(ctx)
        lang = help_language(ctx)
        texts: list[tuple[_HasHelp, str | None]] = [(self, help_text(key, lang, self.help_values))]
        help_option = self.get_help_option(ctx)  # named "help" or "_click_default_help" by click's version
        for param in self.get_params(ctx):
            text = help_text(f"{key}.{param.name}", lang, self.help_values)
            if text is None and param.name == "lang":
                text = help_text(f"{AREA}.lang", lang, {})
            if text is None and param.name == "version":  # click's own option
                text = help_text(f"{AREA}.click_{param.name}", lang, {})
            if text is None and param is help_option:
                # Swapped before click wraps it: replaced afterwards (_click_words), "Show this message
                # and exit." stayed English wherever the column was too narrow to hold it on one line.
                text = help_text(f"{AREA}.click_help", lang, {})
            texts.append((param, text))
        start = len(formatter.buffer)
        with ctx.scope(cleanup=False), _swapped(texts):
            super().format_help(ctx, formatter)
        formatter.buffer[start:] = _click_words(formatter.buffer[start:], lang)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The usage line in the help's language before click wraps it: swapped afterwards (_click_words), the
        # Russian line grew past the width click had wrapped it to (54 columns on a 40-column terminal), and
        # its [OPTIONS] and COMMAND [ARGS]... stayed English.
        lang = help_language(ctx)
        pieces = " ".join(self.collect_usage_pieces(ctx))
        for english, key in _METAVARS:
            pieces = pieces.replace(english, lookup(f"{AREA}.click_{key}", lang) or english)
        formatter.write_usage(ctx.command_path, pieces, prefix=(lookup(f"{AREA}.click_usage", lang) or "Usage:") + " ")

    def get_short_help_str(self, limit: int = 45) -> str:
        # Called by the parent group's listing, with the parent's context current.
        ctx = click.get_current_context(silent=True)
        if ctx is None:
            return super().get_short_help_str(limit)
        text = help_text(command_key(ctx, self), help_language(ctx), self.help_values)
        with _swapped([(self, text)]):
            return super().get_short_help_str(limit)


class TranslatedCommand(TranslatedHelp):
    """A ``ddz`` command: ``@click.command("solve", cls=TranslatedCommand)``."""


class TranslatedGroup(TranslatedHelp, click.Group):
    """A ``ddz`` group; commands and groups declared on it get the translated classes too."""

    command_class = TranslatedCommand
    group_class = type


def subcommand_key(ctx: click.Context, name: str) -> str:
    """The catalogue key of the subcommand ``name`` of ``ctx.command`` (without loading it)."""
    key = command_key(ctx)
    return f"{AREA}.{name}" if key == f"{AREA}.{ROOT}" else f"{key}.{name}"


class LazyGroup(TranslatedGroup):
    """A group whose commands are imported only when one is used.

    ``lazy_commands`` maps a command's name to the module whose ``COMMANDS``
    list holds it.  ``--help`` lists every command with the first sentence of
    its catalogue text, importing nothing (a text with ``{placeholders}``
    needs its command: that one is loaded).
    """

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands: dict[str, str] = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(self.lazy_commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            module = import_module(self.lazy_commands[cmd_name])
            for command in module.COMMANDS:
                if command.name in self.lazy_commands and command.name not in self.commands:
                    self.add_command(command)
        return self.commands.get(cmd_name)

    def _short_help(self, ctx: click.Context, name: str, limit: int) -> str:
        if name not in self.commands:
            text = help_text(subcommand_key(ctx, name), help_language(ctx), {})
            if text is not None and "{" not in text:
                # click's own shortening, through a stand-in (its helper is private from 8.2).
                return click.Command(name, help=text).get_short_help_str(limit)
        command = self.get_command(ctx, name)
        return "" if command is None else command.get_short_help_str(limit)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = [n for n in self.list_commands(ctx) if n in self.lazy_commands or not self.commands[n].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(name, self._short_help(ctx, name, limit)) for name in names]
        with formatter.section(gettext("Commands")):
            formatter.write_dl(rows)

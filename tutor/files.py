"""Reading files a user hands us with bounds, and writing files without surprises.

Lesson and puzzle files come from anywhere (a course author, a download, a
shared folder), so reading one must not be able to hang the program or eat the
machine's memory:

* only regular files are opened (a FIFO would block forever, ``/dev/zero``
  never ends), opened non-blocking and checked with ``fstat`` before reading;
* at most :data:`MAX_BYTES` are read (5 MB: the whole shipped puzzle library
  is about half a megabyte);
* YAML is parsed event by event with a safe loader, and the document is built
  here, iteratively: aliases (``*name``) are refused — they are how a
  570-byte "billion laughs" file becomes gigabytes — nesting deeper than
  :data:`MAX_DEPTH` is refused, and so is a document of more than
  :data:`MAX_NODES` values.  No recursion, so no ``RecursionError``.

Every failure is a :class:`FileProblem` whose message is one line naming the
file, the line (when there is one) and what is wrong.  :class:`UnreadableFile`
means the file could not be read at all (the CLI exits 2);
:class:`InvalidFile` means it was read but is not valid (exit 1).

Writing: :func:`atomic_write_text` writes a temporary file created safely in
the target's folder (``tempfile.mkstemp``: a fresh name, ``O_EXCL``, so a
symlink planted in a shared folder such as ``/tmp`` is never followed) and
renames it over the target, so a reader sees the old file or the new one,
never half of one.

This module is layer-neutral (stdlib and PyYAML only): lessons, puzzles,
bench and the store's caches all use it.
"""

from __future__ import annotations

import errno
import math
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

import yaml

#: Largest lesson or puzzle file read (bytes).
MAX_BYTES = 5 * 1024 * 1024
#: Deepest nesting of lists and mappings accepted.
MAX_DEPTH = 64
#: Most values (scalars, lists, mappings) in one document (the largest shipped file has ~18,000).
MAX_NODES = 200_000
#: Longest quotation of user input or of a path in a message.
QUOTE = 40

#: A path inside a document: mapping keys and list indexes, from the root.
FieldPath = tuple[Any, ...]


class FileProblem(ValueError):
    """A file that could not be used; the message is one line (file, line, what).

    ``what`` is the message without the file's name (``line 3: contains a NUL
    byte``), for reports that print the file in a column of their own.
    """

    exit_code = 1

    def __init__(self, name: str, what: str) -> None:
        super().__init__(f"{name}: {what}" if name else what)
        self.what = what


class UnreadableFile(FileProblem):
    """The file could not be read at all (missing, not a regular file, too big, no permission)."""

    exit_code = 2


class InvalidFile(FileProblem):
    """The file was read but its content is not valid (encoding, YAML, limits)."""

    exit_code = 1


def shown(path: Path | str) -> str:
    """A path as messages quote it: at most :data:`QUOTE` characters (the end kept)."""
    text = str(path)
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= QUOTE else "…" + text[-(QUOTE - 1) :]


def shorten(text: str, limit: int = 100) -> str:
    """One line of at most ``limit`` characters (messages never print whole structures)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def quoted(value: object) -> str:
    """At most :data:`QUOTE` characters of a bad value, quoted, on one line (the guide's rule)."""
    text = " ".join(str(value).split()) if isinstance(value, str) else repr(value)
    return repr(text if len(text) <= QUOTE else text[: QUOTE - 1] + "…")


def ascii_int(text: str, max_digits: int = 20, *, signed: bool = False) -> int | None:
    """``text`` as an integer when it is 1 to ``max_digits`` ASCII digits (a ``-`` first when ``signed``); else None.

    The one way text becomes a number (issue 32): ``str.isdigit()`` is true for ``²`` and ``①``,
    on which ``int()`` then raises, and ``int()`` itself takes ``１２``, ``٣``, ``1_000`` and
    spaces.  Only 0-9 are digits here, and a bounded count of them (no 5,000-digit int).
    """
    digits = text[1:] if signed and text.startswith("-") else text
    if not 0 < len(digits) <= max_digits or not digits.isascii() or not digits.isdigit():
        return None
    return int(text)


_LONG_QUOTE = re.compile(r"'([^'\n]{%d})[^'\n]+" % (QUOTE - 1))


def clip_quotes(message: str) -> str:
    """``message`` with every quoted value ('…') cut to :data:`QUOTE` characters.

    For messages built deep down (a card parser's "bad card 'x' in '…'") that a
    report prints as they are: a 100,000-character value becomes 40.
    """
    return _LONG_QUOTE.sub(lambda m: f"'{m.group(1)}…", message)


def one_line(message: str, limit: int = 100) -> str:
    """A message built deep down as one line of at most ``limit`` characters, its quoted values cut first.

    Why this order: cut to ``limit`` first, a long quoted value (a text file given where a puzzle file
    belongs) used up the line and the words naming the problem ("is not of type 'object'") were lost.
    """
    return shorten(clip_quotes(" ".join(message.split())), limit)


# ------------------------------------------------------------- YAML scalars
# Only what JSON has: null, booleans, integers, finite floats and strings.  PyYAML's
# YAML 1.1 resolver also reads base-60 integers ("1:0:0" is 3600, built in quadratic
# time: a 1.6 MB value cost 99 s of CPU), timestamps, "yes"/"no"/"on"/"off", and
# NaN and infinities; none of those belongs in a lesson or a puzzle, so a plain
# scalar that is not one of the forms below is a string, and an explicit tag other
# than the JSON ones is refused.  Every pattern is a single linear scan.
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
#: A dot, and an exponent with its sign, as PyYAML reads YAML 1.1: puzzle ids such as
#: ``13e766`` and ``040184`` stay strings, as they were written.
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?")
#: ``!!float 0123``: one sign at most, then ASCII digits (``++1`` and ``²`` are no float: issue 32).
_DIGITS = re.compile(r"[-+]?[0-9]+")
_NOT_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
#: Longest number accepted, in characters (2**64 has 20 digits; Python refuses over 4,300).
MAX_DIGITS = 40
_TAG = "tag:yaml.org,2002:"
_TAGS = {f"{_TAG}{kind}": kind for kind in ("str", "int", "float", "bool", "null")}
_NOT_JSON = object()


def scalar_value(event: Any, name: str) -> Any:
    """The value of one YAML scalar event, JSON types only (raises :class:`InvalidFile`)."""
    text: str = event.value
    tag = event.tag
    if tag == "!" or (tag is None and not event.implicit[0]):
        return text  # quoted, or the non-specific tag: a string
    kind = "auto" if tag is None else _TAGS.get(tag)
    if kind is None:
        raise InvalidFile(name, f"line {event.start_mark.line + 1}: the YAML tag {quoted(tag)} is not supported")
    if kind == "str":
        return text
    value = _resolve(text, kind)
    if value is _NOT_JSON:
        if kind == "auto":
            return text
        raise InvalidFile(name, f"line {event.start_mark.line + 1}: {quoted(text)} is not a valid {kind}")
    if isinstance(value, str):
        raise InvalidFile(name, f"line {event.start_mark.line + 1}: {quoted(text)} {value}")
    return value


def _resolve(text: str, kind: str) -> Any:
    """``text`` as ``kind`` ("auto": whichever JSON type it spells); _NOT_JSON when none; a str names a problem."""
    if kind in ("auto", "null") and text in _NULLS:
        return None
    if kind in ("auto", "bool") and text in _BOOLS:
        return _BOOLS[text]
    if kind in ("auto", "int", "float"):
        whole = _INT.fullmatch(text) is not None
        if whole or _FLOAT.fullmatch(text) or (kind == "float" and _DIGITS.fullmatch(text)):
            if len(text) > MAX_DIGITS:
                return f"is too long for a number (the limit is {MAX_DIGITS} characters)"
            if whole and kind != "float":
                return int(text)
            if kind != "int":
                number = float(text)
                return number if math.isfinite(number) else _NON_FINITE
        if _NOT_FINITE.fullmatch(text):
            return _NON_FINITE
    return _NOT_JSON


_NON_FINITE = "is not a finite number (NaN and infinities are refused)"


# ----------------------------------------------------------------- reading
def read_bytes(path: Path | str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (raises :class:`UnreadableFile`)."""
    name = shown(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "bad file name"
        raise UnreadableFile(name, f"cannot read ({reason.lower()})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableFile(name, "cannot read (it is a folder)")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(name, "cannot read (not a regular file)")
        if info.st_size > limit:
            raise UnreadableFile(name, f"cannot read (too large: {info.st_size:,} bytes, the limit is {limit:,})")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise UnreadableFile(name, f"cannot read (larger than the limit of {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(name, f"cannot read ({(error.strerror or 'I/O error').lower()})") from None
    finally:
        os.close(fd)


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 text without NUL bytes (raises :class:`InvalidFile` with the line)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidFile(name, f"line {line}: not UTF-8 text") from None
    nul = text.find("\0")
    if nul >= 0:
        raise InvalidFile(name, f"line {text.count(chr(10), 0, nul) + 1}: contains a NUL byte")
    return text


def read_text(path: Path | str, limit: int = MAX_BYTES) -> str:
    """A bounded UTF-8 text file (see :func:`read_bytes` and :func:`decode_text`)."""
    return decode_text(read_bytes(path, limit), shown(path))


# -------------------------------------------------------------------- YAML
_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MAP_TAGS = {None, "!", "tag:yaml.org,2002:map"}
_SEQ_TAGS = {None, "!", "tag:yaml.org,2002:seq"}


class _Frame:
    """One open list or mapping while the document is being built."""

    __slots__ = ("container", "path", "key", "key_line", "is_map")

    def __init__(self, container: Any, path: FieldPath, is_map: bool) -> None:
        self.container = container
        self.path = path
        self.is_map = is_map
        self.key: Any = _NO_KEY
        self.key_line = 0


_NO_KEY = object()


def parse_yaml(
    text: str, name: str = "<text>", lines: dict[FieldPath, int] | None = None, max_nodes: int = MAX_NODES
) -> Any:
    """Parse one YAML document safely and within bounds.

    Args:
        text: the document.
        name: how messages name the file.
        lines: when given, filled with the 1-based line of every field path
            (a mapping value is reported on the line of its key).
        max_nodes: most values accepted.

    Raises:
        InvalidFile: not valid YAML, an alias, a merge key, too deep, too many values.
    """
    loader = _Parser(text)
    try:
        return _build(loader, name, lines, max_nodes)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise InvalidFile(name, f"{where}not valid YAML ({shorten(problem, 60)})") from None
    finally:
        loader.dispose()


def _build(loader: Any, name: str, lines: dict[FieldPath, int] | None, max_nodes: int) -> Any:
    stack: list[_Frame] = []
    root: Any = None
    documents = 0
    nodes = 0

    def fail(event: Any, what: str) -> InvalidFile:
        return InvalidFile(name, f"line {event.start_mark.line + 1}: {what}")

    def place(value: Any, event: Any) -> tuple[FieldPath, int] | None:
        """Put ``value`` where it belongs; returns its path and line (None for a mapping key)."""
        nonlocal root
        line = event.start_mark.line + 1
        if not stack:
            root = value
            path: FieldPath = ()
        else:
            top = stack[-1]
            if top.is_map:
                if top.key is _NO_KEY:
                    if isinstance(value, (list, dict)):
                        raise fail(event, "a mapping key must be a plain value")
                    try:
                        hash(value)
                    except TypeError:
                        raise fail(event, "a mapping key must be a plain value") from None
                    if value in top.container:
                        raise fail(event, f"the key {quoted(value)} appears twice")
                    top.key, top.key_line = value, line
                    return None
                path = (*top.path, top.key)
                line = top.key_line
                top.container[top.key] = value
                top.key = _NO_KEY
            else:
                path = (*top.path, len(top.container))
                top.container.append(value)
        if lines is not None:
            lines[path] = line
        return path, line

    while not loader.check_event(yaml.StreamEndEvent):
        event = loader.get_event()
        if isinstance(event, (yaml.StreamStartEvent, yaml.DocumentEndEvent)):
            continue
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise fail(event, "more than one YAML document in the file")
            continue
        if isinstance(event, yaml.AliasEvent):
            raise fail(event, "YAML aliases (*name) are not allowed")
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            stack.pop()
            continue
        nodes += 1
        if nodes > max_nodes:
            raise fail(event, f"too many values (the limit is {max_nodes:,})")
        if isinstance(event, yaml.ScalarEvent):
            awaiting_key = bool(stack) and stack[-1].is_map and stack[-1].key is _NO_KEY
            if awaiting_key and event.value == "<<" and event.tag is None and event.implicit[0]:
                raise fail(event, "YAML merge keys are not supported")
            place(scalar_value(event, name), event)
            continue
        is_map = isinstance(event, yaml.MappingStartEvent)
        if event.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
            raise fail(event, f"the YAML tag {quoted(event.tag)} is not supported")
        if len(stack) >= MAX_DEPTH:
            raise fail(event, f"nested too deeply (the limit is {MAX_DEPTH} levels)")
        container: Any = {} if is_map else []
        placed = place(container, event)
        if placed is None:
            raise fail(event, "a mapping key must be a plain value")
        stack.append(_Frame(container, placed[0], is_map))
    return root


def load_yaml_file(
    path: Path | str, lines: dict[FieldPath, int] | None = None, limit: int = MAX_BYTES
) -> Any:
    """Read and parse one YAML file within every bound (see the module docstring)."""
    return parse_yaml(read_text(path, limit), shown(path), lines)


# ----------------------------------------------------------------- writing
class NotARegularFile(OSError):
    """A path to be written names something that is not a regular file (a device, a FIFO, a folder, a socket)."""


def refuse_unless_regular(path: Path | str) -> None:
    """Raise :class:`NotARegularFile` when ``path`` exists and is not a regular file (symlinks followed).

    Issue 32: ``ddz store export /dev/full`` as root replaced the machine's ``/dev/full``
    with a regular file, because ``os.replace`` replaces whatever is there.  A new file,
    or a regular one (or a link to one), may be written; anything else is named and left alone.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return  # missing (a new file), or a name the write itself will refuse in its own words
    if stat.S_ISDIR(info.st_mode):
        raise NotARegularFile(errno.EISDIR, "it is a folder", str(path))
    if not stat.S_ISREG(info.st_mode):
        raise NotARegularFile(errno.EINVAL, "not a regular file", str(path))


def atomic_write_text(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` atomically, never following a planted symlink.

    The temporary file is made by :func:`tempfile.mkstemp` in the target's
    folder (a new, unpredictable name opened with ``O_EXCL``), flushed to disk
    and renamed over the target (``os.replace`` replaces a symlink itself,
    never the file it points to); on any failure it is removed.
    """
    target = Path(path)
    refuse_unless_regular(target)
    try:
        info = os.lstat(target)
        mode = stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else 0o644
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:40]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            if hasattr(os, "fchmod"):
                os.fchmod(out.fileno(), mode)
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

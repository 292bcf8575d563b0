"""Reading lesson files with the line number of every field.

A lesson author who gets "steps[4].task.accept.moves[1]: 5566 is not in your
hand" also needs to know *where* that is in the file, so the loader keeps, for
every path in the document, the line it starts on.  PyYAML gives positions
only on its node tree, so we compose the nodes once, build the Python data
from them, and record each node's line on the way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.files import FileProblem, InvalidFile, decode_text, parse_yaml, read_bytes

#: A path inside a lesson document: mapping keys and list indexes, from the root.
FieldPath = tuple[str | int, ...]


class LessonFileError(ValueError):
    """A lesson file that cannot be read as YAML at all (the message has the line)."""


@dataclass(frozen=True)
class LessonDocument:
    """The raw data of one lesson file, with the line of every field.

    Attributes:
        path: where it came from (used in every problem report).
        data: the parsed YAML (dicts, lists, scalars).
        lines: 1-based line of each field path; the root is ``()``.
    """

    path: Path
    data: Any
    lines: dict[FieldPath, int] = field(default_factory=dict)

    def line(self, where: FieldPath) -> int:
        """The line of ``where``, or of its closest ancestor that has one."""
        probe = tuple(where)
        while probe:
            if probe in self.lines:
                return self.lines[probe]
            probe = probe[:-1]
        return self.lines.get((), 1)


def format_path(where: FieldPath) -> str:
    """``("steps", 3, "task")`` → ``steps[3].task`` (the form problem reports use)."""
    out = ""
    for part in where:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


def parse_lesson_text(text: str, path: Path | str = "<text>") -> LessonDocument:
    """Parse YAML text into a :class:`LessonDocument` (raises :class:`LessonFileError`).

    Parsing is bounded (:mod:`tutor.files`): no aliases, no merge keys, limited
    nesting and size, so a hostile file costs milliseconds, not gigabytes.
    """
    lines: dict[FieldPath, int] = {}
    try:
        data = parse_yaml(text, "", lines)
    except FileProblem as error:
        raise LessonFileError(error.what) from None
    return LessonDocument(Path(path), data, lines)


def load_lesson_file(path: Path | str) -> LessonDocument:
    """Read one lesson file.

    Raises:
        LessonFileError: the file was read but is not valid (encoding, YAML, limits).
        UnreadableFile: it could not be read (missing, not a regular file, over 5 MB).
    """
    path = Path(path)
    data = read_bytes(path)
    try:
        text = decode_text(data, "")
    except InvalidFile as error:
        raise LessonFileError(error.what) from None
    return parse_lesson_text(text, path)


def lesson_files(folder: Path) -> list[Path]:
    """The lesson files of a folder in course order (file names start with their number)."""
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())
